import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { AbortError, SvcError } from '../../src/core/errors/index.js';
import type { Transport } from '../../src/core/transport/types.js';
import type { ExportOptions } from '../../src/node/audit-export/export.js';
import type { ExportSink } from '../../src/node/audit-export/sink.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { HOUR, pastRange, readAll } from './helpers.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-audit-export-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});

afterEach(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => join(dir, name);
const state = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** Runs an export and aborts it right after checkpoint `afterPage`. */
async function interrupted(
  options: Omit<ExportOptions, 'signal' | 'onProgress'>,
  afterPage: number,
): Promise<unknown> {
  const controller = new AbortController();
  return exportAuditEvents(client.audit, {
    ...options,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.pages === afterPage) controller.abort();
    },
  }).then(
    () => 'finished',
    (error: unknown) => error,
  );
}

describe('Export writes every event of the range as NDJSON, newest first, each line the event as received', () => {
  it('writes exactly the ids of the range once, with the count equal to totalElements', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 2500, ...range });
    server().admin.addAuditEvents({ count: 30, from: new Date(Date.parse(range.to) + HOUR).toISOString() });
    const wire = await readAll(server().url, { ...range, pageSize: 1000 });
    const out = file('audit.ndjson');
    const result = await exportAuditEvents(client.audit, {
      ...range,
      output: out,
      statePath: `${out}.state.json`,
    });
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual(wire.events.map((e) => JSON.stringify(e)));
    expect(result).toMatchObject({
      events: 2500,
      totalElements: 2500,
      countMatches: true,
      pages: 3,
      resumed: false,
    });
    expect(state(`${out}.state.json`)).toMatchObject({
      complete: true,
      cursor: null,
      events: 2500,
      bytes: statSync(out).size,
    });
  });

  it('writes to a stream', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 120, ...range });
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const result = await exportAuditEvents(client.audit, { ...range, output: sink, pageSize: 50 });
    expect(Buffer.concat(chunks).toString('utf8').trim().split('\n')).toHaveLength(120);
    expect(result.pages).toBe(3);
  });
});

describe('Resuming truncates the output to the recorded size and continues from the recorded cursor: byte-identical', () => {
  it('resumes after an interruption at a page boundary and after a crash between write and checkpoint', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 1000, ...range });
    const full = file('full.ndjson');
    await exportAuditEvents(client.audit, { ...range, output: full, pageSize: 100 });

    const out = file('resumed.ndjson');
    const statePath = `${out}.state.json`;
    const error = await interrupted({ ...range, output: out, statePath, pageSize: 100 }, 3);
    expect(error).toBeInstanceOf(AbortError);
    const saved = state(statePath);
    expect(saved).toMatchObject({ complete: false, events: 300, pages: 3, bytes: statSync(out).size });
    expect(saved.cursor).toEqual(expect.any(String));
    // A crash after writing a page but before its checkpoint leaves bytes the state does not know.
    appendFileSync(out, '{"id":"half-written');
    const result = await exportAuditEvents(client.audit, { output: out, statePath });
    expect(result).toMatchObject({ resumed: true, previousEvents: 300, events: 1000, countMatches: true });
    expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
  });

  it('refuses a state file of another export, and an output shorter than the state records', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 300, ...range });
    const out = file('a.ndjson');
    const statePath = `${out}.state.json`;
    await interrupted({ ...range, output: out, statePath, pageSize: 100 }, 1);
    const other = { from: range.from, to: new Date(Date.parse(range.to) - HOUR).toISOString() };
    await expect(exportAuditEvents(client.audit, { ...other, output: out, statePath })).rejects.toThrow(
      /belongs to another export/,
    );
    await expect(exportAuditEvents(client.audit, { output: out, statePath, gzip: true })).rejects.toThrow(
      /belongs to another export/,
    );
    truncateSync(out, 10);
    const error = await exportAuditEvents(client.audit, { output: out, statePath }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect((error as Error).message).toMatch(/Cannot resume: .* holds 10 bytes/);
  });
});

describe('With gzip, each checkpoint ends a gzip member, so a resumed file is still one valid stream', () => {
  it('resumes a gzip export byte-identically and gunzips to the plain export', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 500, ...range });
    const plain = file('plain.ndjson');
    const whole = file('whole.ndjson.gz');
    await exportAuditEvents(client.audit, { ...range, output: plain, pageSize: 100 });
    await exportAuditEvents(client.audit, { ...range, output: whole, pageSize: 100, gzip: true });
    const out = file('resumed.ndjson.gz');
    const statePath = `${out}.state.json`;
    expect(
      await interrupted({ ...range, output: out, statePath, pageSize: 100, gzip: true }, 2),
    ).toBeInstanceOf(AbortError);
    expect(gunzipSync(readFileSync(out)).toString('utf8').split('\n')).toHaveLength(201);
    await exportAuditEvents(client.audit, { output: out, statePath, gzip: true });
    expect(readFileSync(out).equals(readFileSync(whole))).toBe(true);
    expect(gunzipSync(readFileSync(out)).equals(readFileSync(plain))).toBe(true);
  });
});

describe('Events added during the export do not change what it writes', () => {
  it('writes the same bytes whether or not events arrive while it runs', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 800, ...range });
    const quiet = file('quiet.ndjson');
    await exportAuditEvents(client.audit, { ...range, output: quiet, pageSize: 100 });
    const busy = file('busy.ndjson');
    const result = await exportAuditEvents(client.audit, {
      ...range,
      output: busy,
      pageSize: 100,
      onProgress: (p) => {
        if (p.pages % 2 === 1) {
          server().admin.addAuditEvents({ count: 25, ...range });
          server().admin.addAuditEvents({ count: 5, from: range.to, to: range.to });
        }
      },
    });
    expect(result).toMatchObject({ events: 800, totalElements: 800, countMatches: true });
    expect(readFileSync(busy).equals(readFileSync(quiet))).toBe(true);
  });
});

describe('The written count is checked against totalElements of the first page', () => {
  it('reports a mismatch', async () => {
    const transport: Transport = {
      async request() {
        const body = {
          from: '2026-01-01T00:00:00.000Z',
          to: '2026-01-02T00:00:00.000Z',
          content: [
            { id: 'b', occurredAt: '2026-01-01T10:00:00.000Z' },
            { id: 'a', occurredAt: '2026-01-01T09:00:00.000Z' },
          ],
          page: 0,
          pageSize: 100,
          totalElements: 5,
          nextCursor: null,
        };
        return { status: 200, headers: {}, body: JSON.stringify(body) };
      },
    };
    const fake = new SvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'ak_demo_project', transport });
    const result = await exportAuditEvents(fake.audit, {
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-02T00:00:00Z',
      output: file('m.ndjson'),
    });
    expect(result).toMatchObject({ events: 2, totalElements: 5, countMatches: false });
  });
});

describe('A sink gets every event the export writes, once, in output order: its line, id and occurredAt', () => {
  /** A sink that keeps copies of what it is handed. */
  function recording() {
    const held: { bytes: number; events: number }[] = [];
    const lines: Buffer[] = [];
    const keys: { id: string | undefined; occurredAt: string | undefined }[] = [];
    const sink: ExportSink = {
      start: (h) => void held.push(h),
      page: (events) => {
        for (const { bytes, id, occurredAt } of events) {
          lines.push(Buffer.concat([bytes, Buffer.from('\n')]));
          keys.push({ id, occurredAt });
        }
      },
    };
    return { sink, held, lines, keys };
  }

  it('a new export: held is empty, and the lines handed over are the output byte for byte', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 1200, ...range });
    const out = file('audit.ndjson');
    const { sink, held, lines, keys } = recording();
    const result = await exportAuditEvents(client.audit, { ...range, output: out, pageSize: 500, sink });
    expect(held).toEqual([{ bytes: 0, events: 0 }]);
    expect(Buffer.concat(lines).equals(readFileSync(out))).toBe(true);
    const parsed = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(keys).toEqual(parsed.map((e) => ({ id: e.id, occurredAt: e.occurredAt })));
    expect(keys).toHaveLength(result.events);
  });

  it('a resumed export: held is what the output kept, then only the events after it; a finished one: all of it', async () => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count: 1200, ...range });
    const out = file('audit.ndjson');
    const statePath = `${out}.state.json`;
    const options = { ...range, output: out, statePath, pageSize: 300, sync: { everySteps: 1 } };
    expect(await interrupted(options, 2)).toBeInstanceOf(AbortError);
    const kept = statSync(out).size;
    const { sink, held, lines } = recording();
    await exportAuditEvents(client.audit, { ...options, sink });
    expect(held).toEqual([{ bytes: kept, events: 600 }]);
    expect(Buffer.concat(lines).equals(readFileSync(out).subarray(kept))).toBe(true);
    const again = recording();
    await exportAuditEvents(client.audit, { ...options, sink: again.sink });
    expect(again.held).toEqual([{ bytes: statSync(out).size, events: 1200 }]);
    expect(again.lines).toEqual([]);
  });
});
