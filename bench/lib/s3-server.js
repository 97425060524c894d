import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnListening } from './server.js';

/** The repository's copy of the test S3 server's process entry (the build snapshot has no tests). */
const ENTRY = fileURLToPath(new URL('../../test/helpers/s3-server-process.ts', import.meta.url));
const READY = /^s3 test server listening: (\{.*\})$/;

/**
 * The tests' loopback S3-compatible server (s3rver behind its wrapper, test/helpers/s3-server.ts)
 * in a process of its own, with `buckets` created; `env` holds the AWS_* settings a CLI run needs.
 * @param {string[]} buckets
 * @returns {Promise<{ env: Record<string, string>, stop: () => Promise<void> }>}
 */
export async function startS3Process(buckets) {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const { url, stop } = await spawnListening(['--import', tsx, ENTRY, ...buckets], READY);
  return { env: JSON.parse(url), stop };
}
