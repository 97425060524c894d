import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAuditPush } from '../../src/audit/push/signature.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { HOUR, readAll } from './helpers.js';

// #45's acceptance as a user runs it: the built `svc audit receive` takes a lossy push of 200,000
// events from the reference server, is killed with SIGKILL twice and started again on its port,
// then `svc audit sync` reconciles the spool with the pull API.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EVENTS = 200_000;
const iso = (ms: number) => new Date(ms).toISOString();
let root: string;
let server: ReferenceServer;

beforeAll(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-receive-e2e-'));
  // Real time: the receiver checks webhook-timestamp against its own clock. Retries come fast, so
  // the batches refused while the receiver is down come back within the test.
  server = await createReferenceServer({ auditStreams: { firstRetryDelayMs: 20, maxRetryDelayMs: 250 } });
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Starts the built receiver on `port` (0: any); resolves with it and its URL once it listens. */
async function startReceiver(dir: string, port: number) {
  const child = spawnSvc(['-o', 'ndjson', 'audit', 'receive', '--dir', dir, '--port', String(port)], {
    SVC_PUSH_SECRET: SECRET,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /receiving on (\S+)/.exec(child.output().stderr);
      if (match) resolve(match[1] as string);
    };
    child.stderr?.on('data', look);
    child.once('exit', () => reject(new Error(`receiver exited: ${child.output().stderr}`)));
  });
  return { child, url, port: Number(new URL(url).port) };
}

/** Pushes answered 2xx so far, from the receiver's NDJSON reports. */
const accepted = (child: ReturnType<typeof spawnSvc>) =>
  child
    .output()
    .stdout.split('\n')
    .filter((line) => line.includes('"status":200')).length;

const svc = (args: string[]) =>
  runBin(args, { env: { SVC_API_KEY: 'ak_demo_project', SVC_BASE_URL: server.url } });

describe('a lossy push of 200,000 events into a receiver killed twice: after sync every event once', () => {
  it('holds every event the pull API returns exactly once, byte for byte; verify whole, gaps empty', async () => {
    const dir = join(root, 'audit');
    let receiver = await startReceiver(dir, 0);
    const port = receiver.port;
    const stream = server.admin.createAuditStream({
      url: receiver.url,
      secret: SECRET,
      scope: 'project',
      batchSize: 500,
      faults: { duplicateRate: 0.1, reorder: true, dropRate: 0.05, seed: 45 },
    });
    const now = Date.now();
    server.admin.addAuditEvents({
      count: EVENTS,
      scope: 'project',
      from: iso(now - 3 * HOUR),
      to: iso(now - HOUR),
    });
    // Killed twice in the middle, each time started again on the same port.
    for (const after of [60, 200]) {
      while (accepted(receiver.child) < after) await new Promise((r) => setTimeout(r, 20));
      receiver.child.kill('SIGKILL');
      expect(await exited(receiver.child)).toBe('SIGKILL');
      receiver = await startReceiver(dir, port);
    }
    await server.admin.flushAuditStreams(stream.streamId);
    receiver.child.kill('SIGTERM');
    expect(await exited(receiver.child)).toBe(0);
    const counters = server.admin.auditStreams()[0]?.counters;
    expect(counters?.dropped).toBeGreaterThan(0);
    expect(counters?.failedAttempts).toBeGreaterThan(0);

    const sync = await svc(['audit', 'sync', '--dir', dir, '--since', iso(now - 4 * HOUR)]);
    expect(sync.stderr).toContain('push spool:');
    expect(sync.code).toBe(0);
    const manifestName = readdirSync(dir).find((name) => name.startsWith('manifest-')) as string;
    const manifest = JSON.parse(readFileSync(join(dir, manifestName), 'utf8'));
    const distinct = EVENTS - (counters?.dropped ?? 0);
    expect(manifest.push).toMatchObject({
      pushed: distinct,
      confirmed: distinct,
      fetched: counters?.dropped,
      unconfirmed: 0,
      differing: 0,
    });
    expect(readdirSync(dir).filter((name) => name.startsWith('push-'))).toEqual([]);

    const api = (await readAll(server.url, { from: iso(now - 4 * HOUR), to: iso(Date.now()) })).events;
    expect(api).toHaveLength(EVENTS);
    const archived = readdirSync(dir)
      .filter((name) => name.startsWith('audit-'))
      .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
      .filter((line) => line !== '');
    expect(archived).toHaveLength(EVENTS);
    expect(new Set(archived.map((line) => JSON.parse(line).id)).size).toBe(EVENTS);
    expect(archived.sort()).toEqual(api.map((event) => JSON.stringify(event)).sort());

    const verify = await svc(['audit', 'verify', dir, '-o', 'json']);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout).ok).toBe(true);
    const gaps = await svc(['audit', 'gaps', '--dir', dir, '-o', 'json']);
    expect(gaps.code).toBe(0);
    expect(JSON.parse(gaps.stdout).gaps).toEqual([]);
  }, 240_000);
});

describe('a push answered 2xx is in the archive even when the receiver is killed right after', () => {
  it('finds each of 20 events acknowledged just before a SIGKILL', async () => {
    const dir = join(root, 'acked');
    for (let i = 0; i < 20; i++) {
      const receiver = await startReceiver(dir, 0);
      const event = { id: `evt_acked_${i}`, occurredAt: iso(Date.now() - HOUR), type: 'test.acked' };
      const body = JSON.stringify(event);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = await signAuditPush(SECRET, `msg_${i}`, timestamp, body);
      const answer = await fetch(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': `msg_${i}`,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        body,
      });
      // Killed as soon as the status line is in: before the body is read, before anything else.
      receiver.child.kill('SIGKILL');
      expect(answer.status).toBe(200);
      await exited(receiver.child);
      const spooled = readdirSync(dir)
        .filter((name) => name.startsWith('push-'))
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).id);
      expect(spooled).toContain(event.id);
    }
  }, 120_000);
});
