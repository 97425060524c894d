import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toEcs } from '../../src/audit/normalise/ecs.js';
import { toOcsf } from '../../src/audit/normalise/ocsf.js';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { SvcClient } from '../../src/client.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange } from './helpers.js';

// #44 item 1 on the command line: `--format ecs|ocsf` on `audit export` and `audit search` writes
// one document per event, in the same order, for the same events as `--format raw`;
// `--keep-original` adds the line as received; a resumed export keeps the format it began with.

const server = useReferenceServer();
let dir: string;
let client: SvcClient;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-event-format-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const svc = (...args: string[]) =>
  runSvc([...args, '--base-url', server().url], { env: { SVC_API_KEY: 'ak_demo_project' } });
const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('audit export --format ecs|ocsf: one document per event, the same events in the same order', () => {
  it('ecs with --keep-original, ocsf, against the raw export', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 250, ...range });
    const raw = file('raw.ndjson');
    expect((await svc('audit', 'export', '--from', range.from, '--to', range.to, '--out', raw)).code).toBe(0);
    const rawText = readFileSync(raw, 'utf8');
    const events = lines(rawText) as unknown as AuditEvent[];
    expect(events).toHaveLength(250);
    const ecsPath = file('ecs.ndjson');
    const ecs = await svc(
      'audit',
      'export',
      '--from',
      range.from,
      '--to',
      range.to,
      '--out',
      ecsPath,
      '--format',
      'ecs',
      '--keep-original',
    );
    expect(ecs.code, ecs.stderr).toBe(0);
    const rawLines = rawText.split('\n').filter(Boolean);
    expect(lines(readFileSync(ecsPath, 'utf8'))).toEqual(
      events.map((e, i) => toEcs(e, { keepOriginal: true, line: rawLines[i] as string })),
    );
    const ocsf = await svc('audit', 'export', '--from', range.from, '--to', range.to, '--format', 'ocsf');
    expect(ocsf.code).toBe(0);
    expect(lines(ocsf.stdout)).toEqual(events.map((e) => toOcsf(e)));
  });

  it('a resumed export keeps its format: another one is refused, naming the state', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 300, ...range });
    const out = file('a.ndjson');
    const statePath = `${out}.state.json`;
    const controller = new AbortController();
    await exportAuditEvents(client.audit, {
      ...range,
      output: out,
      statePath,
      pageSize: 100,
      format: 'ecs',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.pages === 1) controller.abort();
      },
    }).catch(() => undefined);
    await expect(exportAuditEvents(client.audit, { output: out, statePath })).rejects.toThrow(
      /belongs to another export \(format ecs\)/,
    );
    const resumed = await exportAuditEvents(client.audit, { output: out, statePath, format: 'ecs' });
    expect(resumed).toMatchObject({ resumed: true, events: 300 });
    const docs = lines(readFileSync(out, 'utf8'));
    expect(docs).toHaveLength(300);
    expect(new Set(docs.map((d) => (d.event as { id: string }).id)).size).toBe(300);
  });
});

describe('audit search --format ecs|ocsf: the matches as documents; flags that cannot go together are usage errors', () => {
  it('ndjson and json of the API range, the same matches as raw', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 120, ...range });
    const args = ['audit', 'search', 'actor.type:USER', '--from', range.from, '--to', range.to];
    const raw = lines((await svc('-o', 'ndjson', ...args)).stdout) as unknown as AuditEvent[];
    expect(raw.length).toBeGreaterThan(0);
    const ocsf = await svc('-o', 'ndjson', ...args, '--format', 'ocsf');
    expect(ocsf.code, ocsf.stderr).toBe(0);
    expect(lines(ocsf.stdout)).toEqual(raw.map((e) => toOcsf(e)));
    const json = await svc('-o', 'json', ...args, '--format', 'ecs');
    const body = JSON.parse(json.stdout) as { events: unknown[]; footer: object };
    expect(body.events).toEqual(raw.map((e) => toEcs(e)));
    expect(body.footer).toBeDefined();
  });

  it.each([
    ['table', ['--format', 'ecs'], '--format ecs writes documents: use -o ndjson or -o json'],
    ['csv', ['--format', 'ocsf'], '--format ocsf writes documents: use -o ndjson or -o json'],
    ['ndjson', ['--keep-original'], '--keep-original goes with --format ecs or --format ocsf'],
    ['ndjson', ['--format', 'cef'], "--format must be one of raw, ecs, ocsf, got 'cef'"],
  ])('-o %s %j: exit 2, one line', async (output, flags, message) => {
    const run = await svc('-o', output, 'audit', 'search', 'type:x', ...flags);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(message);
  });
});

function file(name: string): string {
  return join(dir, name);
}
