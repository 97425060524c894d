import {
  GetObjectLockConfigurationCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Fixture, s3Fixture, startS3FaultProxy } from '../helpers/s3-faults.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

// The fault proxy and the fixture stub (test/helpers/s3-faults.ts) stand in for what the loopback
// S3 server cannot do: throttling, dropped connections and the answers of AWS-only features.

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket('faulty');
});
afterAll(async () => {
  await s3?.close();
});

/** An SDK client through `endpoint` that retries at once (no backoff wait: the test stays fast). */
function clientVia(endpoint: string, maxAttempts = 10) {
  return s3.client({ endpoint, retryStrategy: new ConfiguredRetryStrategy(maxAttempts, 0) });
}

async function errorOf(p: Promise<unknown>): Promise<S3ServiceException> {
  try {
    await p;
  } catch (err) {
    if (err instanceof S3ServiceException) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('a seeded share of answers is 503 SlowDown in S3 error XML', () => {
  it('answers about the share asked, the same requests for the same seed', async () => {
    const outcomes: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const proxy = await startS3FaultProxy({ target: s3.endpoint, slowDown: 0.3, seed: 7 });
      for (let i = 0; i < 50; i++) {
        const res = await fetch(`${proxy.endpoint}/faulty?list-type=2`);
        const text = await res.text();
        if (res.status === 503) {
          expect(text).toContain('<Code>SlowDown</Code>');
          expect(res.headers.get('content-type')).toBe('application/xml');
        } else expect(res.status).toBe(200);
      }
      outcomes.push(proxy.log.map((e) => e.outcome));
      await proxy.close();
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    const slow = outcomes[0]!.filter((o) => o === 'slow-down').length;
    expect(slow).toBeGreaterThan(5);
    expect(slow).toBeLessThan(25);
  });
});

describe('the SDK retry carries writes through SlowDown and resets', () => {
  it('stores every object once with 20 % SlowDown, 10 % resets before and 10 % after', async () => {
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      slowDown: 0.2,
      resetBefore: 0.1,
      resetAfter: 0.1,
      seed: 3,
    });
    const client = clientVia(proxy.endpoint);
    for (let i = 0; i < 40; i++) {
      await client.send(
        new PutObjectCommand({ Bucket: 'faulty', Key: `retry/${i}.txt`, Body: `object ${i}\n` }),
      );
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'faulty', Prefix: 'retry/' }));
    expect(listed.KeyCount).toBe(40);
    const outcomes = new Set(proxy.log.map((e) => e.outcome));
    expect([...outcomes].sort()).toEqual(['forwarded', 'reset-after', 'reset-before', 'slow-down']);
    client.destroy();
    await proxy.close();
  });

  it('shows why a conditional write needs care: a lost answer, then 412 for the retry of its own write', async () => {
    const proxy = await startS3FaultProxy({ target: s3.endpoint, resetAfter: 1, seed: 1 });
    const client = clientVia(proxy.endpoint, 1);
    await expect(
      client.send(
        new PutObjectCommand({ Bucket: 'faulty', Key: 'lost/answer.json', Body: 'mine', IfNoneMatch: '*' }),
      ),
    ).rejects.toThrow();
    const direct = s3.client();
    const retried = await errorOf(
      direct.send(
        new PutObjectCommand({ Bucket: 'faulty', Key: 'lost/answer.json', Body: 'mine', IfNoneMatch: '*' }),
      ),
    );
    expect(retried.name).toBe('PreconditionFailed');
    expect((await s3.objects('faulty')).get('lost/answer.json')?.toString()).toBe('mine');
    client.destroy();
    direct.destroy();
    await proxy.close();
  });
});

describe('fixture answers reach the SDK as S3 errors with their code and status', () => {
  const cases: Array<[S3Fixture, string, number]> = [
    ['precondition-failed', 'PreconditionFailed', 412],
    ['object-lock-missing', 'InvalidRequest', 400],
    ['access-denied', 'AccessDenied', 403],
    ['no-such-bucket', 'NoSuchBucket', 404],
    ['expired-token', 'ExpiredToken', 400],
  ];
  for (const [fixture, name, status] of cases) {
    it(`${fixture}: ${status} ${name}`, async () => {
      const stub = await startS3FaultProxy({ answers: [{ method: 'PUT', fixture }] });
      const client = clientVia(stub.endpoint, 1);
      const err = await errorOf(
        client.send(new PutObjectCommand({ Bucket: 'archive', Key: 'k', Body: 'x' })),
      );
      expect([err.name, err.$metadata.httpStatusCode]).toEqual([name, status]);
      expect(err.$metadata.requestId).toBe(s3Fixture(fixture).headers['x-amz-request-id']);
      client.destroy();
      await stub.close();
    });
  }

  it('answers GetObjectLockConfiguration on a bucket without Object Lock', async () => {
    const stub = await startS3FaultProxy({
      answers: [{ method: 'GET', query: 'object-lock', fixture: 'object-lock-config-not-found' }],
    });
    const client = clientVia(stub.endpoint, 1);
    const err = await errorOf(client.send(new GetObjectLockConfigurationCommand({ Bucket: 'archive' })));
    expect(err.name).toBe('ObjectLockConfigurationNotFoundError');
    client.destroy();
    await stub.close();
  });

  it('gives a HEAD the status without a body, as S3 does', async () => {
    const stub = await startS3FaultProxy({ answers: [{ method: 'HEAD', fixture: 'access-denied' }] });
    const client = clientVia(stub.endpoint, 1);
    const err = await errorOf(client.send(new HeadObjectCommand({ Bucket: 'archive', Key: 'k' })));
    expect(err.$metadata.httpStatusCode).toBe(403);
    client.destroy();
    await stub.close();
  });
});

describe('rules match on method, path, header and query, for a set number of times', () => {
  it('answers the first conditional PUT from the fixture, then forwards', async () => {
    const proxy = await startS3FaultProxy({
      target: s3.endpoint,
      answers: [
        {
          method: 'PUT',
          path: /^\/faulty\/rule\//,
          header: 'if-none-match',
          fixture: 'precondition-failed',
          times: 1,
        },
      ],
    });
    const client = clientVia(proxy.endpoint, 1);
    const put = () =>
      client.send(
        new PutObjectCommand({ Bucket: 'faulty', Key: 'rule/m.json', Body: 'x', IfNoneMatch: '*' }),
      );
    expect((await errorOf(put())).name).toBe('PreconditionFailed');
    await put();
    await client.send(new PutObjectCommand({ Bucket: 'faulty', Key: 'rule/plain.json', Body: 'y' }));
    expect(proxy.log.map((e) => e.outcome)).toEqual(['precondition-failed', 'forwarded', 'forwarded']);
    expect(proxy.log[0]?.headers['if-none-match']).toBe('*');
    client.destroy();
    await proxy.close();
  });

  it('answers 501 NotImplemented to what a stub without target has no rule for', async () => {
    const stub = await startS3FaultProxy({ answers: [{ method: 'PUT', fixture: 'access-denied' }] });
    const res = await fetch(`${stub.endpoint}/archive/k`);
    expect(res.status).toBe(501);
    expect(await res.text()).toContain('<Code>NotImplemented</Code>');
    await stub.close();
  });
});
