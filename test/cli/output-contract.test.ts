import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../src/cli/output-format.js';
import { OUTPUT_CONTRACT, resolveOutputFormat } from '../../src/cli/registry.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { ROOT } from '../helpers/build.js';
import { type BulkStandIn, startBulkStandIn } from '../helpers/bulk-standin.js';
import { type CliRun, commandsOf, quietProgram, runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-contract-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A server that counts requests and answers 500: a refused format must send nothing. */
let counter: Server;
let counterUrl = '';
let requests = 0;
beforeAll(async () => {
  counter = createServer((_req, res) => {
    requests += 1;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => counter.close(() => resolve())));

/** Where `audit ship` sends: the `_bulk` stand-in. */
let bulk: BulkStandIn;
beforeAll(async () => {
  bulk = await startBulkStandIn();
});
afterAll(() => bulk.close());

const TOKEN = Buffer.from(
  JSON.stringify({ verificationId: '00000000-0000-4000-8000-0000000000ab' }),
).toString('base64');

/** Arguments that run each command (ids for `results get`/`schedules delete` come from `setup`). */
const COMMANDS: Record<
  string,
  { args: (id: string) => string[]; key?: string; setup?: () => Promise<string> }
> = {
  validate: { args: () => ['validate', 'DE', '136695976'] },
  precheck: { args: () => ['precheck', 'DE', '136695976'] },
  batch: { args: () => ['batch', join(dir, 'in.csv'), '--strategy', 'single'] },
  'results get': {
    args: (id) => ['results', 'get', id],
    setup: async () =>
      JSON.parse((await svc(['validate', 'DE', '136695976', '-o', 'json'])).stdout).validationResultId,
  },
  'schedules create': { args: () => ['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'] },
  'schedules delete': {
    args: (id) => ['schedules', 'delete', id],
    setup: async () =>
      JSON.parse(
        (await svc(['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY', '-o', 'json']))
          .stdout,
      ).scheduleId,
  },
  'webhooks listen': { args: () => ['webhooks', 'listen', '--port', '0', '--max-events', '1'] },
  'audit list': { args: () => ['audit', 'list', '--from', range().from, '--to', range().to] },
  'audit export': {
    args: () => ['audit', 'export', '--out', '-', '--from', range().from, '--to', range().to],
  },
  'audit tail': {
    args: () => ['audit', 'tail', '--since', range().from, '--interval', '1', '--max-polls', '1'],
  },
  'audit sync': { args: () => ['audit', 'sync', '--dir', join(dir, 'archive')] },
  'audit verify': {
    args: () => ['audit', 'verify', join(dir, 'archive')],
    setup: () => syncArchive(),
  },
  'audit gaps': { args: () => ['audit', 'gaps', '--dir', join(dir, 'archive')], setup: () => syncArchive() },
  'audit gaps ack': {
    args: () => ['audit', 'gaps', 'ack', 'run1.late1', '--reason', 'checked', '--dir', join(dir, 'archive')],
  },
  'audit copy': {
    args: () => ['audit', 'copy', join(dir, 'archive'), join(dir, 'copy')],
    setup: () => syncArchive(),
  },
  'audit search': {
    args: () => ['audit', 'search', '--dir', join(dir, 'archive'), 'actor.type:USER'],
    setup: () => syncArchive(),
  },
  'audit report': {
    args: () => ['audit', 'report', 'actors', '--dir', join(dir, 'archive')],
    setup: () => syncArchive(),
  },
  'audit ship': {
    args: () => ['audit', 'ship', join(dir, 'archive'), '--dest', bulk.url, '--kind', 'elasticsearch'],
    setup: () => syncArchive(),
  },
  'audit receive': { args: () => ['audit', 'receive', '--dir', join(dir, 'archive'), '--max-pushes', '1'] },
  'captcha result': { args: () => ['captcha', 'result', IDS.passed], key: TEST_KEY },
  'captcha legacy': { args: () => ['captcha', 'legacy', IDS.passed], key: TEST_KEY },
  'captcha token': { args: () => ['captcha', 'token', '--outcome', 'bot'] },
  'token decode': { args: () => ['token', 'decode', TOKEN] },
  doctor: { args: () => ['doctor'] },
  'config set': { args: () => ['config', 'set', 'timeout', '5000'] },
  'config get': { args: () => ['config', 'get', 'timeout'] },
  'config unset': { args: () => ['config', 'unset', 'timeout'] },
  'config list': { args: () => ['config', 'list'] },
  'config path': { args: () => ['config', 'path'] },
  serve: { args: () => ['serve', '--port', '0'] },
  openapi: { args: () => ['openapi'] },
  completion: { args: () => ['completion', 'bash'] },
  version: { args: () => ['version'] },
};

/** A one-run archive for the commands that read one. */
async function syncArchive(): Promise<string> {
  server().admin.addAuditEvents({ count: 3, ...range() });
  const run = await svc(['audit', 'sync', '--dir', join(dir, 'archive'), '--since', range().from]);
  expect(run.code).toBe(0);
  return '';
}

const range = () => ({
  from: new Date(server().admin.now() - 3_600_000).toISOString(),
  to: new Date(server().admin.now()).toISOString(),
});
const env = (url: string, key: string = DEMO.projectKey) => ({
  SVC_BASE_URL: url,
  SVC_API_KEY: key,
  XDG_CONFIG_HOME: join(dir, 'config'),
});
const svc = (args: string[], key?: string, signal?: AbortSignal) =>
  runSvc(args, { env: env(server().url, key), ...(signal && { signal }) });

/** Checks that stdout is in `format`; returns the parsed rows for CSV. */
function expectFormat(format: OutputFormat, stdout: string): void {
  const lines = stdout.split('\n').filter((l) => l !== '');
  expect(lines.length).toBeGreaterThan(0);
  if (format === 'json') expect(() => JSON.parse(stdout)).not.toThrow();
  if (format === 'ndjson') for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  if (format === 'csv') {
    const rows = parse(stdout) as string[][];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row).toHaveLength((rows[0] as string[]).length);
  }
  if (format === 'table') {
    expect(lines[0]).toMatch(/^┌/);
    expect(lines.at(-1)).toMatch(/^└/);
  }
}

/** Runs `svc audit receive` and pushes it one event once it says where it listens. */
async function receiveOnePush(args: string[]): Promise<CliRun> {
  let url: (value: string) => void = () => {};
  const listening = new Promise<string>((resolve) => {
    url = resolve;
  });
  const run = runSvc(args, {
    env: env(server().url),
    onStderr: (text) => {
      const match = /receiving on (\S+)/.exec(text);
      if (match) url(match[1] as string);
    },
  });
  const event = { id: 'evt_contract_1', occurredAt: new Date(server().admin.now()).toISOString() };
  const answer = await fetch(await listening, { method: 'POST', body: JSON.stringify(event) });
  expect(answer.status).toBe(200);
  return run;
}

/** Runs a command in a format it honours, with what it needs (events, a CSV, a webhook). */
async function runHonoured(command: string, format: OutputFormat, extra: string[] = []): Promise<CliRun> {
  const spec = COMMANDS[command] as (typeof COMMANDS)[string];
  const id = spec.setup ? await spec.setup() : '';
  server().admin.addAuditEvents({ count: 3, ...range() });
  writeFileSync(join(dir, 'in.csv'), 'countryCode,vatId\nDE,136695976\nDE,136695977\n');
  if (command === 'config list') await svc(['config', 'set', 'timeout', '5000']);
  if (command === 'audit receive') return receiveOnePush(['-o', format, ...spec.args(id), ...extra]);
  if (command !== 'webhooks listen') return svc(['-o', format, ...spec.args(id), ...extra], spec.key);
  server().admin.setProviderMode('VIES', 'async');
  const listen = svc(['-o', format, ...spec.args(id), '--register', server().url]);
  while (server().admin.webhookEndpoints().length === 0) await new Promise((r) => setImmediate(r));
  await svc(['validate', 'DE', '136695976', '-o', 'json']);
  return listen;
}

describe('the table of output formats in docs/configuration.md is the code table', () => {
  it('lists the same commands with the same formats', () => {
    const readme = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const start = readme.indexOf('<!-- output-contract');
    expect(start).toBeGreaterThan(0);
    const rows = readme
      .slice(start)
      .split('\n')
      .slice(3)
      .filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
    const fromReadme = Object.fromEntries(
      rows.map((row) => {
        const [, command, formats] = row.split('|').map((cell) => cell.trim());
        const list = (formats as string).startsWith('none') ? [] : (formats as string).split(', ');
        return [(command as string).replace(/`/g, ''), list];
      }),
    );
    expect(fromReadme).toEqual(OUTPUT_CONTRACT);
  });

  it('covers every command of the program', () => {
    const leaves = commandsOf(quietProgram())
      // `help` only prints help text and never reaches a command.
      // `audit gaps` both runs (the list) and holds `ack`.
      .filter(
        ({ command, path }) =>
          (command.commands.length === 0 || path.join(' ') === 'audit gaps') &&
          path.length &&
          path.at(-1) !== 'help',
      )
      .map(({ path }) => path.join(' '));
    expect(leaves.sort()).toEqual(Object.keys(OUTPUT_CONTRACT).sort());
    expect(Object.keys(COMMANDS).sort()).toEqual(Object.keys(OUTPUT_CONTRACT).sort());
  });
});

describe('every command honours every format it accepts, or refuses it with exit 2 and sends nothing', () => {
  const cases = Object.entries(OUTPUT_CONTRACT).flatMap(([command, formats]) =>
    OUTPUT_FORMATS.map((format) => [command, format, formats.includes(format)] as const),
  );

  it.each(cases.filter(([, , honoured]) => honoured))('%s -o %s is honoured', async (command, format) => {
    const run = await runHonoured(command, format);
    expect(run.stderr).not.toMatch(/^svc: /m);
    expect(run.code).toBe(0);
    expectFormat(format, run.stdout);
  });

  it.each(cases.filter(([, , honoured]) => !honoured))('%s -o %s is refused', async (command, format) => {
    const spec = COMMANDS[command] as (typeof COMMANDS)[string];
    const before = requests;
    const run = await runSvc(['-o', format, ...spec.args('some-id')], { env: env(counterUrl, spec.key) });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const accepted = OUTPUT_CONTRACT[command] as readonly OutputFormat[];
    expect(run.stderr).toBe(
      accepted.length
        ? `svc: svc ${command} does not print ${format}; -o must be one of ${accepted.join(', ')}\n`
        : `svc: svc ${command} prints no data in a format and takes no -o/--output\n`,
    );
    expect(requests).toBe(before);
    expect(existsSync(join(dir, 'config'))).toBe(false);
    expect(existsSync(join(dir, 'archive'))).toBe(false);
  });
});

describe('every command with CSV output takes --bom and --delimiter (Excel-ready), batch included', () => {
  const withCsv = Object.keys(OUTPUT_CONTRACT).filter((c) => OUTPUT_CONTRACT[c]?.includes('csv'));

  it.each(withCsv)('%s -o csv --bom --delimiter ";"', async (command) => {
    const run = await runHonoured(command, 'csv', ['--bom', '--delimiter', ';']);
    expect(run.stderr).not.toMatch(/^svc: /m);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('\uFEFF')).toBe(true);
    const rows = parse(run.stdout.slice(1), { delimiter: ';' }) as string[][];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    // Split at `;`, not at `,` (no header name holds either).
    expect(run.stdout.split('\n')[0]).not.toContain(',');
    for (const row of rows) expect(row).toHaveLength((rows[0] as string[]).length);
  });

  it.each(withCsv.filter((c) => c !== 'batch'))(
    '%s: --bom without CSV output is exit 2, one line, nothing sent',
    async (command) => {
      const spec = COMMANDS[command] as (typeof COMMANDS)[string];
      const before = requests;
      const run = await runSvc(['-o', 'json', ...spec.args('some-id'), '--bom', '--delimiter', 'tab'], {
        env: env(counterUrl, spec.key),
      });
      expect([run.code, run.stdout, run.stderr]).toEqual([
        2,
        '',
        'svc: --bom and --delimiter are for CSV output: add -o csv (this run prints json)\n',
      ]);
      expect(requests).toBe(before);
    },
  );

  it('commands without CSV output do not take them', async () => {
    for (const command of Object.keys(OUTPUT_CONTRACT).filter((c) => !withCsv.includes(c))) {
      const spec = COMMANDS[command] as (typeof COMMANDS)[string];
      const run = await runSvc([...spec.args('some-id'), '--bom'], { env: env(counterUrl, spec.key) });
      expect([command, run.code]).toEqual([command, 2]);
      expect(run.stderr).toMatch(/^svc: unknown option '--bom'.*\n$/);
    }
  });
});

describe('a preference from SVC_OUTPUT or the profile gives way to the command default', () => {
  it('SVC_OUTPUT=table: audit export still writes NDJSON, batch NDJSON; -o table is refused', async () => {
    server().admin.addAuditEvents({ count: 3, ...range() });
    const run = await runSvc(COMMANDS['audit export']?.args('') ?? [], {
      env: { ...env(server().url), SVC_OUTPUT: 'table' },
    });
    expect(run.code).toBe(0);
    expectFormat('ndjson', run.stdout);
    expect(resolveOutputFormat('batch', { preference: 'table', stdoutIsTTY: true })).toBe('ndjson');
    expect(resolveOutputFormat('batch', { preference: 'csv', stdoutIsTTY: false })).toBe('csv');
    expect(resolveOutputFormat('validate', { stdoutIsTTY: true })).toBe('table');
    expect(resolveOutputFormat('validate', { stdoutIsTTY: false })).toBe('json');
    expect(() => resolveOutputFormat('batch', { flag: 'table', stdoutIsTTY: true })).toThrow(
      /-o must be one of ndjson, csv/,
    );
  });

  it('an unknown SVC_OUTPUT is still a usage error', async () => {
    const run = await runSvc(['version'], { env: { SVC_OUTPUT: 'xml' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--output must be one of table, json, ndjson, csv, got 'xml'/);
  });
});

describe('the CSV of one object is one row under a header of field names', () => {
  it('validate -o csv: a header row and one value row', async () => {
    const run = await svc(['-o', 'csv', 'validate', 'DE', '136695976']);
    const rows = parse(run.stdout) as string[][];
    expect(rows).toHaveLength(2);
    const record = Object.fromEntries((rows[0] as string[]).map((h, i) => [h, rows[1]?.[i]]));
    expect(record).toMatchObject({ outcome: 'VALID', status: 'COMPLETED', provider: 'VIES' });
  });
});

describe('audit list shows the event id in the table and the CSV', () => {
  it('every event id of the page appears', async () => {
    server().admin.addAuditEvents({ count: 4, ...range() });
    const args = COMMANDS['audit list']?.args('') ?? [];
    const page = JSON.parse((await svc(['-o', 'json', ...args])).stdout) as {
      content: Array<{ id: string }>;
    };
    const csv = parse((await svc(['-o', 'csv', ...args])).stdout) as string[][];
    expect(csv[0]).toEqual(['id', 'occurredAt', 'type', 'actor', 'subject']);
    expect(csv.slice(1).map((r) => r[0])).toEqual(page.content.map((e) => e.id));
    const table = (await svc(['-o', 'table', ...args])).stdout;
    for (const event of page.content) expect(table).toContain(event.id);
  });
});

describe('legacy -o json is the API object unchanged', () => {
  it('has no parsedTimestamps; the table still shows the parsed times', async () => {
    const json = await svc(['-o', 'json', 'captcha', 'legacy', IDS.passed], TEST_KEY);
    const result = JSON.parse(json.stdout).result as Record<string, unknown>;
    expect(result).not.toHaveProperty('parsedTimestamps');
    expect(typeof result.creationTimestamp).toBe('string');
    const table = await svc(['-o', 'table', 'captcha', 'legacy', IDS.passed], TEST_KEY);
    expect(table.stdout).toMatch(/created \(UTC\)/);
  });
});
