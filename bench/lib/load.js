import { percentile } from './stats.js';

/**
 * Closed-loop load: up to `total` calls of `call`, `inFlight` at a time; each worker starts its
 * next call when the previous one settles. With `durationMs`, no call starts after that time, so a
 * slow machine shortens the sample instead of the run. Latency is per call, end to end.
 * `cpuUsPerCall` is this process's CPU time (process.cpuUsage(), all its threads) over the load
 * divided by the calls: the client's cost, whatever a server in another process spends.
 * @param {{ total: number, inFlight: number, call: (i: number) => Promise<unknown>, durationMs?: number }} options
 * @returns {Promise<{ calls: number, perSecond: number, p50Ms: number, p99Ms: number, cpuUsPerCall: number, elapsedMs: number, errors: number }>}
 */
export async function closedLoop({ total, inFlight, call, durationMs = Number.POSITIVE_INFINITY }) {
  const latencies = new Float64Array(total);
  let next = 0;
  let errors = 0;
  let firstError;
  let started = 0;
  const worker = async () => {
    while (next < total && performance.now() - started < durationMs) {
      const i = next++;
      const t0 = performance.now();
      try {
        await call(i);
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
      latencies[i] = performance.now() - t0;
    }
  };
  const cpuBefore = process.cpuUsage();
  started = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const calls = next;
  if (errors > 0) {
    const reason = firstError instanceof Error ? firstError.message : String(firstError);
    throw new Error(`${errors} of ${calls} calls failed; first: ${reason}`);
  }
  const done = latencies.subarray(0, calls).sort();
  return {
    calls,
    perSecond: (calls * 1000) / elapsedMs,
    p50Ms: percentile(done, 50),
    p99Ms: percentile(done, 99),
    cpuUsPerCall: (cpu.user + cpu.system) / calls,
    elapsedMs,
    errors,
  };
}
