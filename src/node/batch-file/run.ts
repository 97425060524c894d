import { prepareInput } from './input/prepare.js';
import type { BatchFileOptions, BatchFileResult } from './options.js';
import { checkRun } from './phases/check.js';
import type { BatchFileClient } from './phases/context.js';
import { openRun } from './phases/open.js';
import { runPhases } from './phases/sequence.js';

export type { BatchFileClient } from './phases/context.js';

/**
 * The batch-file job (`runBatchFile`, job.ts, loads it at its first call), in phases (phases/):
 * check (options and paths, before anything is read), open (the state it continues, the input and
 * its columns, the outputs: phases/open.ts), then send, resend, wait (its listener, joiner and
 * reconciliation in wait/) and write, in that order (phases/sequence.ts), through one `RowWriter`
 * whatever the output (output/writers.ts).
 */
export async function runBatchFileWith(
  tax: BatchFileClient,
  options: BatchFileOptions,
): Promise<BatchFileResult> {
  const plan = await checkRun(options);
  const input = await prepareInput(plan.source, options.signal);
  try {
    const open = await openRun(tax, options, plan, input);
    return await runPhases(open);
  } finally {
    await input.removeCopy();
  }
}
