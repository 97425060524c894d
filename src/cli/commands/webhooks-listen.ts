import { appendFileSync } from 'node:fs';
import { registerWebhookEndpoint } from '../../tax/register-webhook-endpoint.js';
import { listenForWebhooks } from '../../tax/webhook-listener.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { parseIntOption } from '../usage-error.js';

interface ListenFlags {
  host: string;
  port: string;
  out?: string;
  confirm?: boolean;
  register?: string;
  maxEvents?: string;
}

/** `svc webhooks listen`: events as NDJSON lines, one per event, exactly as received. */
export async function webhooksListen(ctx: CommandContext, flags: ListenFlags): Promise<number> {
  const port = parseIntOption(flags.port, '--port', 0, 65535);
  const maxEvents =
    flags.maxEvents === undefined ? undefined : parseIntOption(flags.maxEvents, '--max-events', 1);
  const client = flags.confirm || ctx.flags.sandbox ? await ctx.client('tax') : undefined;
  let count = 0;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const listener = await listenForWebhooks({
    host: flags.host,
    port,
    onEvent: async (event, raw) => {
      const line = `${JSON.stringify(JSON.parse(raw))}\n`;
      if (flags.out) appendFileSync(flags.out, line);
      else ctx.io.stdout.write(line);
      const completed = event.known && event.eventType !== 'taxvalidation.validation.manual-review-required';
      if (client && flags.confirm && completed) {
        const { validationResultId: id, outcome } = event as { validationResultId: string; outcome: string };
        try {
          const result = await client.tax.getResult(id);
          if (result.outcome === outcome) ctx.info(`confirmed ${id}: ${result.outcome}`);
          else ctx.warn(`${id}: event says ${outcome}, API says ${result.outcome}`);
        } catch (error) {
          ctx.warn(`could not confirm ${id}: ${(error as Error).message}`);
        }
      }
      count += 1;
      if (maxEvents !== undefined && count >= maxEvents) stop();
    },
  });
  ctx.onClose(() => listener.close());
  const sandbox = await ctx.sandbox();
  if (sandbox) sandbox.admin.addWebhookEndpoint(listener.url);
  if (flags.register) await registerWebhookEndpoint(flags.register, listener.url);
  ctx.io.stderr.write(`svc webhooks listening on ${listener.url}\n`);
  const signal = ctx.io.signal;
  await Promise.race([
    stopped,
    new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    }),
  ]);
  ctx.info(`received ${count} event(s)`);
  return EXIT.OK;
}
