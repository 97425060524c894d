import { defineCommand } from '../command.js';
import { webhooksListenOptions } from '../options/webhooks-listen-options.js';

/** `svc webhooks listen`: its handler (webhooks-listen.ts, and the listener behind it) loads when it runs. */
export const webhooksListenCommand = defineCommand({
  path: 'webhooks listen',
  summary: 'listen on 127.0.0.1 for webhook events and print them as NDJSON',
  configure: webhooksListenOptions,
  outputs: ['ndjson'],
  examples: ['svc webhooks listen --port 8787', 'svc webhooks listen --out events.ndjson --confirm'],
  load: async () => (await import('../handlers/webhooks-listen.js')).webhooksListen,
});
