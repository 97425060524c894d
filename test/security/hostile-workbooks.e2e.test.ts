import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validDe } from '../helpers/batch-data.js';
import { ensureBuilt, type MeasuredRun, runSvcMeasured } from '../helpers/built-cli.js';
import { minimalWorkbook, zipBytes } from '../helpers/workbooks.js';

// Issue 33.1 from outside: the built `bin/svc.js --sandbox batch` on workbooks whose zip headers
// lie about their sizes, and on the largest workbook it accepts, with the child's own peak RSS.

const MiB = 1024 ** 2;
/** What a refused workbook may cost: the process itself takes about 60 MB. */
const REFUSED_RSS_MB = 150;
/** What the largest accepted workbook may cost (docs/guarantees.md). */
const ACCEPTED_RSS_MB = 400;
const SST_HEAD =
  '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

const dir = mkdtempSync(join(tmpdir(), 'svc-hostile-workbooks-'));
const peaks: string[] = [];
beforeAll(() => ensureBuilt(), 180_000);
afterAll(() => {
  if (peaks.length > 0) console.log(`peak RSS (built CLI): ${peaks.join('; ')}`);
  rmSync(dir, { recursive: true, force: true });
});

/** A shared strings table of `DE`, the VAT ID, then `<si>` from `filler(i)` up to `bytes`. */
function sharedStrings(vatId: string, bytes: number, filler: (i: number) => string): Buffer {
  const parts = [`${SST_HEAD}<si><t>DE</t></si><si><t>${vatId}</t></si>`];
  let size = parts[0]?.length ?? 0;
  for (let i = 0; size < bytes - 6; i++) {
    const si = filler(i);
    if (size + si.length > bytes - 6) break;
    parts.push(si);
    size += si.length;
  }
  parts.push('</sst>');
  return Buffer.from(parts.join(''));
}

async function batch(name: string, bytes: Buffer): Promise<MeasuredRun> {
  writeFileSync(join(dir, name), bytes);
  const run = await runSvcMeasured(['--sandbox', 'batch', name, '--out', `${name}.ndjson`], {}, dir);
  peaks.push(`${name} ${run.peakMb.toFixed(0)} MB`);
  return run;
}

function refusedInOneLine(run: MeasuredRun, message: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(run.peakMb).toBeLessThan(REFUSED_RSS_MB);
}

describe('a workbook whose zip headers declare less than it unpacks to is refused: exit 2, one line, under 150 MB', () => {
  for (const realMb of [150, 10]) {
    it(`shared strings declared 4096 bytes, really ${realMb} MB`, async () => {
      const table = sharedStrings(validDe(1), realMb * MiB, () => '<si><t>x</t></si>');
      const parts = { ...minimalWorkbook(table), 'xl/sharedStrings.xml': { data: table, declared: 4096 } };
      const run = await batch(`bomb-${realMb}.xlsx`, zipBytes(parts));
      refusedInOneLine(
        run,
        new RegExp(
          `^svc: bomb-${realMb}\\.xlsx looks like a zip bomb: xl/sharedStrings\\.xml unpacks to more than the 4096 bytes its zip header declares$`,
        ),
      );
    });
  }
});

describe('the largest workbook accepted stays under 400 MB', () => {
  it('64 MB of short distinct shared strings with 100,000 rich text runs, 16 MB styles, a 16 MB row', async () => {
    const table = sharedStrings(validDe(2), 64 * MiB - 1, (i) =>
      i < 99_990 ? `<si><r><t>${i.toString(36)}</t></r></si>` : `<si><t>${i.toString(36)}</t></si>`,
    );
    const xfs: string[] = [];
    for (let size = 0, i = 0; size < 16 * MiB - 4096; i++) {
      const xf = `<xf numFmtId="${i % 164}" fontId="${(i * 7919) % 100_003}" fillId="0" borderId="0"/>`;
      xfs.push(xf);
      size += xf.length;
    }
    const styles = `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs></styleSheet>`;
    const parts = minimalWorkbook(table);
    // A third row of 490 distinct cells of 32,000 characters (each refused alone only past 32,767).
    let seed = 1;
    const text = () =>
      Array.from({ length: 32_000 }, () => {
        seed = (seed * 48_271) % 2_147_483_647;
        return String.fromCharCode(97 + (seed % 26));
      }).join('');
    const cells = Array.from(
      { length: 490 },
      (_, i) =>
        `<c r="${String.fromCharCode(67 + (i % 20))}${String.fromCharCode(65 + Math.floor(i / 20))}3" t="inlineStr"><is><t>${text()}</t></is></c>`,
    );
    const sheet = (parts['xl/worksheets/sheet1.xml'] as Buffer)
      .toString()
      .replace(
        '</sheetData>',
        `<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3" t="s"><v>1</v></c>${cells.join('')}</row></sheetData>`,
      );
    const run = await batch(
      'largest.xlsx',
      zipBytes({
        ...parts,
        'xl/styles.xml': Buffer.from(styles),
        'xl/worksheets/sheet1.xml': Buffer.from(sheet),
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.peakMb).toBeLessThan(ACCEPTED_RSS_MB);
  }, 120_000);
});
