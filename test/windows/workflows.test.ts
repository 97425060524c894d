import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { validDe, wrongCheckDigit } from '../helpers/batch-data.js';
import { ensureBuilt } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';
import {
  exeMissing,
  exeSvc,
  nodeSvc,
  type SvcCommand,
  useWinePrefix,
  WINE_TEST_TIMEOUT,
  type WineRun,
  wineMissing,
  winPath,
} from '../helpers/windows.js';
import { readTestWorkbook, writeTestWorkbook } from '../helpers/workbooks.js';

// Issue 36: the main workflows of the built CLI as a Windows user runs them, under Windows Node in
// Wine, against a reference server in this process (loopback, port 0). Paths are given the
// Windows way (Z:\... is / under Wine), files are written with CR/LF. The same tests run against
// svc.exe when `npm run build:exe` made it.

const server = useReferenceServer();
const wine = useWinePrefix();
beforeAll(() => ensureBuilt(), 180_000);

const KEY = 'ak_demo_project';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const GOOD = `DE${validDe(11)}`;
const BAD = `DE${wrongCheckDigit(validDe(12))}`;

/** Lines of a text whatever its line ends. */
const linesOf = (text: string) => text.split(/\r?\n/).filter((line) => line !== '');

/** A fresh folder for one test, inside the prefix's scratch folder. */
function folder(name: string): string {
  const dir = join(wine().scratch, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Waits (yielding, no timer) until the server processed `count` validations, or the run ended first. */
async function untilValidated(count: number, run: Promise<WineRun>): Promise<void> {
  let ended = false;
  void run.finally(() => {
    ended = true;
  });
  while (server().admin.stats().validationsProcessed < count) {
    if (ended) throw new Error(`the run ended before ${count} validations: ${(await run).stderr}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function ok(run: WineRun): WineRun {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return run;
}

function workflows(command: SvcCommand): void {
  const svc = (
    args: string[],
    options: {
      env?: Record<string, string>;
      input?: string;
      cwd?: string;
      started?: (pid: number) => void;
    } = {},
  ) => wine().svc(command, args, { ...options, env: { SVC_BASE_URL: server().url, ...options.env } });

  it('validate: the result as JSON, the key from SVC_API_KEY', async () => {
    const run = ok(await svc(['validate', 'DE', GOOD, '-o', 'json'], { env: { SVC_API_KEY: KEY } }));
    expect(JSON.parse(run.stdout)).toMatchObject({
      outcome: 'VALID',
      input: { countryCode: 'DE', normalizedValue: GOOD },
      responseData: { companyName: expect.any(String) },
    });
  });

  it('batch: a Windows-1252 CSV with ; and CR/LF, --wait, every row answered and every umlaut intact', async () => {
    const dir = folder('csv');
    const rows = [
      'Land;USt-IdNr;Firma;Ort',
      `DE;${GOOD};Müller & Söhne GmbH;Köln`,
      `DE;${BAD};Bäckerei Größe;Düsseldorf`,
      'DE;;Leer AG;Jena',
    ];
    writeFileSync(join(dir, 'kunden.csv'), iconv.encode(`${rows.join('\r\n')}\r\n`, 'windows-1252'));
    const run = ok(
      await svc(
        [
          'batch',
          winPath(join(dir, 'kunden.csv')),
          '--out',
          `${winPath(dir)}\\ergebnis.csv`,
          '--wait',
          '--register',
          server().url,
        ],
        { env: { SVC_API_KEY: KEY } },
      ),
    );
    expect(run.stderr).toMatch(/batch: 3 rows/);
    const out = readFileSync(join(dir, 'ergebnis.csv'));
    expect([...out.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = linesOf(out.subarray(3).toString('utf8'));
    expect(lines[0]).toMatch(/^Land;USt-IdNr;Firma;Ort;row;line;status;outcome;/);
    expect(lines[1]).toMatch(new RegExp(`^DE;${GOOD};Müller & Söhne GmbH;Köln;1;2;completed;VALID;`));
    expect(lines[2]).toMatch(new RegExp(`^DE;${BAD};Bäckerei Größe;Düsseldorf;2;3;completed;INVALID;`));
    expect(lines[3]).toMatch(/^DE;;Leer AG;Jena;3;4;rejected;.*USt-IdNr is empty$/);
    expect(lines).toHaveLength(4);
  });

  it('batch: .xlsx in and .xlsx out (to C:\\users\\Public) with --wait; the output read back by exceljs, every cell', async () => {
    const dir = folder('xlsx');
    const name = `ergebnis-${Math.random().toString(36).slice(2, 8)}.xlsx`;
    await writeTestWorkbook(join(dir, 'kunden.xlsx'), {
      Kunden: [
        ['Land', 'USt-IdNr', 'Firma'],
        ['DE', GOOD, 'Müller & Söhne GmbH'],
        ['DE', BAD, 'Bäckerei Größe'],
      ],
    });
    const run = ok(
      await svc(
        [
          'batch',
          winPath(join(dir, 'kunden.xlsx')),
          '--out',
          `C:\\users\\Public\\${name}`,
          '--wait',
          '--register',
          server().url,
        ],
        { env: { SVC_API_KEY: KEY } },
      ),
    );
    expect(run.stderr).toMatch(/batch: 2 rows/);
    const [sheet] = (await readTestWorkbook(join(wine().prefix, 'drive_c', 'users', 'Public', name)))
      .worksheets;
    if (!sheet) throw new Error('ergebnis.xlsx has no sheet');
    const values = [1, 2, 3].map((r) => (sheet.getRow(r).values as unknown[]).slice(1, 8));
    expect(values).toEqual([
      ['Land', 'USt-IdNr', 'Firma', 'row', 'line', 'status', 'outcome'],
      ['DE', GOOD, 'Müller & Söhne GmbH', 1, 2, 'completed', 'VALID'],
      ['DE', BAD, 'Bäckerei Größe', 2, 3, 'completed', 'INVALID'],
    ]);
  });

  it('--out Results.csv with --rejects results.csv: one file on Windows, refused before anything is written', async () => {
    const dir = folder('case');
    writeFileSync(join(dir, 'kunden.csv'), `Land;USt-IdNr\r\nDE;${GOOD}\r\nDE;DE12\r\n`);
    const run = await svc(['batch', 'kunden.csv', '--out', 'Results.csv', '--rejects', 'results.csv'], {
      env: { SVC_API_KEY: KEY },
      cwd: dir,
    });
    expect(run.stderr).toMatch(/are the same file .*Results\.csv, results\.csv/);
    expect(run.code).toBe(2);
    expect(server().admin.stats().validationsProcessed).toBe(0);
    expect(existsSync(join(dir, 'Results.csv')) || existsSync(join(dir, 'results.csv'))).toBe(false);
  });

  it('Ctrl-C (SIGINT, which Wine hands to the program as a console Ctrl-C) ends a --wait run with 75; --resume finishes it, nothing sent twice', async () => {
    const dir = folder('interrupt');
    const rows = Array.from({ length: 1500 }, (_, i) => `DE;DE${validDe(i * 7919)}`);
    writeFileSync(join(dir, 'gross.csv'), `Land;USt-IdNr\r\n${rows.join('\r\n')}\r\n`);
    const args = ['batch', 'gross.csv', '--out', 'gross-out.csv', '--wait', '--register', server().url];
    let pid = 0;
    const running = svc([...args, '--chunk-size', '10', '--concurrency', '1'], {
      env: { SVC_API_KEY: KEY },
      cwd: dir,
      started: (p) => {
        pid = p;
      },
    });
    await untilValidated(200, running);
    process.kill(pid, 'SIGINT');
    const stopped = await running;
    expect(stopped.stderr).toMatch(
      /interrupted after row \d+; state saved to gross-out\.csv\.state\.json; run again with --resume/,
    );
    expect(stopped.code).toBe(75);
    const before = server().admin.stats().validationsProcessed;
    expect(before).toBeLessThan(1500);

    const resumed = ok(await svc([...args, '--resume'], { env: { SVC_API_KEY: KEY }, cwd: dir }));
    expect(resumed.stderr).toMatch(/batch: 1500 rows \(completed:VALID 1500\)/);
    const lines = linesOf(readFileSync(join(dir, 'gross-out.csv'), 'utf8'));
    expect(lines).toHaveLength(1501);
    expect(lines.slice(1).map((l) => Number(l.split(';')[2]))).toEqual(
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    expect(server().admin.stats().validationsProcessed).toBe(1500);
  });

  it('taskkill /F ends a run at once (no handler runs); --resume finishes it from its last checkpoint', async () => {
    const dir = folder('taskkill');
    const rows = Array.from({ length: 1500 }, (_, i) => `DE;DE${validDe(i * 7907)}`);
    writeFileSync(join(dir, 'gross.csv'), `Land;USt-IdNr\r\n${rows.join('\r\n')}\r\n`);
    const args = ['batch', 'gross.csv', '--out', 'gross-out.csv', '--wait', '--register', server().url];
    const running = svc([...args, '--chunk-size', '10', '--concurrency', '1'], {
      env: { SVC_API_KEY: KEY },
      cwd: dir,
    });
    await untilValidated(200, running);
    const image = command.program.split('/').at(-1) ?? 'node.exe';
    const kill = await wine().exec('taskkill', ['/F', '/IM', image]);
    expect(kill.stdout).toMatch(/forcibly terminated/);
    const killed = await running;
    expect(killed.stderr).not.toMatch(/batch: 1500 rows/);
    expect(existsSync(join(dir, 'gross-out.csv.state.json'))).toBe(true);

    const resumed = ok(await svc([...args, '--resume'], { env: { SVC_API_KEY: KEY }, cwd: dir }));
    expect(resumed.stderr).toMatch(/batch: 1500 rows \(completed:VALID 1500\)/);
    const lines = linesOf(readFileSync(join(dir, 'gross-out.csv'), 'utf8'));
    expect(lines.slice(1).map((l) => Number(l.split(';')[2]))).toEqual(
      Array.from({ length: 1500 }, (_, i) => i + 1),
    );
    // Rows sent before the kill are asked for, not sent again.
    expect(server().admin.stats().validationsProcessed).toBe(1500);
  });

  it('config set api-key (from standard input, CR/LF) then a call with no key given: the key from %APPDATA%\\svc\\config.json', async () => {
    const profile = `win${Math.random().toString(36).slice(2, 8)}`;
    const set = ok(await svc(['--profile', profile, 'config', 'set', 'api-key'], { input: `${KEY}\r\n` }));
    expect(set.stderr).toMatch(/AppData\\Roaming\\svc\\config\.json/);
    const stored = JSON.parse(readFileSync(join(wine().appData(), 'svc', 'config.json'), 'utf8'));
    expect(stored.profiles[profile]).toEqual({ 'api-key': KEY });
    const run = ok(await svc(['--profile', profile, 'validate', 'DE', GOOD, '-o', 'json']));
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'VALID' });
  });

  it('audit sync twice into a Z:\\ folder, then audit verify --head with the head the last run printed', async () => {
    const dir = folder('archive');
    const admin = server().admin;
    const iso = (ms: number) => new Date(ms).toISOString();
    const now = admin.now();
    admin.addAuditEvents({ count: 30, scope: 'project', from: iso(now - 3 * HOUR), to: iso(now - 2 * HOUR) });
    const args = ['audit', 'sync', '--dir', winPath(dir)];
    const first = ok(await svc([...args, '--since', iso(now - 4 * HOUR)], { env: { SVC_API_KEY: KEY } }));
    expect(first.stdout).toMatch(/^head sha256:[0-9a-f]{64} manifest-000001\.json\r?\n$/);
    expect(first.stderr).toMatch(/run 1: 30 events to audit-000001\.ndjson/);
    admin.advanceClock(HOUR);
    admin.addAuditEvents({
      count: 5,
      scope: 'project',
      from: iso(now + 10 * MINUTE),
      to: iso(now + 20 * MINUTE),
    });
    const second = ok(await svc(args, { env: { SVC_API_KEY: KEY } }));
    expect(second.stderr).toMatch(/run 2: 5 events to audit-000002\.ndjson/);
    const head = /^head (sha256:[0-9a-f]{64}) manifest-000002\.json/.exec(second.stdout)?.[1];
    expect(head).toBeDefined();
    const verify = await svc(['audit', 'verify', winPath(dir), '--head', head as string]);
    expect(verify.code).toBe(0);
    expect(`${verify.stdout}${verify.stderr}`).toMatch(/2 runs?|35 events/);
  });

  it('audit sync --projects: a projects file with CR/LF, a Z:\\ path with backslashes and a relative one', async () => {
    const dir = folder('projects');
    const admin = server().admin;
    const now = admin.now();
    admin.addAuditEvents({
      count: 12,
      scope: 'project',
      from: new Date(now - 3 * HOUR).toISOString(),
      to: new Date(now - 2 * HOUR).toISOString(),
    });
    const projects = [
      { name: 'absolute', dir: `${winPath(dir)}\\archive\\absolute`, keyEnv: 'SVC_KEY_A' },
      { name: 'relative', dir: 'archive\\relative', keyEnv: 'SVC_KEY_B' },
    ];
    writeFileSync(join(dir, 'projects.json'), JSON.stringify({ projects }, null, 2).replaceAll('\n', '\r\n'));
    const run = ok(
      await svc(
        ['audit', 'sync', '--projects', 'projects.json', '--since', new Date(now - 4 * HOUR).toISOString()],
        {
          env: { SVC_KEY_A: KEY, SVC_KEY_B: KEY },
          cwd: dir,
        },
      ),
    );
    expect(run.stderr).toMatch(/2 projects: 2 ok, 0 not whole, 0 failed/);
    for (const name of ['absolute', 'relative']) {
      const events = readFileSync(join(dir, 'archive', name, 'audit-000001.ndjson'), 'utf8');
      expect(linesOf(events), name).toHaveLength(12);
    }
  });

  it('captcha token then captcha result: accepted once, the second fetch refused', async () => {
    const minted = ok(await svc(['captcha', 'token', '--outcome', 'pass']));
    const token = minted.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const first = ok(await svc(['captcha', 'result', token, '-o', 'json'], { env: { SVC_API_KEY: KEY } }));
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: 'accept' });
    const second = await svc(['captcha', 'result', token], { env: { SVC_API_KEY: KEY } });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/fetch limit reached/);
  });
}

describe.skipIf(wineMissing)(
  'the main workflows of the built CLI under Windows Node (node.exe bin\\svc.js)',
  { timeout: WINE_TEST_TIMEOUT },
  () => {
    workflows(nodeSvc());
  },
);

describe.skipIf(wineMissing || exeMissing)(
  'the same workflows with svc.exe',
  { timeout: WINE_TEST_TIMEOUT },
  () => {
    workflows(exeSvc());
  },
);
