/**
 * Validates a customer list (CSV: countryCode, vatId, companyName, city, metadata.customerId) one
 * request per row with `client.tax.runBatch` (strategy `single`: outcomes come back inline) and
 * prints how many rows ended in each outcome, then the rows that need a look.
 *
 *   SVC_BASE_URL=http://127.0.0.1:4010 SVC_API_KEY=ak_demo_project npx tsx examples/validate-customers.ts [file.csv]
 *
 * Exit code 1 when a row could not be sent (network, server error), 0 otherwise.
 *
 * In your app, import from 'svc-sdk' instead of '../src/index.js' (and `npm install csv-parse`).
 */
import { createReadStream } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse';
import { SvcClient, type ValidateParams } from '../src/index.js';

/** Options of {@link main}. */
export interface ValidateCustomersOptions {
  /** The CSV file. Default: `examples/data/customers.csv`. */
  file?: string;
  /** Default: `SvcClient.fromEnv()`, configured by SVC_BASE_URL and SVC_API_KEY. */
  client?: SvcClient;
  /** Requests in flight. Default 4. */
  concurrency?: number;
  /** Where the report goes, one line per call. Default `console.log`. */
  print?: (line: string) => void;
  signal?: AbortSignal;
}

/** A row that did not come back VALID. */
export interface RowToCheck {
  row: number;
  customerId: string | undefined;
  /** The registry's outcome, or PENDING, REJECTED (bad row, never sent), FAILED (not sent). */
  outcome: string;
  detail: string | undefined;
}

/** What {@link main} found. */
export interface CustomerSummary {
  rows: number;
  /** Rows per outcome, e.g. `{ VALID: 12, INVALID: 2, REJECTED: 1 }`. */
  byOutcome: Record<string, number>;
  /** Every row whose outcome is not VALID, in file order. */
  toCheck: RowToCheck[];
}

type CsvRecord = Record<string, string | undefined>;

/** One CSV record as a validation request; empty cells are left out. */
export function toRequest(record: CsvRecord): ValidateParams {
  const value = (name: string) => record[name]?.trim() || undefined;
  const city = value('city');
  const customerId = value('metadata.customerId');
  return {
    countryCode: value('countryCode')?.toUpperCase() ?? '',
    rawValue: value('vatId') ?? '',
    ...(value('companyName') && { companyName: value('companyName') }),
    ...(city && { address: { city } }),
    // Metadata keys are limited to a-z, 0-9, `_` and `-`.
    ...(customerId && { customerMetadata: { customer_id: customerId } }),
  };
}

function outcomeOf(status: string, outcome: string | undefined): string {
  if (status === 'completed') return outcome ?? 'UNKNOWN';
  if (status === 'submitted') return 'PENDING';
  return status.toUpperCase();
}

/** Validates every row of the file and reports the outcomes. */
export async function main(options: ValidateCustomersOptions = {}): Promise<CustomerSummary> {
  const file = options.file ?? fileURLToPath(new URL('./data/customers.csv', import.meta.url));
  const print = options.print ?? console.log;
  const client = options.client ?? SvcClient.fromEnv();
  const records: CsvRecord[] = [];
  const parser = createReadStream(file).pipe(parse({ columns: true, bom: true, skip_empty_lines: true }));
  // The customer ids are needed for the report; a list of customers fits in memory.
  for await (const record of parser) records.push(record as CsvRecord);

  const summary: CustomerSummary = { rows: 0, byOutcome: {}, toCheck: [] };
  try {
    for await (const result of client.tax.runBatch(records.map(toRequest), {
      strategy: 'single',
      concurrency: options.concurrency ?? 4,
      ...(options.signal && { signal: options.signal }),
    })) {
      const outcome = outcomeOf(result.status, result.outcome);
      summary.rows += 1;
      summary.byOutcome[outcome] = (summary.byOutcome[outcome] ?? 0) + 1;
      if (outcome !== 'VALID') {
        summary.toCheck.push({
          row: result.row,
          customerId: records[result.row - 1]?.['metadata.customerId'],
          outcome,
          detail: result.message ?? (result.provider ? `answered by ${result.provider}` : undefined),
        });
      }
    }
  } finally {
    // Only close a client this function made.
    if (!options.client) await client.close();
  }

  print(`${summary.rows} customers validated`);
  for (const [outcome, count] of Object.entries(summary.byOutcome).sort((a, b) => b[1] - a[1])) {
    print(`  ${outcome.padEnd(20)} ${count}`);
  }
  if (summary.toCheck.length > 0) print('to check:');
  for (const r of summary.toCheck) {
    print(
      `  row ${r.row} (${r.customerId ?? 'no customer id'}): ${r.outcome}${r.detail ? `: ${r.detail}` : ''}`,
    );
  }
  return summary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main({ ...(process.argv[2] && { file: process.argv[2] }) }).then(
    (summary) => {
      process.exitCode = summary.byOutcome.FAILED ? 1 : 0;
    },
    (error: unknown) => {
      console.error(`validate-customers: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
