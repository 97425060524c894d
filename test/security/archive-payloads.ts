import { expect } from 'vitest';
import type { ReferenceServer } from '../../src/server/index.js';
import { runSvc } from '../helpers/cli.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

/** What a hostile archive editor puts in a field: retitle the window, clear the screen, a fake verdict. */
export const PAYLOAD = '\u001b]0;PWNED\u0007\u001b[2J\u001b[31mFAKE';

/** Raw terminal controls: C0 except the line feed, DEL, C1, bidi marks, overrides and isolates. */
export const RAW_CONTROL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Writes an archive of three nights with `svc audit sync` against `server`: night 2 finds two
 * late events (gap run2.late1), `svc audit gaps ack` acknowledges it, night 3 records that in
 * manifest-000003.json. The server clock is frozen at `t0` first.
 */
export async function threeNights(server: ReferenceServer, dir: string, t0: number): Promise<void> {
  const svc = (...args: string[]) =>
    runSvc([...args, '--base-url', server.url], { env: { SVC_API_KEY: 'ak_demo_project' } });
  const add = (count: number, from: number, to: number) =>
    server.admin.addAuditEvents({ count, scope: 'project', from: iso(from), to: iso(to) });
  server.admin.freezeClock(true);
  server.admin.setNow(t0);
  add(20, t0 - HOUR, t0 - 10 * MIN);
  expect((await svc('audit', 'sync', '--dir', dir, '--since', iso(t0 - 2 * HOUR))).code).toBe(0);
  server.admin.advanceClock(HOUR);
  add(2, t0 - 45 * MIN, t0 - 44 * MIN);
  expect((await svc('audit', 'sync', '--dir', dir)).code).toBe(5);
  const ack = await svc('audit', 'gaps', 'ack', 'run2.late1', '--reason', 'checked by hand', '--dir', dir);
  expect(ack.code).toBe(0);
  server.admin.advanceClock(HOUR);
  add(3, t0 + 70 * MIN, t0 + 80 * MIN);
  expect((await svc('audit', 'sync', '--dir', dir)).code).toBe(0);
}
