import { defineCommand } from '../command.js';

/** `svc doctor`: its handler (doctor.ts) loads when it runs. */
export const doctorCommand = defineCommand({
  path: 'doctor',
  summary: 'per API: does the base URL answer, is the key accepted; where each setting came from',
  outputs: ['table', 'json', 'ndjson', 'csv'],
  examples: ['svc doctor', 'svc --profile staging doctor -o json'],
  load: async () => (await import('../handlers/doctor.js')).doctor,
});
