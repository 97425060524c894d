import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs } from './child.js';
import { spawnListening } from './server.js';

/** The repository's copy of the tests' `_bulk` stand-in process entry (the build snapshot has no tests). */
const ENTRY = fileURLToPath(new URL('../../test/helpers/bulk-standin-process.ts', import.meta.url));
const READY = /^bulk stand-in listening: (\S+)$/;

/**
 * The tests' loopback `_bulk` stand-in (test/helpers/bulk-standin.ts, ids only) in a process of
 * its own; `cpuMs()` the CPU it has used so far (null off Linux): it shares the cores with the run.
 * @returns {Promise<{ url: string, cpuMs: () => number | null, stop: () => Promise<void> }>}
 */
export async function startBulkProcess() {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const { url, pid, stop } = await spawnListening(['--import', tsx, ENTRY], READY);
  return { url, cpuMs: () => processCpuMs(pid), stop };
}
