import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  GetObjectRetentionCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHttp } from '../helpers/raw-http.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

// The test server (test/helpers/s3-server.ts) is what the s3:// archive tests stand on: each rule
// here is one trap of s3rver 3.7.1 with the current SDK that the wrapper must fix.

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
  await s3.createBucket('trap');
});
afterAll(async () => {
  await s3?.close();
});
const host = () => new URL(s3.endpoint).host;
const port = () => Number(new URL(s3.endpoint).port);

/** Records the headers of each request the client sends, after signing. */
function recordHeaders(client: ReturnType<S3TestServer['client']>): Record<string, string>[] {
  const seen: Record<string, string>[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      seen.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low' },
  );
  return seen;
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

/** Writes a PUT's head and the first `sent` bytes of its body, then closes the connection. */
function cutPut(endpoint: string, head: string, sent: number): Promise<void> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      // Closed once the bytes are on their way: the server gets a body that stops short, as when
      // the writing process is killed.
      socket.write(`${head}\r\n\r\n${' '.repeat(sent)}`, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

describe('a streamed PutObject with the SDK default checksums round-trips its bytes', () => {
  it('stores the decoded bytes of an aws-chunked body, not its framing', async () => {
    const client = s3.client();
    const seen = recordHeaders(client);
    const bytes = randomBytes(300_000);
    await client.send(
      new PutObjectCommand({
        Bucket: 'trap',
        Key: 'streamed.bin',
        Body: Readable.from([bytes]),
        ContentLength: bytes.length,
      }),
    );
    // The trap only shows with aws-chunked: make sure the SDK did send it that way.
    expect(seen.at(-1)?.['content-encoding']).toContain('aws-chunked');
    const got = await client.send(new GetObjectCommand({ Bucket: 'trap', Key: 'streamed.bin' }));
    expect(got.ContentEncoding ?? '').not.toContain('aws-chunked');
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    client.destroy();
  });

  it('round-trips a Buffer body and an empty one', async () => {
    const client = s3.client();
    await client.send(
      new PutObjectCommand({ Bucket: 'trap', Key: 'buffer.bin', Body: Buffer.from('a\nb\n') }),
    );
    await client.send(new PutObjectCommand({ Bucket: 'trap', Key: 'empty.bin', Body: Buffer.alloc(0) }));
    const objects = await s3.objects('trap');
    expect(objects.get('buffer.bin')?.toString()).toBe('a\nb\n');
    expect(objects.get('empty.bin')?.length).toBe(0);
    client.destroy();
  });

  it('refuses a body whose trailing checksum does not match, as S3 does (BadDigest)', async () => {
    const framed = '5\r\nhello\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n';
    const answer = await rawHttp(
      port(),
      `PUT /trap/bad-digest.bin HTTP/1.1\r\nHost: ${host()}\r\nContent-Encoding: aws-chunked\r\n` +
        `X-Amz-Decoded-Content-Length: 5\r\nX-Amz-Trailer: x-amz-checksum-crc32\r\nContent-Length: ${framed.length}`,
      framed,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<Code>BadDigest</Code>');
    expect((await s3.objects('trap')).has('bad-digest.bin')).toBe(false);
  });

  it('refuses a truncated aws-chunked framing (IncompleteBody), storing nothing', async () => {
    const framed = 'a\r\nhello\r\n';
    const answer = await rawHttp(
      port(),
      `PUT /trap/bad-frame.bin HTTP/1.1\r\nHost: ${host()}\r\nContent-Encoding: aws-chunked\r\n` +
        `X-Amz-Decoded-Content-Length: 10\r\nContent-Length: ${framed.length}`,
      framed,
    );
    expect(answer.status).toBe(400);
    expect((await s3.objects('trap')).has('bad-frame.bin')).toBe(false);
  });
});

describe('a lib-storage multipart upload round-trips its bytes', () => {
  it('assembles 3 parts of a streamed 11 MB body into the same bytes', async () => {
    const client = s3.client();
    const bytes = randomBytes(11 * 1024 * 1024);
    const upload = new Upload({
      client,
      params: {
        Bucket: 'trap',
        Key: 'multi/part.bin',
        Body: Readable.from([bytes.subarray(0, 7e6), bytes.subarray(7e6)]),
      },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
    const got = await client.send(new GetObjectCommand({ Bucket: 'trap', Key: 'multi/part.bin' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    expect(await s3.uploads('trap')).toEqual([]);
    client.destroy();
  });
});

describe('ListMultipartUploads and AbortMultipartUpload work as on S3', () => {
  it('lists an unfinished upload, aborts it, and refuses its parts afterwards', async () => {
    const client = s3.client();
    await client.send(new CreateMultipartUploadCommand({ Bucket: 'trap', Key: 'other/x.bin' }));
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: 'trap', Key: 'open/run.bin' }),
    );
    await client.send(
      new UploadPartCommand({
        Bucket: 'trap',
        Key: 'open/run.bin',
        UploadId,
        PartNumber: 1,
        Body: Buffer.from('part'),
      }),
    );
    const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: 'trap', Prefix: 'open/' }));
    expect(listed.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([['open/run.bin', UploadId]]);
    expect(listed.Uploads?.[0]?.Initiated).toBeInstanceOf(Date);

    await client.send(new AbortMultipartUploadCommand({ Bucket: 'trap', Key: 'open/run.bin', UploadId }));
    const after = await client.send(new ListMultipartUploadsCommand({ Bucket: 'trap', Prefix: 'open/' }));
    expect(after.Uploads ?? []).toEqual([]);
    const late = await errorOf(
      client.send(
        new UploadPartCommand({
          Bucket: 'trap',
          Key: 'open/run.bin',
          UploadId,
          PartNumber: 2,
          Body: Buffer.from('x'),
        }),
      ),
    );
    expect(late.name).toBe('NoSuchUpload');
    const again = await errorOf(
      client.send(new AbortMultipartUploadCommand({ Bucket: 'trap', Key: 'open/run.bin', UploadId })),
    );
    expect(again.name).toBe('NoSuchUpload');
    client.destroy();
  });

  it('pages the list with max-uploads and markers', async () => {
    const client = s3.client();
    for (const key of ['page/a', 'page/b', 'page/c']) {
      await client.send(new CreateMultipartUploadCommand({ Bucket: 'trap', Key: key }));
    }
    const first = await client.send(
      new ListMultipartUploadsCommand({ Bucket: 'trap', Prefix: 'page/', MaxUploads: 2 }),
    );
    expect(first.IsTruncated).toBe(true);
    expect(first.Uploads?.map((u) => u.Key)).toEqual(['page/a', 'page/b']);
    const second = await client.send(
      new ListMultipartUploadsCommand({
        Bucket: 'trap',
        Prefix: 'page/',
        KeyMarker: first.NextKeyMarker,
        UploadIdMarker: first.NextUploadIdMarker,
      }),
    );
    expect(second.IsTruncated).toBe(false);
    expect(second.Uploads?.map((u) => u.Key)).toEqual(['page/c']);
    client.destroy();
  });

  it('answers NoSuchBucket for a bucket that does not exist', async () => {
    const client = s3.client();
    const err = await errorOf(client.send(new ListMultipartUploadsCommand({ Bucket: 'no-such-bucket' })));
    expect(err.name).toBe('NoSuchBucket');
    client.destroy();
  });
});

describe('a PUT cut off mid-body leaves no object', () => {
  it('stores nothing when the client goes away before the last byte', async () => {
    await cutPut(
      s3.endpoint,
      `PUT /trap/cut.bin HTTP/1.1\r\nHost: ${host()}\r\nx-amz-content-sha256: UNSIGNED-PAYLOAD\r\nContent-Length: 100000`,
      60_000,
    );
    // A complete request after it proves the server has finished with the cut one.
    await s3.client().send(new PutObjectCommand({ Bucket: 'trap', Key: 'after-cut.bin', Body: 'ok' }));
    const objects = await s3.objects('trap');
    expect(objects.has('after-cut.bin')).toBe(true);
    expect(objects.has('cut.bin')).toBe(false);
  });
});

describe('If-None-Match: * creates an object only once', () => {
  it('refuses the second write with 412 PreconditionFailed and keeps the first bytes', async () => {
    const client = s3.client();
    await client.send(
      new PutObjectCommand({ Bucket: 'trap', Key: 'once.json', Body: 'first', IfNoneMatch: '*' }),
    );
    const err = await errorOf(
      client.send(
        new PutObjectCommand({ Bucket: 'trap', Key: 'once.json', Body: 'second', IfNoneMatch: '*' }),
      ),
    );
    expect(err.$metadata.httpStatusCode).toBe(412);
    expect(err.name).toBe('PreconditionFailed');
    expect((await s3.objects('trap')).get('once.json')?.toString()).toBe('first');
    client.destroy();
  });

  it('lets exactly one of ten racing writers win', async () => {
    const client = s3.client();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        client.send(
          new PutObjectCommand({ Bucket: 'trap', Key: 'race.json', Body: `writer ${i}`, IfNoneMatch: '*' }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    client.destroy();
  });

  it('is ignored when the server is started with conditionalWrites: false, as s3rver alone does', async () => {
    const plain = await startS3Server({ conditionalWrites: false });
    try {
      await plain.createBucket('plain');
      const client = plain.client();
      await client.send(new PutObjectCommand({ Bucket: 'plain', Key: 'k', Body: 'first', IfNoneMatch: '*' }));
      await client.send(
        new PutObjectCommand({ Bucket: 'plain', Key: 'k', Body: 'second', IfNoneMatch: '*' }),
      );
      expect((await plain.objects('plain')).get('k')?.toString()).toBe('second');
      client.destroy();
    } finally {
      await plain.close();
    }
  });
});

describe('If-Match: ETAG replaces an object only while it is the one read', () => {
  it('replaces with the current ETag, refuses a stale one with 412 and a missing key with 404', async () => {
    const client = s3.client();
    const first = await client.send(new PutObjectCommand({ Bucket: 'trap', Key: 'lock.json', Body: 'a' }));
    await client.send(
      new PutObjectCommand({ Bucket: 'trap', Key: 'lock.json', Body: 'b', IfMatch: first.ETag }),
    );
    const stale = await errorOf(
      client.send(new PutObjectCommand({ Bucket: 'trap', Key: 'lock.json', Body: 'c', IfMatch: first.ETag })),
    );
    expect(stale.$metadata.httpStatusCode).toBe(412);
    expect((await s3.objects('trap')).get('lock.json')?.toString()).toBe('b');
    const missing = await errorOf(
      client.send(
        new PutObjectCommand({ Bucket: 'trap', Key: 'nothing.json', Body: 'x', IfMatch: first.ETag }),
      ),
    );
    expect(missing.$metadata.httpStatusCode).toBe(404);
    client.destroy();
  });

  it('lets exactly one of ten writers holding the same ETag win', async () => {
    const client = s3.client();
    const { ETag } = await client.send(
      new PutObjectCommand({ Bucket: 'trap', Key: 'takeover.json', Body: 'old' }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        client.send(
          new PutObjectCommand({ Bucket: 'trap', Key: 'takeover.json', Body: `writer ${i}`, IfMatch: ETag }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    client.destroy();
  });
});

describe('Object Lock: retention kept on a bucket created with it, refused elsewhere, as on S3', () => {
  const until = new Date('2030-01-01T00:00:00.000Z');
  const retained = (Bucket: string, Key: string) =>
    new PutObjectCommand({
      Bucket,
      Key,
      Body: 'x',
      ObjectLockMode: 'GOVERNANCE',
      ObjectLockRetainUntilDate: until,
    });

  it('a write with retention is reported by GetObjectRetention; one without has none', async () => {
    await s3.createBucket('locked-trap', { objectLock: true });
    const client = s3.client();
    await client.send(retained('locked-trap', 'kept'));
    await client.send(new PutObjectCommand({ Bucket: 'locked-trap', Key: 'plain', Body: 'x' }));
    const kept = await client.send(new GetObjectRetentionCommand({ Bucket: 'locked-trap', Key: 'kept' }));
    expect(kept.Retention).toEqual({ Mode: 'GOVERNANCE', RetainUntilDate: until });
    const none = await client
      .send(new GetObjectRetentionCommand({ Bucket: 'locked-trap', Key: 'plain' }))
      .catch((e: S3ServiceException) => e);
    expect((none as S3ServiceException).name).toBe('NoSuchObjectLockConfiguration');
  });

  it('a bucket without Object Lock refuses retention with InvalidRequest and stores nothing', async () => {
    const client = s3.client();
    const refused = await client.send(retained('trap', 'refused')).catch((e: S3ServiceException) => e);
    expect((refused as S3ServiceException).name).toBe('InvalidRequest');
    expect((refused as S3ServiceException).message).toContain('Object Lock');
    expect((await s3.objects('trap')).has('refused')).toBe(false);
  });
});

describe('the env of the server reaches it from a default SDK client', () => {
  it('names endpoint, keys and region', () => {
    expect(s3.env).toEqual({
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    });
  });
});
