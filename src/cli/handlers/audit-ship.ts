import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { shipAuditArchive } from '../../node/audit-ship/job.js';
import type { ShipProgress, ShipReceipt } from '../../node/audit-ship/options.js';
import { replaceFileAtomic } from '../../node/fs/atomic-file.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditShipOptions } from '../options/audit-ship-options.js';
import { startProgress } from '../progress.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { rangeFlags, retryForFlag } from './audit.js';
import { bucketSettings } from './bucket-settings.js';
import { continueCommand } from './continue-line.js';
import { eventFormat } from './event-format.js';

/** The receipt in one line: what reached the destination against what the archive holds in the range. */
export function receiptLine(receipt: ShipReceipt): string {
  const where = receipt.index === null ? receipt.destination : `${receipt.destination} (${receipt.index})`;
  const file = receipt.deadLetterFile ?? "an earlier run's dead-letter file";
  const dead = `, ${receipt.deadLettered} dead-lettered${receipt.deadLettered > 0 ? ` (${file})` : ''}`;
  const verdict = receipt.complete
    ? 'every event of the range'
    : `NOT every event: ${receipt.archived - receipt.sent} missing`;
  return `receipt: ${receipt.sent} of ${receipt.archived} events sent to ${where}, ${verdict}: ${receipt.created} created, ${receipt.alreadyThere} already there${dead}`;
}

/** `--batch-size`, `--max-body-bytes` and the event format (ECS by default, raw for a HEC), checked. */
function sendFlags(flags: AuditShipOptions) {
  const batchEvents =
    flags.batchSize === undefined ? undefined : parseIntOption(flags.batchSize, '--batch-size', 1, 100_000);
  const maxBatchBytes =
    flags.maxBodyBytes === undefined
      ? undefined
      : parseIntOption(flags.maxBodyBytes, '--max-body-bytes', 1024, 1024 ** 3);
  const { format, keepOriginal } = eventFormat(
    { ...flags, format: flags.format ?? (flags.kind === 'splunk-hec' ? 'raw' : 'ecs') },
    true,
  );
  return { batchEvents, maxBatchBytes, format, keepOriginal };
}

/**
 * `svc audit ship ARCHIVE --dest URL --kind KIND`: sends the archive's events of the range and
 * ends with the receipt (a line on stdout, or with `-o json` the receipt as JSON; `--receipt FILE`
 * writes the JSON too). Exit 0 when every event was created or was there already, 6 when some
 * were dead-lettered, 1 when the receipt does not add up or the destination kept refusing, 2 on a
 * usage error, 75 when interrupted (the checkpoint saved).
 */
export async function auditShip(
  ctx: CommandContext,
  archive: string,
  flags: AuditShipOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  const range = rangeFlags(flags);
  const { batchEvents, maxBatchBytes, format, keepOriginal } = sendFlags(flags);
  const credentials = await ctx.settings.shipCredentials();
  if (flags.kind === 'splunk-hec' && credentials.token === undefined)
    throw new UsageError(
      'a Splunk HEC needs its token: set SVC_SHIP_TOKEN (or the profile key ship-token: svc config set ship-token)',
    );
  const proxy = ctx.settings.proxySettings().settings;
  const ca = ctx.settings.caCertificates();
  const timeoutMs = ctx.settings.timeoutMs();
  const spinner = await startProgress(ctx.io, ctx.settings, `shipping ${archive}`);
  const started = Date.now();
  let receipt: ShipReceipt;
  try {
    receipt = await shipAuditArchive(String(archive), {
      dest: flags.dest,
      kind: flags.kind,
      ...(flags.index !== undefined && { index: flags.index }),
      ...(flags.sourcetype !== undefined && { sourcetype: flags.sourcetype }),
      format,
      keepOriginal,
      ...range,
      credentials,
      ...(batchEvents !== undefined && { batchEvents }),
      ...(maxBatchBytes !== undefined && { maxBatchBytes }),
      ...(flags.deadLetter !== undefined && { deadLetter: flags.deadLetter }),
      ...(flags.ack && { ack: true }),
      ...(flags.restart && { restart: true }),
      retryForMs: retryForFlag(flags),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(proxy && { proxy }),
      ...(ca && { ca }),
      s3: bucketSettings(ctx, flags),
      ...ctx.signals.abortable,
      onProgress: (p: ShipProgress) =>
        spinner.update(
          () =>
            `shipping: ${p.created} created, ${p.alreadyThere} already there, ${p.deadLettered} dead-lettered, ${p.retrying} to send again, ${p.requests} requests, ${Math.round((Date.now() - started) / 1000)} s`,
        ),
    });
  } catch (error) {
    spinner.stop();
    if (error instanceof AbortError && ctx.signals.signal?.aborted) {
      ctx.out.info(
        `interrupted: the checkpoint is saved in the archive; the same command continues: ${continueCommand(command, { drop: ['--restart'] })}`,
      );
      return EXIT.INTERRUPTED;
    }
    if (error instanceof SvcError && error.code === 'ship_gave_up')
      error.message += `; the checkpoint is saved in the archive, the same command continues: ${continueCommand(command, { drop: ['--restart'] })}`;
    if (error instanceof SvcError && error.code === 'ship_auth')
      error.message +=
        "; the credentials come from SVC_SHIP_API_KEY, SVC_SHIP_USERNAME and SVC_SHIP_PASSWORD, or SVC_SHIP_TOKEN (or the profile's ship-* settings)";
    throw error;
  }
  spinner.stop();
  return showReceipt(ctx, flags, receipt, started);
}

/** The receipt written (`--receipt`), shown (a line, or JSON with `-o json`) and turned into the exit code. */
async function showReceipt(
  ctx: CommandContext,
  flags: AuditShipOptions,
  receipt: ShipReceipt,
  started: number,
): Promise<number> {
  const json = `${jsonForTerminal(receipt, 2)}\n`;
  if (flags.receipt !== undefined) await replaceFileAtomic(flags.receipt, json);
  if (ctx.settings.format === 'json' && ctx.settings.flags.output === 'json') await ctx.out.data(json);
  else ctx.out.line(receiptLine(receipt));
  if (!receipt.whole)
    for (const line of receipt.incomplete) ctx.out.warn(`the archive is not whole in the range: ${line}`);
  ctx.out.info(
    `this run: ${receipt.thisRun.created} created, ${receipt.thisRun.alreadyThere} already there, ${receipt.thisRun.deadLettered} dead-lettered in ${receipt.thisRun.requests} requests (${receipt.thisRun.retried} documents sent again), ${((Date.now() - started) / 1000).toFixed(1)} s; checkpoint ${receipt.checkpoint}`,
  );
  if (!receipt.complete) return EXIT.FAILURE;
  return receipt.deadLettered > 0 ? EXIT.DEAD_LETTERED : EXIT.OK;
}
