import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openArchiveStore } from '../../src/node/audit-store/open-store.js';
import { ArchiveFileError } from '../../src/node/audit-store/regular-files.js';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import { runSvc } from '../helpers/cli.js';
import { type S3Fixture, s3Fixture } from '../helpers/s3-faults.js';

// The answers of a real S3 store that s3rver cannot give (it ignores conditional headers and has
// no Object Lock), as AWS S3 sends them, served by a loopback server one by one: the product's
// SDK client parses them as it would the store's.

interface Recorded {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

const fixture = (name: S3Fixture): Recorded => {
  const { status, headers, body } = s3Fixture(name);
  return { status, headers, body };
};

/** AWS S3's answers, as test/fixtures/s3/ records them. */
const ANSWERS = {
  preconditionFailed: fixture('precondition-failed'),
  noObjectLock: fixture('object-lock-missing'),
  accessDenied: fixture('access-denied'),
  noSuchBucket: fixture('no-such-bucket'),
  expiredToken: fixture('expired-token'),
  ok: { status: 200, headers: { etag: '"0123456789abcdef0123456789abcdef"' } },
} satisfies Record<string, Recorded>;

let server: Server;
let endpoint: string;
let queue: Recorded[] = [];
let seen: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];

beforeEach(async () => {
  queue = [];
  seen = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const answer = queue.shift() ?? { status: 501, body: 'no answer queued' };
      res.writeHead(answer.status, { 'content-type': 'application/xml', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const settings = (extra: Partial<S3StoreSettings> = {}): S3StoreSettings => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  maxAttempts: 1,
  ...extra,
});
const store = (extra: Partial<S3StoreSettings> = {}) =>
  openArchiveStore('s3://bucket-a/audit', { s3: settings(extra) });
/** The probe: the first write created, the second refused with 412 (the store honours If-None-Match). */
const probeHonoured = () => queue.push(ANSWERS.ok, ANSWERS.preconditionFailed, { status: 204 });

describe('write once: a manifest or run file that exists is answered 412 and left untouched', () => {
  it('create: 412 PreconditionFailed is the typed answer exists, sent with If-None-Match: *', async () => {
    const s = await store();
    probeHonoured();
    queue.push(ANSWERS.preconditionFailed);
    expect(await s.create('manifest-000002.json', '{}')).toBe('exists');
    const put = seen.at(-1);
    expect(put?.method).toBe('PUT');
    expect(put?.url).toBe('/bucket-a/audit/manifest-000002.json?x-id=PutObject');
    expect(put?.headers['if-none-match']).toBe('*');
    // Objects are private: no ACL header, the bucket's default applies.
    expect(put?.headers['x-amz-acl']).toBeUndefined();
  });
});

describe('an expired lock is taken over by exactly one run: a takeover that lost gets 412 and is refused', () => {
  it('the replace is conditional on the ETag read; 412 gives a locked error naming the run that won', async () => {
    const s = await store();
    const expired = JSON.stringify({
      token: 't',
      host: 'runner-1',
      pid: 9,
      expires: '2020-01-01T00:00:00.000Z',
    });
    probeHonoured();
    queue.push(ANSWERS.preconditionFailed); // the lock exists
    queue.push({ status: 200, body: expired, headers: { etag: '"aaaabbbbccccddddeeeeffff00001111"' } });
    queue.push(ANSWERS.preconditionFailed); // another run replaced it first
    const winner = JSON.stringify({
      token: 'w',
      host: 'runner-2',
      pid: 3,
      expires: '2030-01-01T00:00:00.000Z',
    });
    queue.push({ status: 200, body: winner }); // the re-read: not this run's token
    const error = (await s.lock().catch((e: unknown) => e)) as Error & { code?: string };
    expect(error.code).toBe('locked');
    expect(error.message).toContain('locked by a sync on runner-2 until 2030-01-01T00:00:00.000Z');
    const takeover = seen.filter((request) => request.method === 'PUT').at(-1);
    expect(takeover?.headers['if-match']).toBe('"aaaabbbbccccddddeeeeffff00001111"');
    expect(takeover?.headers['if-none-match']).toBeUndefined();
  });
});

describe('--retain-days on a bucket without Object Lock: a clear error, not a silent skip', () => {
  it('InvalidRequest (missing Object Lock Configuration) to the probe is one line naming the archive, before any write of it', async () => {
    const s = await store({ retainDays: 30, now: () => Date.parse('2026-03-02T00:00:00.000Z') });
    queue.push(ANSWERS.noObjectLock);
    const error = (await s.create('manifest-000001.json', '{}').catch((e: unknown) => e)) as Error & {
      code?: string;
    };
    expect(error.message).toBe(
      's3://bucket-a/audit: the bucket has no Object Lock, so --retain-days cannot be kept: use a bucket created with Object Lock',
    );
    expect(error.code).toBe('io');
    const put = seen.find((request) => request.method === 'PUT');
    expect(put?.url).toMatch(/^\/bucket-a\/audit\/\.svc-probe-[0-9a-f-]{36}\?x-id=PutObject$/);
    expect(put?.headers['x-amz-object-lock-mode']).toBe('GOVERNANCE');
    expect(put?.headers['x-amz-object-lock-retain-until-date']).toBe('2026-04-01T00:00:00Z');
    // The refused probe was all: the manifest was never sent.
    expect(seen.map((request) => request.method)).toEqual(['PUT']);
  });
});

describe('faults of a real store: 403 AccessDenied or a missing bucket is one line and exit 1', () => {
  const env = {
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    AWS_REGION: 'us-east-1',
    AWS_MAX_ATTEMPTS: '1',
  };
  // The SDK reads its credentials from the process environment (the CLI leaves them to its chain).
  const saved = { ...process.env };
  beforeEach(() => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY,
    });
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  it.each([
    [
      'accessDenied',
      's3://bucket-a/audit: access denied (AccessDenied): the credentials may not use this bucket or prefix',
    ],
    ['noSuchBucket', 's3://bucket-a/audit: no such bucket (NoSuchBucket)'],
    [
      'expiredToken',
      's3://bucket-a/audit: the store refused the credentials (ExpiredToken); the archive is whole: run again with valid credentials to continue',
    ],
  ] as const)('%s', async (answer, line) => {
    queue.push(ANSWERS[answer], ANSWERS[answer], ANSWERS[answer]);
    const run = await runSvc(['audit', 'verify', 's3://bucket-a/audit', '--s3-endpoint', endpoint], { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([`svc: ${line}`]);
    expect(run.stderr).not.toContain(env.AWS_SECRET_ACCESS_KEY);
  });

  it('a store that cannot be reached (connection refused) is one line naming the cause', async () => {
    // A port that was just listening and is closed now: nothing answers there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await runSvc(
      ['audit', 'verify', 's3://bucket-a/audit', '--s3-endpoint', `http://127.0.0.1:${port}`],
      { env },
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'svc: s3://bucket-a/audit: cannot reach the store (ECONNREFUSED): check the endpoint (--s3-endpoint) and the network',
    ]);
  });

  it('a read of an object that is not there is the archive file error missing', async () => {
    const s = await store();
    queue.push({
      status: 404,
      body: '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    });
    const error = await s.read('manifest-000009.json', 1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveFileError);
    expect((error as Error).message).toBe('missing');
  });
});
