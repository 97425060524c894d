import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { fileModeOption } from './output-options.js';

/** The options of `svc webhooks listen` (commands/webhooks-listen.ts registers it). */
export const webhooksListenOptions = (command: Command) =>
  command
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port (0 picks a free one)').default('0'))
    .addOption(new Option('--out <file>', 'append events to this file instead of stdout'))
    .addOption(fileModeOption())
    .addOption(new Option('--confirm', 'fetch each completed result from the API to confirm it'))
    .addOption(
      new Option('--register <adminUrl>', 'register the listener with a reference server (its base URL)'),
    )
    .addOption(new Option('--max-events <n>', 'stop after N events'))
    .addOption(
      new Option(
        '--forward-to <url>',
        'POST every event, body unchanged, to this URL (your app); a failed forward is answered 502 so the sender retries',
      ),
    );

/** The options of `svc webhooks listen`, as its handler takes them. */
export type WebhooksListenOptions = OptionsOf<typeof webhooksListenOptions>;
