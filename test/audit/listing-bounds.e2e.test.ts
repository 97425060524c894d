import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exited, runSvcMeasured, spawnSvc } from '../helpers/built-cli.js';
import { type S3AnswerRule, type S3FixtureAnswer, startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { useReferenceServer } from '../helpers/server.js';

// A store whose listing never ends (the fault proxy in front of the loopback S3 server answers
// every ListObjectsV2 or ListMultipartUploads page "truncated"): the listing stops with one line
// naming the store and the token problem, memory bounded; and an interrupt ends it at once.

const server = useReferenceServer();
const BUCKET = 'endless';
let s3: S3TestServer;
let root: string;

beforeAll(async () => {
  ensureBuilt();
  s3 = await startS3Server();
  await s3.createBucket(BUCKET);
  root = mkdtempSync(join(tmpdir(), 'svc-listing-'));
}, 180_000);
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

const xml = (body: string): S3FixtureAnswer => ({
  about: 'a listing page that says more follows',
  status: 200,
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
});

/** 1,000 keys per page, the most S3 gives, so a listing kept going would grow fast. */
const contents = (page: number) =>
  Array.from(
    { length: 1000 },
    (_, i) => `<Contents><Key>audit/junk-${page}-${i}</Key><Size>1</Size></Contents>`,
  ).join('');

/** ListObjectsV2 pages, all truncated: `token(n)` is the n-th page's next token. */
function endlessObjects(token: (page: number) => string, keys: boolean, onPage?: (page: number) => void) {
  let page = 0;
  return {
    method: 'GET',
    query: 'list-type',
    reply: () => {
      page += 1;
      onPage?.(page);
      return xml(
        `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${BUCKET}</Name><Prefix>audit/</Prefix><Delimiter>/</Delimiter><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>${token(page)}</NextContinuationToken>${keys ? contents(page) : ''}</ListBucketResult>`,
      );
    },
  } satisfies S3AnswerRule;
}

/** ListMultipartUploads pages, all truncated: `marker(n)` is the n-th page's next upload id marker. */
function endlessUploadPages(marker: (page: number) => string, onPage?: (page: number) => void) {
  let page = 0;
  return {
    method: 'GET',
    query: 'uploads',
    reply: () => {
      page += 1;
      onPage?.(page);
      return xml(
        `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${BUCKET}</Bucket><Prefix>audit/</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>true</IsTruncated><NextKeyMarker>audit/x</NextKeyMarker><NextUploadIdMarker>${marker(page)}</NextUploadIdMarker></ListMultipartUploadsResult>`,
      );
    },
  } satisfies S3AnswerRule;
}

/** ListMultipartUploads pages, all truncated with the same markers. */
const endlessUploads = endlessUploadPages(() => 'same');

function env(endpoint: string): Record<string, string> {
  const home = mkdtempSync(join(root, 'home-'));
  return {
    ...s3.env,
    AWS_ENDPOINT_URL_S3: endpoint,
    TMPDIR: home,
    SVC_API_KEY: 'ak_demo_project',
    SVC_BASE_URL: server().url,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

const URL_ = `s3://${BUCKET}/audit`;

describe('a listing that repeats its continuation token stops with one line naming the store, exit 1', () => {
  it.each([
    ['verify', ['audit', 'verify', URL_]],
    ['sync', ['audit', 'sync', '--dir', URL_, '--since', '2026-01-01T00:00:00Z']],
  ])(
    'ListObjectsV2 answering the same token with 1,000 keys each page: %s',
    async (_, args) => {
      const proxy = await startS3FaultProxy({
        target: s3.endpoint,
        answers: [endlessObjects(() => 'again', true)],
      });
      try {
        const run = await runSvcMeasured(args, env(proxy.endpoint), root);
        expect(run.code).toBe(1);
        expect(run.stderr.trim().split('\n').at(-1)).toMatch(
          /^svc: s3:\/\/endless\/audit: the store gave a continuation token again after 2 pages \(it would list forever\); the listing \(ListObjectsV2\) was stopped/,
        );
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(run.peakMb).toBeLessThan(200);
      } finally {
        await proxy.close();
      }
    },
    60_000,
  );

  it('ListMultipartUploads answering the same markers: sync stops with one line naming the store', async () => {
    const proxy = await startS3FaultProxy({ target: s3.endpoint, answers: [endlessUploads] });
    try {
      const run = await runSvcMeasured(
        ['audit', 'sync', '--dir', URL_, '--since', '2026-01-01T00:00:00Z'],
        env(proxy.endpoint),
        root,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        's3://endless/audit: the store gave a continuation token again after 2 pages (it would list forever); the listing (ListMultipartUploads) was stopped',
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.peakMb).toBeLessThan(200);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('an interrupt ends a listing that goes on: verify and gaps exit 130, sync 75, within 2 s of SIGTERM', () => {
  /** Runs `args` through a proxy answering fresh tokens forever; SIGTERM after the 20th page. */
  async function interrupted(args: string[], uploads = false, exitCode = 130): Promise<void> {
    let listing!: () => void;
    const started = new Promise<void>((resolve) => {
      listing = resolve;
    });
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      answers: [
        uploads
          ? endlessUploadPages(
              (page) => `fresh-${page}`,
              (page) => page === 20 && listing(),
            )
          : endlessObjects(
              (page) => `fresh-${page}`,
              false,
              (page) => page === 20 && listing(),
            ),
      ],
    });
    try {
      const child = spawnSvc(args, env(proxy.endpoint));
      const code = exited(child);
      await started;
      const sent = performance.now();
      child.kill('SIGTERM');
      expect(await code, child.output().stderr).toBe(exitCode);
      expect(performance.now() - sent).toBeLessThan(2000);
      expect(child.output().stderr).not.toMatch(/\n\s+at /);
    } finally {
      await proxy.close();
    }
  }

  it('verify: fresh tokens forever (under the page cap), SIGTERM after the 20th page, exit 130 in under 2 s', async () => {
    await interrupted(['audit', 'verify', URL_]);
  }, 60_000);

  it('gaps of an archive of one run: fresh tokens forever, SIGTERM after the 20th page, exit 130 in under 2 s', async () => {
    await s3.createBucket('gaps-endless');
    const dir = 's3://gaps-endless/audit';
    const run = await runSvcMeasured(
      ['audit', 'sync', '--dir', dir, '--since', '2026-01-01T00:00:00Z'],
      env(s3.endpoint),
      root,
    );
    expect(run.code, run.stderr).toBe(0);
    await interrupted(['audit', 'gaps', '--dir', dir]);
  }, 60_000);

  it('sync: ListMultipartUploads with fresh markers forever, SIGTERM after the 20th page, exit 75 (the sync interrupt code) in under 2 s', async () => {
    await interrupted(['audit', 'sync', '--dir', URL_, '--since', '2026-01-01T00:00:00Z'], true, 75);
  }, 60_000);
});
