import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';

/** `svc serve`, before its action. */
export const serveCommand = (program: Command) =>
  program
    .command('serve')
    .description('run the in-memory reference server of the four APIs')
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port (0 picks a free one)').default('4010'))
    .addOption(new Option('--seed-audit-events <n>', 'generate N audit events for the demo project'));

/** The options of `svc serve`. */
export type ServeOptions = OptionsOf<typeof serveCommand>;
