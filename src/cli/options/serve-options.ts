import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';

/** The options of `svc serve`, on the bare command (commands/serve.ts registers it). */
export const serveOptions = (command: Command) =>
  command
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port (0 picks a free one)').default('4010'))
    .addOption(new Option('--seed-audit-events <n>', 'generate N audit events for the demo project'));

/** The options of `svc serve`, as its handler takes them. */
export type ServeOptions = OptionsOf<typeof serveOptions>;
