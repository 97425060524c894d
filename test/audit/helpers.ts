import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SvcClient } from '../../src/client.js';
import type { ReferenceServer } from '../../src/server/index.js';
import { rawRequest } from '../helpers/server.js';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

/** A fresh archive directory and a demo-key client, the server clock frozen at `now`; undo with {@link dropScratch}. */
export function archiveScratch(
  server: ReferenceServer,
  now: number,
  prefix: string,
): { dir: string; client: SvcClient } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const client = new SvcClient({ baseUrl: server.url, apiKey: 'ak_demo_project' });
  server.admin.freezeClock(true);
  server.admin.setNow(now);
  return { dir, client };
}

/**
 * The reference server reset to a frozen `now`, with `count` project events in the hour that ended
 * an hour before it: what a bucket test syncs with `--since` three hours back.
 */
export function seedHourBefore(server: ReferenceServer, now: number, count = 20): void {
  server.admin.reset();
  server.admin.freezeClock(true);
  server.admin.setNow(now);
  server.admin.addAuditEvents({
    count,
    scope: 'project',
    from: new Date(now - 2 * HOUR).toISOString(),
    to: new Date(now - HOUR).toISOString(),
  });
}

/**
 * The environment of a fresh machine for a CLI run against a bucket: a HOME and temp folder of its
 * own under `root`, the S3 server's settings (`s3Env`), the demo key and the reference server.
 */
export function bucketMachine(
  root: string,
  s3Env: Record<string, string>,
  baseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const home = mkdtempSync(join(root, 'home-'));
  return {
    ...s3Env,
    HOME: home,
    TMPDIR: home,
    SVC_API_KEY: 'ak_demo_project',
    SVC_BASE_URL: baseUrl,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extra,
  };
}

/** Closes the client and removes the directory of {@link archiveScratch}. */
export async function dropScratch(dir: string, client: SvcClient): Promise<void> {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}

/** A fixed range one to two days before `now`: inside the retention, away from the default range. */
export function pastRange(now: number, days = 2): { from: string; to: string } {
  return {
    from: new Date(now - days * DAY).toISOString(),
    to: new Date(now - (days - 1) * DAY).toISOString(),
  };
}

export interface WireEvent {
  id: string;
  occurredAt: string;
  [key: string]: unknown;
}

export interface WirePage {
  from: string;
  to: string;
  content: WireEvent[];
  page: number;
  pageSize: number;
  totalElements: number;
  nextCursor: string | null;
}

/** `GET /platform/v1/events` with raw query values; returns status and body. */
export async function getEvents(
  baseUrl: string,
  query: Record<string, string | number | undefined>,
  /** null sends no key. */
  key: string | null = 'ak_demo_project',
): Promise<{ status: number; body: WirePage & { detail?: string; errors?: Array<{ path: string }> } }> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const qs = params.toString();
  const res = await rawRequest(
    baseUrl,
    'GET',
    `/platform/v1/events${qs ? `?${qs}` : ''}`,
    key === null ? {} : { key },
  );
  return res as { status: number; body: WirePage & { detail?: string } };
}

/** Every page of a range through cursors, as the wire delivered it. */
export async function readAll(
  baseUrl: string,
  query: Record<string, string | number | undefined>,
  key?: string,
): Promise<{ pages: WirePage[]; events: WireEvent[] }> {
  const pages: WirePage[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await getEvents(baseUrl, { ...query, cursor }, key);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(res.body)}`);
    pages.push(res.body);
    if (res.body.nextCursor === null) break;
    cursor = res.body.nextCursor;
  }
  return { pages, events: pages.flatMap((p) => p.content) };
}

/** true when `events` are ordered `occurredAt` desc, then `id` desc. */
export function isNewestFirst(events: ReadonlyArray<{ id: string; occurredAt: string }>): boolean {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1] as WireEvent;
    const b = events[i] as WireEvent;
    const ta = Date.parse(a.occurredAt);
    const tb = Date.parse(b.occurredAt);
    if (ta < tb || (ta === tb && a.id <= b.id)) return false;
  }
  return true;
}

/**
 * An HTTP proxy in front of the reference server that counts audit requests and calls `onRequest`
 * before forwarding each one, so a test can interrupt a client at an exact page.
 */
export async function startProxy(
  upstream: string,
  onRequest: (count: number, req: IncomingMessage) => 'hold' | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  let count = 0;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/platform/v1/events')) {
      count += 1;
      if (onRequest(count, req) === 'hold') {
        held.push(res);
        return;
      }
    }
    void (async () => {
      const headers: Record<string, string> = {};
      if (typeof req.headers.authorization === 'string') headers.authorization = req.headers.authorization;
      try {
        const upstreamRes = await fetch(upstream + (req.url ?? '/'), { method: req.method, headers });
        const body = Buffer.from(await upstreamRes.arrayBuffer());
        res.writeHead(upstreamRes.status, {
          'content-type': upstreamRes.headers.get('content-type') ?? 'application/json',
          'content-length': body.length,
        });
        res.end(body);
      } catch {
        res.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Edits of an archive's JSON files (manifests, sync-state.json), by file name. */
// biome-ignore lint/suspicious/noExplicitAny: edits a parsed JSON file field by field
export type ArchiveEdits = Record<string, (json: any) => void>;

/** A copy of archive `from` at `to`, each file named in `edits` changed by its edit. */
export function tamperedCopy(from: string, to: string, edits: ArchiveEdits): string {
  cpSync(from, to, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(to, file);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    edit(json);
    writeFileSync(path, JSON.stringify(json, null, 2));
  }
  return to;
}
