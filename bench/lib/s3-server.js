import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs } from './child.js';
import { spawnListening } from './server.js';

/** The repository's copy of the test S3 server's process entry (the build snapshot has no tests). */
const ENTRY = fileURLToPath(new URL('../../test/helpers/s3-server-process.ts', import.meta.url));
const READY = /^s3 test server listening: (\{.*\})$/;

/**
 * The tests' loopback S3-compatible server (s3rver behind its wrapper, test/helpers/s3-server.ts)
 * in a process of its own, with `buckets` created; `env` holds the AWS_* settings a CLI run needs;
 * `cpuMs()` the CPU the server has used so far (null off Linux): it shares the machine's cores
 * with the CLI run, so a bucket run's wall time holds it although the run's own CPU does not.
 * @param {string[]} buckets
 * @returns {Promise<{ env: Record<string, string>, cpuMs: () => number | null, stop: () => Promise<void> }>}
 */
export async function startS3Process(buckets) {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const { url, pid, stop } = await spawnListening(['--import', tsx, ENTRY, ...buckets], READY);
  return { env: JSON.parse(url), cpuMs: () => processCpuMs(pid), stop };
}
