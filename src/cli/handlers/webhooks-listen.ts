import { openAppendOutput } from '../../node/fs/output-file.js';
import { createWebhookForwarder, type WebhookForwarder } from '../../node/webhooks/forwarder.js';
import { listenForWebhooks } from '../../node/webhooks/listen.js';
import { WebhookRejection } from '../../node/webhooks/rejection.js';
import { registerWebhookEndpoint, unregisterWebhookEndpoint } from '../../tax/webhooks/register-endpoint.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { WebhooksListenOptions } from '../options/webhooks-listen-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { parseFileMode, stdoutAlias } from './output-flags.js';

/**
 * The `--forward-to` target, reached through the run's proxy (NO_PROXY applies: a local app is
 * usually listed there) and trusting its CA file; a URL that is not http(s) is a usage error.
 */
async function forwarderFor(
  ctx: CommandContext,
  target: string | undefined,
): Promise<WebhookForwarder | undefined> {
  if (target === undefined) return undefined;
  try {
    new URL(target);
  } catch {
    throw new UsageError(`--forward-to takes an http(s) URL, got '${target}'`);
  }
  await ctx.settings.loadProfile();
  const proxy = ctx.settings.proxySettings().settings ?? false;
  const ca = ctx.settings.caCertificates();
  try {
    return createWebhookForwarder(target, { proxy, ...(ca && { ca }) });
  } catch (error) {
    if (error instanceof TypeError)
      throw new UsageError(`--forward-to takes an http(s) URL, got '${target}'`);
    throw error;
  }
}

/** `svc webhooks listen`: events as NDJSON lines, one per event, exactly as received. */
export async function webhooksListen(ctx: CommandContext, flags: WebhooksListenOptions): Promise<number> {
  const port = parseIntOption(flags.port, '--port', 0, 65535);
  const maxEvents =
    flags.maxEvents === undefined ? undefined : parseIntOption(flags.maxEvents, '--max-events', 1);
  const fileMode = parseFileMode(flags.fileMode);
  // Opened before listening: a directory or a symlink to a file is refused at start (exit 2).
  const outFlag = stdoutAlias(flags.out);
  const out =
    outFlag === undefined || outFlag === '-' ? undefined : await openAppendOutput(outFlag, fileMode);
  if (out) ctx.onClose(() => out.close());
  const forwarder = await forwarderFor(ctx, flags.forwardTo);
  if (forwarder) ctx.onClose(() => forwarder.close());
  const client = flags.confirm || ctx.settings.flags.sandbox ? await ctx.client.get('tax') : undefined;
  let count = 0;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const listener = await listenForWebhooks({
    host: flags.host,
    port,
    onEvent: async (event, raw, delivery) => {
      const line = `${jsonForTerminal(JSON.parse(raw))}\n`;
      if (out) await out.write(line);
      else await ctx.out.data(line);
      const completed = event.known && event.eventType !== 'taxvalidation.validation.manual-review-required';
      if (client && flags.confirm && completed) {
        const { validationResultId: id, outcome } = event as { validationResultId: string; outcome: string };
        try {
          const result = await client.tax.getResult(id);
          if (result.outcome === outcome) ctx.out.info(`confirmed ${id}: ${result.outcome}`);
          else ctx.out.warn(`${id}: event says ${outcome}, API says ${result.outcome}`);
        } catch (error) {
          ctx.out.warn(`could not confirm ${id}: ${(error as Error).message}`);
        }
      }
      if (forwarder) {
        try {
          await forwarder.forward(delivery);
        } catch (error) {
          // Answered 502 so the sender delivers the event again later.
          ctx.out.warn(
            `forwarding a ${event.eventType} event failed: ${(error as Error).message}; answered 502 (the sender retries)`,
          );
          throw new WebhookRejection(502, 'forward failed');
        }
      }
      count += 1;
      if (maxEvents !== undefined && count >= maxEvents) stop();
    },
  });
  ctx.onClose(() => listener.close());
  const sandbox = await ctx.client.sandbox();
  if (sandbox) sandbox.admin.addWebhookEndpoint(listener.url);
  if (flags.register) await registerWebhookEndpoint(flags.register, listener.url);
  const register = flags.register;
  // The endpoint registered here is removed when the listener ends (before the listener closes).
  if (register) ctx.onClose(() => unregisterWebhookEndpoint(register, listener.url));
  if (sandbox) ctx.onClose(async () => void sandbox.admin.removeWebhookEndpoint(listener.url));
  ctx.out.notice(`svc webhooks listening on ${listener.url}`);
  if (forwarder) ctx.out.info(`forwarding events to ${forwarder.target}`);
  await Promise.race([stopped, ctx.signals.untilInterrupted()]);
  ctx.out.info(`received ${count} event(s)`);
  return EXIT.OK;
}
