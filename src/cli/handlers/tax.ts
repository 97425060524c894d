import { watchCompletions } from '../../node/webhooks/completion-watch.js';
import type { ValidateOutcome, ValidateParams } from '../../tax/client.js';
import { precheck } from '../../tax/precheck/index.js';
import { registerWebhookEndpoint, unregisterWebhookEndpoint } from '../../tax/webhooks/register-endpoint.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { SchedulesCreateOptions } from '../options/schedules-create-options.js';
import type { ValidateOptions } from '../options/validate-options.js';
import { fieldsView } from '../output.js';
import {
  countryArg,
  listenArg,
  matchingFields,
  parseMetadata,
  precheckMode,
  waitTimeoutMs,
} from './tax-params.js';
import { pendingView, precheckView, resultView } from './tax-views.js';

/**
 * `--exit-status`, like `git diff --exit-code`: 0 VALID, 3 INVALID, 4 anything not conclusive
 * (UNKNOWN, SOURCE_UNAVAILABLE, NOT_SUPPORTED, an outcome this version does not know, still PENDING).
 */
function outcomeExitCode(outcome: ValidateOutcome): number {
  if (outcome.kind === 'pending') return EXIT.CHALLENGE;
  if (outcome.result.outcome === 'VALID') return EXIT.OK;
  if (outcome.result.outcome === 'INVALID') return EXIT.REJECTED;
  return EXIT.CHALLENGE;
}

/** Starts the completion listener of `--wait` and registers it (sandbox, `--register`, or by hand). */
async function startWait(ctx: CommandContext, flags: ValidateOptions, timeoutMs: number) {
  const client = await ctx.client.get();
  const watch = await watchCompletions(client.tax, listenArg(flags.listen));
  ctx.onClose(() => watch.close());
  const sandbox = await ctx.client.sandbox();
  const register = flags.register;
  if (sandbox) sandbox.admin.addWebhookEndpoint(watch.url);
  else if (register) {
    await registerWebhookEndpoint(register, watch.url);
    // Removed at exit (before the listener closes), so the server stops sending to it.
    ctx.onClose(() => unregisterWebhookEndpoint(register, watch.url));
  } else
    ctx.out.info(
      `a PENDING result is awaited on ${watch.url} (register it as the project's webhook endpoint)`,
    );
  return { watch, timeoutMs };
}

/** `svc validate <countryCode> <rawValue>`. */
export async function validate(
  ctx: CommandContext,
  cc: string,
  raw: string,
  flags: ValidateOptions,
): Promise<number> {
  const metadata = parseMetadata(flags.metadata);
  const params: ValidateParams = {
    countryCode: countryArg(cc),
    rawValue: raw,
    ...matchingFields(flags),
    ...(metadata && { customerMetadata: metadata }),
    ...(flags.idempotencyKey !== undefined && { idempotencyKey: flags.idempotencyKey }),
    ...(flags.correlationId !== undefined && { correlationId: flags.correlationId }),
    ...(flags.schedule !== undefined && { attachSchedule: { frequency: flags.schedule } }),
  };
  const mode = precheckMode(flags.precheck);
  const timeoutMs = waitTimeoutMs(flags.waitTimeout);
  const client = await ctx.client.get();
  const wait = flags.wait ? await startWait(ctx, flags, timeoutMs) : undefined;
  const outcome = await client.tax.validate(params, {
    precheck: mode,
    ...(wait && { wait }),
    ...ctx.signals.abortable,
  });
  if (outcome.replay) {
    ctx.out.info(
      `replay: idempotency key ${outcome.idempotencyKey} was already processed (HTTP 200); nothing was validated again`,
    );
  }
  if (outcome.kind === 'pending') {
    if (outcome.timedOut)
      ctx.out.warn(`no result after ${timeoutMs / 1000} s; the validation is still PENDING`);
    await ctx.out.print(outcome.pending, () => pendingView(outcome.pending, outcome.replay));
  } else await ctx.out.print(outcome.result, () => resultView(outcome.result, outcome.replay));
  return flags.exitStatus ? outcomeExitCode(outcome) : EXIT.OK;
}

/** `svc precheck <countryCode> <rawValue>`: exit 0 when the ID passes, 2 when it does not. */
export async function precheckCommand(ctx: CommandContext, cc: string, raw: string): Promise<number> {
  const countryCode = countryArg(cc);
  const result = precheck(countryCode, raw);
  await ctx.out.print(result, () => precheckView(countryCode, result));
  return result.valid ? EXIT.OK : EXIT.USAGE;
}

/** `svc results get <validationResultId>`. */
export async function resultsGet(ctx: CommandContext, id: string): Promise<number> {
  const client = await ctx.client.get();
  const result = await client.tax.getResult(id);
  await ctx.out.print(result, () => resultView(result));
  return EXIT.OK;
}

/** `svc schedules create <countryCode> <rawValue> --frequency F`. */
export async function schedulesCreate(
  ctx: CommandContext,
  cc: string,
  raw: string,
  flags: SchedulesCreateOptions,
): Promise<number> {
  const { customerMetadata: _none, ...matching } = matchingFields(flags);
  const client = await ctx.client.get();
  const created = await client.tax.createSchedule({
    countryCode: countryArg(cc),
    rawValue: raw,
    frequency: flags.frequency,
    ...matching,
    ...(flags.mode !== undefined && { mode: flags.mode }),
    ...(flags.manualReview === false && { manualReviewOnAutomaticFailure: false }),
    ...(flags.disabled && { isEnabled: false }),
  });
  await ctx.out.print(created, () => fieldsView(Object.entries(created)));
  return EXIT.OK;
}

/** `svc schedules delete <scheduleId>`. */
export async function schedulesDelete(ctx: CommandContext, id: string): Promise<number> {
  const client = await ctx.client.get();
  const deleted = await client.tax.deleteSchedule(id);
  const data = { scheduleId: deleted.scheduleId, deleted: true };
  await ctx.out.print(data, () =>
    fieldsView([
      ['scheduleId', deleted.scheduleId],
      ['deleted', 'yes'],
    ]),
  );
  return EXIT.OK;
}
