import type { Command } from '@commander-js/extra-typings';
import { lazy, type Runner, type RunState } from './action.js';
import { defineAuditCommands } from './definitions/audit.js';
import { defineCaptchaCommands } from './definitions/captcha.js';
import { defineCompletionCommand } from './definitions/completion.js';
import { defineConfigCommands } from './definitions/config.js';
import { defineDoctorCommand } from './definitions/doctor.js';
import { defineOpenApiCommand, defineServeCommand } from './definitions/serve.js';
import { defineBatchCommand, defineTaxCommands } from './definitions/tax.js';
import { defineVersionCommand } from './definitions/version.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';

/** Registers every command; handlers live in `commands/` and load on use. */
export function defineCommands(program: Command<[], GlobalFlags>, io: CliIO, state: RunState): void {
  const run: Runner = (load) => lazy(io, state, () => program.opts(), load);
  defineTaxCommands(program, run);
  defineBatchCommand(program, run);
  defineAuditCommands(program, run);
  defineCaptchaCommands(program, run);
  defineConfigCommands(program, run);
  defineServeCommand(program, run);
  defineOpenApiCommand(program, run);
  defineCompletionCommand(program, run);
  defineDoctorCommand(program, run);
  defineVersionCommand(program, run);
}
