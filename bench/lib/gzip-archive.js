import { runNodeOk } from './child.js';
import { SVC_BIN } from './server.js';

const HOUR = 3600_000;

/**
 * Seeds `count` project events into the bench's reference server, in the hour that ended an hour
 * ago, and syncs them into a gzipped folder archive at `dir` with the built CLI: the archive the
 * search and ship scenarios read. Returns the environment a CLI run against the server needs and
 * the time the seed counted from.
 * @param {{ url: string, admin: (path: string, body: unknown) => Promise<any> }} server
 * @param {string} dir
 * @param {number} count
 * @param {(line: string) => void} log
 */
export async function seedGzipArchive(server, dir, count, log) {
  const now = Date.now();
  const iso = (ms) => new Date(ms).toISOString();
  const seeded = await server.admin('/audit-events', {
    count,
    scope: 'project',
    from: iso(now - 3 * HOUR),
    to: iso(now - 2 * HOUR),
  });
  log(`  seeded ${seeded.added} events`);
  const env = { SVC_BASE_URL: server.url, SVC_API_KEY: 'ak_demo_project' };
  await runNodeOk(
    'svc audit sync',
    [SVC_BIN, '-q', 'audit', 'sync', '--dir', dir, '--gzip', '--since', iso(now - 4 * HOUR)],
    { env },
  );
  return { env, since: iso(now - 4 * HOUR) };
}
