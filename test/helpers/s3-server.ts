import { mkdtemp, rm, stat } from 'node:fs/promises';
import {
  Agent,
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type ServerResponse,
} from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { S3StoreSettings } from '../../src/node/audit-store/s3-settings.js';
import { decodeAwsChunked } from './s3-aws-chunked.js';
import { checksumMismatch } from './s3-checksums.js';
import {
  abortUpload,
  findUpload,
  listUploadsXml,
  type PendingUpload,
  pendingUploads,
} from './s3-multipart.js';
import { ObjectLockStandIn } from './s3-object-lock.js';
import { sendS3Error } from './s3-xml.js';

/** Options of {@link startS3Server}. */
export interface S3ServerOptions {
  /** Region the credentials and `env` name. Default `us-east-1`. */
  region?: string;
  /**
   * Honour `If-None-Match: *` on PutObject and CompleteMultipartUpload (412 PreconditionFailed when
   * the key exists) and `If-Match: ETAG` on PutObject (412 when the object's ETag is another, 404
   * NoSuchKey when there is none), as AWS S3, R2 and MinIO do. s3rver alone ignores both headers;
   * `false` gives a store that ignores them, to test the product's fallback. Default true.
   */
  conditionalWrites?: boolean;
  /**
   * Object Lock: `kept` as on S3 (buckets created with it keep retention, others refuse it);
   * `ignored`, a store without Object Lock that accepts the headers and keeps nothing
   * (GetObjectRetention: 501 NotImplemented), to test that a run catches it. Default `kept`.
   */
  objectLock?: 'kept' | 'ignored';
}

/** A loopback S3-compatible server for tests: s3rver 3.7.1 behind a wrapper fixing its traps. */
export interface S3TestServer {
  /** `http://127.0.0.1:<port>`, for `AWS_ENDPOINT_URL_S3` or an SDK `endpoint`. */
  endpoint: string;
  region: string;
  /** The keys s3rver knows (it checks the key id; it does not check SigV4 signatures). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The AWS_* variables a spawned CLI needs to reach this server. */
  env: Record<string, string>;
  /** The folder s3rver keeps its buckets in (for tests that damage a stored object on purpose). */
  directory: string;
  /** An SDK client for this server, default checksums on. */
  client(config?: Partial<S3ClientConfig>): S3Client;
  /** The package's bucket settings for this server (endpoint, region, credentials), with `extra` over them. */
  storeSettings(extra?: Partial<S3StoreSettings>): S3StoreSettings;
  /** Creates a bucket; with `objectLock`, one created with Object Lock enabled (retention kept and reported). */
  createBucket(name: string, options?: { objectLock?: boolean }): Promise<void>;
  /** Every object of `bucket` with its bytes, by key (sorted). */
  objects(bucket: string): Promise<Map<string, Buffer>>;
  /**
   * Bytes of `bucket`/`key` the server sent in answers to GETs so far (what left s3rver for the
   * client: a client that drops the connection stops it).
   */
  servedBytes(bucket: string, key: string): number;
  /** The multipart uploads of `bucket` that were neither completed nor aborted. */
  uploads(bucket: string): Promise<PendingUpload[]>;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Headers that describe the wire framing of the request, not the object. */
const FRAMING = [
  'content-length',
  'transfer-encoding',
  'x-amz-decoded-content-length',
  'x-amz-trailer',
  'expect',
];
const HOP_BY_HOP = ['connection', 'keep-alive'];

/**
 * Starts s3rver on 127.0.0.1:0 (its files in a fresh temp folder) and a wrapper in front of it on
 * another loopback port; `endpoint` is the wrapper's. What the wrapper fixes, each a trap of
 * s3rver 3.7.1 with the current SDK (the product keeps the SDK's defaults):
 * - `aws-chunked` bodies (the SDK's default for streamed bodies with checksums) are stored with
 *   their framing: the wrapper decodes them, checks the trailing checksum (400 BadDigest as S3 on a
 *   mismatch) and forwards plain bytes;
 * - ListMultipartUploads and AbortMultipartUpload answer NotImplemented: the wrapper answers them
 *   from s3rver's upload folders; UploadPart/Complete on an unknown upload get 404 NoSuchUpload;
 * - a PUT cut off mid-body is stored half-written: the wrapper buffers each body and forwards only
 *   a complete one, so an interrupted request leaves nothing, as on S3.
 * - s3rver has no Object Lock: the wrapper keeps retention for buckets created with it and
 *   answers GetObjectRetention ({@link ObjectLockStandIn}), and refuses retention elsewhere as S3 does.
 */
export async function startS3Server(options: S3ServerOptions = {}): Promise<S3TestServer> {
  const region = options.region ?? 'us-east-1';
  const conditionalWrites = options.conditionalWrites ?? true;
  const directory = await mkdtemp(join(tmpdir(), 'svc-s3-'));
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const inner = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const innerPort = (await inner.run()).port;
  const agent = new Agent({ keepAlive: true });
  // Serialises conditional writes per key, so the existence check and the write act as one step.
  const keyLocks = new Map<string, Promise<void>>();
  const objectLock = new ObjectLockStandIn(options.objectLock);

  const served = new Map<string, number>();
  const forward = (req: IncomingMessage, res: ServerResponse, headers: OutgoingHttpHeaders, body: Buffer) =>
    new Promise<number>((resolve) => {
      const upstream = request(
        { host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers, agent },
        (up) => {
          const out = { ...up.headers };
          for (const name of HOP_BY_HOP) delete out[name];
          if (req.method === 'GET') {
            const path = new URL(req.url ?? '/', 'http://s3.test').pathname;
            up.on('data', (chunk: Buffer) => served.set(path, (served.get(path) ?? 0) + chunk.length));
          }
          res.writeHead(up.statusCode ?? 500, out);
          up.pipe(res);
          up.on('end', () => resolve(up.statusCode ?? 500));
        },
      );
      upstream.on('error', (err) => {
        if (!res.headersSent) sendS3Error(res, 500, 'InternalError', `test server upstream: ${err.message}`);
        else res.destroy();
        resolve(500);
      });
      upstream.end(body);
    });

  /** The object's ETag and size as s3rver answers a HEAD, or undefined when there is no such object. */
  const keyHead = (bucket: string, key: string) =>
    new Promise<{ etag: string; size: number } | undefined>((resolve) => {
      const path = `/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
      request({ host: '127.0.0.1', port: innerPort, method: 'HEAD', path, agent }, (up) => {
        up.resume();
        const size = Number(up.headers['content-length'] ?? 0);
        resolve(up.statusCode === 200 ? { etag: String(up.headers.etag ?? ''), size } : undefined);
      })
        .on('error', () => resolve(undefined))
        .end();
    });
  const keyEtag = async (bucket: string, key: string) => (await keyHead(bucket, key))?.etag;

  /** Runs `work` alone for `lockKey`: one conditional write or range read of a key at a time. */
  const underKeyLock = async (lockKey: string, work: () => Promise<void>): Promise<void> => {
    const before = keyLocks.get(lockKey) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const chained = before.then(() => mine);
    keyLocks.set(lockKey, chained);
    await before;
    try {
      await work();
    } finally {
      release();
      if (keyLocks.get(lockKey) === chained) keyLocks.delete(lockKey);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readWholeBody(req);
    // The client went away mid-body: S3 keeps nothing of an unfinished request, and nobody reads
    // an answer.
    if (raw === undefined) return;
    const url = new URL(req.url ?? '/', 'http://s3.test');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    let key: string;
    try {
      key = decodeURIComponent(rest.join('/'));
    } catch {
      return sendS3Error(res, 400, 'InvalidURI', "Couldn't parse the specified URI.");
    }
    const q = url.searchParams;
    const method = req.method ?? 'GET';

    let body = raw;
    const claimed: Record<string, unknown> = { ...req.headers };
    const encodings = String(req.headers['content-encoding'] ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const streamed =
      encodings.includes('aws-chunked') ||
      String(req.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
    if (streamed) {
      try {
        const decoded = decodeAwsChunked(raw);
        body = decoded.body;
        Object.assign(claimed, decoded.trailers);
      } catch (err) {
        return sendS3Error(res, 400, 'IncompleteBody', (err as Error).message);
      }
      const declared = req.headers['x-amz-decoded-content-length'];
      if (declared !== undefined && Number(declared) !== body.length) {
        return sendS3Error(res, 400, 'IncompleteBody', 'You did not provide the number of bytes specified');
      }
    }
    const mismatch = checksumMismatch(body, claimed);
    if (mismatch) {
      return sendS3Error(
        res,
        400,
        'BadDigest',
        `The ${mismatch} you specified did not match the calculated checksum.`,
      );
    }

    const headers: OutgoingHttpHeaders = { ...req.headers };
    for (const name of [...FRAMING, ...HOP_BY_HOP]) delete headers[name];
    const kept = encodings.filter((e) => e !== 'aws-chunked');
    if (kept.length > 0) headers['content-encoding'] = kept.join(',');
    else delete headers['content-encoding'];
    if (streamed) headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
    // s3rver reads any host name but localhost and IPs as a bucket (virtual-host style); the
    // wrapper serves path style only.
    headers.host = `127.0.0.1:${innerPort}`;
    headers['content-length'] = String(body.length);

    if (BUCKET_NAME.test(bucket)) {
      const bucketThere = await stat(join(directory, bucket)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (key === '' && method === 'PUT' && q.size === 0) objectLock.bucketCreated(bucket, req.headers);
      // s3rver answers a range of an empty object with Content-Length 1 and no byte (the client
      // waits for ever); S3 answers 416 InvalidRange.
      // Under the key's lock (as conditional writes are): s3rver rewrites an object in place, and
      // a range read between its truncate and its write met the empty-object answer above.
      if (key !== '' && method === 'GET' && req.headers.range)
        return underKeyLock(`${bucket}/${key}`, async () => {
          if ((await keyHead(bucket, key))?.size === 0)
            return sendS3Error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
          await forward(req, res, headers, body);
        });
      if (key !== '' && method === 'GET' && q.has('retention')) {
        objectLock.answerRetention(res, bucket, key);
        return;
      }
      const write = (method === 'PUT' && !q.has('uploadId')) || (method === 'POST' && q.has('uploads'));
      if (key !== '' && write && objectLock.refusedWrite(res, bucket, key, req.headers)) return;
      if (key === '' && method === 'GET' && q.has('uploads')) {
        if (!bucketThere) return sendS3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
        const xml = listUploadsXml(bucket, await pendingUploads(directory, bucket), q);
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
        return void res.end(xml);
      }
      if (key !== '' && q.has('uploadId') && bucketThere) {
        const upload = await findUpload(directory, bucket, key, q.get('uploadId') ?? '');
        if (!upload) {
          return sendS3Error(
            res,
            404,
            'NoSuchUpload',
            'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
          );
        }
        if (method === 'DELETE') {
          await abortUpload(directory, bucket, upload.uploadId);
          res.writeHead(204);
          return void res.end();
        }
      }
      const creates = (method === 'PUT' && !q.has('uploadId')) || (method === 'POST' && q.has('uploadId'));
      const ifNoneMatch = creates && req.headers['if-none-match'] === '*';
      const ifMatch = method === 'PUT' && !q.has('uploadId') ? req.headers['if-match'] : undefined;
      if (conditionalWrites && key !== '' && (ifNoneMatch || ifMatch !== undefined)) {
        return underKeyLock(`${bucket}/${key}`, async () => {
          const etag = await keyEtag(bucket, key);
          if (ifMatch !== undefined && etag === undefined)
            return sendS3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
          if ((ifNoneMatch && etag !== undefined) || (ifMatch !== undefined && ifMatch !== etag)) {
            return sendS3Error(
              res,
              412,
              'PreconditionFailed',
              'At least one of the pre-conditions you specified did not hold',
              { Condition: ifNoneMatch ? 'If-None-Match' : 'If-Match' },
            );
          }
          delete headers['if-none-match'];
          delete headers['if-match'];
          await forward(req, res, headers, body);
        });
      }
    }
    await forward(req, res, headers, body);
  };

  const wrapper = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendS3Error(res, 500, 'InternalError', `test server: ${err.message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => wrapper.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(wrapper.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

  const client = (config: Partial<S3ClientConfig> = {}) =>
    new S3Client({ endpoint, region, credentials, forcePathStyle: true, ...config });
  const own = client();

  return {
    endpoint,
    region,
    credentials,
    directory,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: region,
    },
    client,
    storeSettings: (extra = {}) => ({ endpoint, region, credentials, ...extra }),
    async createBucket(name, options = {}) {
      await own.send(
        new CreateBucketCommand({
          Bucket: name,
          ...(options.objectLock && { ObjectLockEnabledForBucket: true }),
        }),
      );
    },
    async objects(bucket) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await own.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key !== undefined) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      const out = new Map<string, Buffer>();
      for (const key of keys.sort()) {
        const got = await own.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        out.set(key, Buffer.from(await got.Body!.transformToByteArray()));
      }
      return out;
    },
    uploads: (bucket) => pendingUploads(directory, bucket),
    servedBytes: (bucket, key) =>
      served.get(`/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`) ?? 0,
    async close() {
      own.destroy();
      wrapper.closeAllConnections();
      await new Promise<void>((resolve) => wrapper.close(() => resolve()));
      agent.destroy();
      await inner.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The whole body of `req`, or undefined when the client went away before its end. */
function readWholeBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
    req.on('close', () => {
      if (!req.complete) resolve(undefined);
    });
  });
}
