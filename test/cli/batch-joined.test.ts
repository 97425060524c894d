import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressText } from '../../src/cli/handlers/batch-progress.js';
import { OUTPUT_COLUMNS } from '../../src/node/batch-file/result-columns.js';
import { DurableOutput } from '../../src/node/fs/output-file.js';
import { validDe, wrongCheckDigit } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-joined-'));
});
afterEach(() => vi.restoreAllMocks());
const file = (name: string) => join(dir, name);

const HEADER = ['countryCode', 'vatId', 'companyName', 'customerNo', 'note', 'status'];

/** Rows with mixed outcomes: valid, wrong check digit (INVALID at the registry), too long (rejected locally). */
function customers(rows: number): { text: string; cells: string[][] } {
  const cells: string[][] = [];
  for (let i = 1; i <= rows; i++) {
    let vat = validDe(i * 7919);
    if (i % 25 === 0) vat = '9'.repeat(25);
    else if (i % 10 === 0) vat = wrongCheckDigit(vat);
    const note = i % 50 === 1 ? '=HYPERLINK("http://x","y")' : i % 7 === 0 ? 'line one\nline "two"' : `n${i}`;
    cells.push([
      'DE',
      vat,
      `Kunde ${i}, GmbH`,
      `C-${String(i).padStart(5, '0')}`,
      note,
      i % 2 ? 'active' : 'old',
    ]);
  }
  const quote = (c: string) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
  const text = `${[HEADER, ...cells].map((r) => r.map(quote).join(',')).join('\n')}\n`;
  return { text, cells };
}

describe('results are joined to the input: its columns, then the outcome columns, in input order', () => {
  it('1,000 rows with mixed outcomes as CSV: every input column and the outcome columns; csv-parse reads 1,000 records', async () => {
    const { text, cells } = customers(1000);
    writeFileSync(file('in.csv'), text);
    // Submitted in batches; --wait joins each webhook outcome (confirmed by fetching the result).
    const run = await runSvc(['--sandbox', 'batch', file('in.csv'), '--wait', '--out', file('out.csv')], {
      env: {},
    });
    expect(run.code).toBe(0);
    const records = parse(readFileSync(file('out.csv')), { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1000);
    const header = (parse(readFileSync(file('out.csv')), { to_line: 1 }) as string[][])[0];
    // An input column named like an outcome column is kept as input.<name>.
    expect(header).toEqual([...HEADER.slice(0, 5), 'input.status', ...OUTPUT_COLUMNS]);
    records.forEach((r, i) => {
      const input = cells[i] as string[];
      expect(r.row).toBe(String(i + 1));
      expect([r.countryCode, r.vatId, r.companyName, r.customerNo, r['input.status']]).toEqual([
        input[0],
        input[1],
        input[2],
        input[3],
        input[5],
      ]);
      // Formula-looking cells are neutralised like every cell; others are as written.
      expect(r.note).toBe(input[4]?.startsWith('=') ? `'${input[4]}` : input[4]);
    });
    const by = (status: string, outcome?: string) =>
      records.filter((r) => r.status === status && (outcome === undefined || r.outcome === outcome));
    const rows = cells.map((_, i) => i + 1);
    const tooLong = rows.filter((i) => i % 25 === 0).length;
    const wrongDigit = rows.filter((i) => i % 10 === 0 && i % 25 !== 0).length;
    expect(by('rejected')).toHaveLength(tooLong);
    expect(by('rejected').every((r) => r.code && r.message)).toBe(true);
    expect(by('completed', 'INVALID')).toHaveLength(wrongDigit);
    expect(by('completed', 'VALID')).toHaveLength(1000 - tooLong - wrongDigit);
    const completed = by('completed');
    expect(completed.every((r) => r.provider && r.validationResultId && r.checkedAt)).toBe(true);
    expect(completed.every((r) => r.companyNameMatch)).toBe(true);
  });

  it('NDJSON: the outcome fields and the input cells under input, by header name', async () => {
    const { text, cells } = customers(30);
    writeFileSync(file('in.csv'), text);
    const run = await runSvc(['batch', file('in.csv'), '--strategy', 'single', '--out', file('out.ndjson')], {
      env: env(),
    });
    expect(run.code).toBe(0);
    const rows = readFileSync(file('out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: number; status: string; input: Record<string, string> });
    expect(rows.map((r) => r.row)).toEqual(cells.map((_, i) => i + 1));
    rows.forEach((r, i) => {
      expect(r.input).toEqual(Object.fromEntries(HEADER.map((h, c) => [h, (cells[i] as string[])[c]])));
    });
    expect(rows.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });
});

describe('--encoding names the input encoding; without it a non-UTF-8 file is read as windows-1252 with a warning', () => {
  it('an unknown encoding is a usage error (exit 2), nothing sent', async () => {
    writeFileSync(file('in.csv'), customers(3).text);
    const run = await runSvc(['batch', file('in.csv'), '--encoding', 'ebcdic-klingon'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown encoding 'ebcdic-klingon'/);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });

  it('the fallback is said on stderr; the names arrive intact', async () => {
    const text = `countryCode;vatId;companyName\nDE;${validDe(7919)};Société Générale – Œuvre\n`;
    writeFileSync(file('in.csv'), iconv.encode(text, 'windows-1252'));
    const run = await runSvc(['batch', file('in.csv'), '--strategy', 'single', '--out', file('out.ndjson')], {
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/not valid UTF-8 .* reading it as windows-1252/);
    const row = JSON.parse(readFileSync(file('out.ndjson'), 'utf8')) as { input: { companyName: string } };
    expect(row.input.companyName).toBe('Société Générale – Œuvre');
  });
});

describe('progress on a file shows rows done of the total, the percentage and an ETA', () => {
  const event = (rowsDone: number, rowsTotal: number | undefined, rowsPerSecond: number) => ({
    type: 'row' as const,
    result: { row: rowsDone, status: 'submitted' as const },
    rowsDone,
    rowsTotal,
    rowsPerSecond,
    counts: { rejected: 2 },
  });

  it('with a total: done / total (percent), ETA m:ss', () => {
    expect(progressText(event(1234, 10_000, 209))).toBe(
      'batch: 1,234 / 10,000 rows (12 %), ETA 0:42, 2 rejected, 0 failed, 209 rows/s',
    );
    expect(progressText(event(0, 1_000_000, 200))).toMatch(/ETA 1:23:20,/);
  });

  it('before the total is counted: rows done only', () => {
    expect(progressText(event(1234, undefined, 209))).toBe(
      'batch: 1,234 rows, 2 rejected, 0 failed, 209 rows/s',
    );
  });

  it('numbers are grouped as en-US writes them, for any count', () => {
    const enUS = new Intl.NumberFormat('en-US');
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 53 - 1 }), fc.nat({ max: 10_000_000 }), (rows, rate) => {
        expect(progressText(event(rows, undefined, rate))).toBe(
          `batch: ${enUS.format(rows)} rows, 2 rejected, 0 failed, ${enUS.format(rate)} rows/s`,
        );
      }),
    );
  });
});

describe('an unexpected error mid-run still checkpoints and says how to resume (exit 1)', () => {
  it('EMFILE after some rows: state saved, --resume hint, resume finishes the file', async () => {
    const { text } = customers(300);
    writeFileSync(file('in.csv'), text);
    // The third segment's write fails, as a full file table would make it.
    const original = DurableOutput.prototype.append;
    let writes = 0;
    vi.spyOn(DurableOutput.prototype, 'append').mockImplementation(function (this: DurableOutput, chunk) {
      if (this.path.endsWith('out.ndjson') && ++writes > 2)
        return Promise.reject(Object.assign(new Error('too many open files'), { code: 'EMFILE' }));
      return original.call(this, chunk);
    });
    const run = await runSvc(['batch', file('in.csv'), '--out', file('out.ndjson')], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/EMFILE/);
    expect(run.stderr).toMatch(/state saved to .*out\.ndjson\.state\.json \(run again with --resume\)/);
    const state = JSON.parse(readFileSync(file('out.ndjson.state.json'), 'utf8')) as {
      rowsDone: number;
      outBytes: number;
    };
    // Two segments were written whole; the state covers exactly them.
    expect(state.rowsDone).toBeGreaterThanOrEqual(200);
    expect(state.rowsDone).toBeLessThan(300);
    const kept = readFileSync(file('out.ndjson')).subarray(0, state.outBytes).toString('utf8');
    expect(
      kept
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { row: number }).row),
    ).toEqual(Array.from({ length: state.rowsDone }, (_, i) => i + 1));
    vi.restoreAllMocks();
    const resumed = await runSvc(['batch', file('in.csv'), '--out', file('out.ndjson'), '--resume'], {
      env: env(),
    });
    expect(resumed.code).toBe(0);
    const rows = readFileSync(file('out.ndjson'), 'utf8').trim().split('\n');
    expect(rows.map((l) => (JSON.parse(l) as { row: number }).row)).toEqual(
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
  });
});
