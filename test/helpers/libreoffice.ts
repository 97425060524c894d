import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** Whether LibreOffice's `soffice` runs here (Debian: libreoffice-calc-nogui). */
export const SOFFICE = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Converts a workbook to UTF-8 CSV with LibreOffice, on a private profile, beside the workbook;
 * returns its records.
 */
export async function libreOfficeCsv(path: string): Promise<string[][]> {
  const profile = mkdtempSync(join(tmpdir(), 'svc-lo-profile-'));
  try {
    await promisify(execFile)(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):44,34,76,1',
        '--outdir',
        dirname(path),
        path,
      ],
      { timeout: 120_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  const { parse } = await import('csv-parse/sync');
  return parse(readFileSync(path.replace(/\.xlsx$/, '.csv')), { relax_column_count: true, bom: true });
}
