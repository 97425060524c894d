import type { PushReport } from '../../node/audit-receive/options.js';
import { RECEIVE_HEALTH_PATH } from '../../node/audit-receive/options.js';
import { startAuditReceiver } from '../../node/audit-receive/receive.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditReceiveOptions } from '../options/audit-receive-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseIntOption } from '../usage-error.js';
import { bucketSettings } from './bucket-settings.js';
import { parseFileMode } from './output-flags.js';

/** The line of a refused push, for stderr. */
const refusedLine = (report: PushReport) =>
  `refused a push (${report.status}${report.webhookId === undefined ? '' : `, ${report.webhookId}`}): ${report.reason}`;

/**
 * `svc audit receive --dir DIR`: receives pushes until interrupted (Ctrl-C, SIGTERM) or, with
 * `--max-pushes N`, until N were accepted, then exits 0.
 * With `-o ndjson`, each push's report is a JSON line on stdout; otherwise refused pushes are
 * warnings on stderr and the totals are printed at the end.
 */
export async function auditReceive(ctx: CommandContext, flags: AuditReceiveOptions): Promise<number> {
  const port = flags.port === undefined ? 0 : parseIntOption(flags.port, '--port', 0, 65535);
  const maxBodyBytes =
    flags.maxBodyBytes === undefined
      ? undefined
      : parseIntOption(flags.maxBodyBytes, '--max-body-bytes', 1, 256 * 1024 * 1024);
  const toleranceSeconds =
    flags.tolerance === undefined ? undefined : parseIntOption(flags.tolerance, '--tolerance', 0, 86_400);
  const maxPushes =
    flags.maxPushes === undefined ? undefined : parseIntOption(flags.maxPushes, '--max-pushes', 1);
  const fileMode = parseFileMode(flags.fileMode);
  let accepted = 0;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const { secrets, bearer } = await ctx.settings.pushSecrets();
  // ndjson is the command's only data format, so it is the default format too: a report per push
  // only when asked for with -o ndjson, and the warnings a person at the terminal reads otherwise.
  const ndjson = ctx.settings.format === 'ndjson' && ctx.settings.flags.output === 'ndjson';
  let reports = Promise.resolve();
  const receiver = await startAuditReceiver({
    dir: flags.dir,
    ...(flags.host !== undefined && { host: flags.host }),
    port,
    secrets,
    bearer,
    ...(maxBodyBytes !== undefined && { maxBodyBytes }),
    ...(toleranceSeconds !== undefined && { toleranceSeconds }),
    ...(fileMode !== undefined && { fileMode }),
    s3: bucketSettings(ctx, flags),
    onPush: (report) => {
      if (ndjson) reports = reports.then(() => ctx.out.data(`${jsonForTerminal(report)}\n`));
      else if (report.status >= 300) ctx.out.warn(refusedLine(report));
      if (report.status < 300) accepted += 1;
      if (maxPushes !== undefined && accepted >= maxPushes) stop();
    },
  });
  ctx.onClose(() => receiver.close());
  const checks =
    secrets.length > 0 && bearer.length > 0
      ? 'Standard Webhooks signatures or a bearer secret'
      : secrets.length > 0
        ? 'Standard Webhooks signatures'
        : bearer.length > 0
          ? 'a bearer secret'
          : 'none (loopback only; set SVC_PUSH_SECRET to verify signatures)';
  ctx.out.notice(`svc audit receiving on ${receiver.url} into ${flags.dir}`);
  ctx.out.info(`checks: ${checks}; health: ${receiver.url.replace(/\/$/, '')}${RECEIVE_HEALTH_PATH}`);
  await Promise.race([stopped, ctx.signals.untilInterrupted()]);
  await reports;
  const health = await receiver.health().catch(() => undefined);
  if (health)
    ctx.out.info(
      `received ${health.accepted} pushes: ${health.spooled} events spooled, ${health.duplicates} duplicates left out, ${health.refused} refused; ${health.backlog.events} events in ${health.backlog.objects} spool objects wait for svc audit sync`,
    );
  return EXIT.OK;
}
