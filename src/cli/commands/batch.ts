import { defineCommand } from '../command.js';
import { batchOptions } from '../options/batch-options.js';

/** `svc batch FILE`: its handler (batch.ts, and the CSV and workbook readers behind it) loads when it runs. */
export const batchCommand = defineCommand({
  path: 'batch',
  summary: 'validate every row of a CSV file or Excel workbook (or - for stdin), resumably and exactly once',
  configure: batchOptions,
  outputs: ['ndjson', 'csv'],
  examples: [
    'svc batch customers.csv --out results.csv --rejects rejects.csv',
    'svc batch customers.csv --out results.ndjson --resume    # after exit 75',
    'cat ids.csv | svc batch - --strategy single -o ndjson',
  ],
  load: async () => (await import('../handlers/batch.js')).batch,
});
