import type { Command } from 'commander';
import { defineAuditCommands } from './definitions/audit.js';
import { defineCaptchaCommands } from './definitions/captcha.js';
import { defineCompletionCommand } from './definitions/completion.js';
import { defineConfigCommands } from './definitions/config.js';
import { defineOpenApiCommand, defineServeCommand } from './definitions/serve.js';
import { defineBatchCommand, defineTaxCommands } from './definitions/tax.js';
import { defineVersionCommand } from './definitions/version.js';
import type { CliIO } from './io.js';
import { lazy, type RunState } from './program.js';

/** Registers every command; handlers live in `commands/` and load on use. */
export function defineCommands(program: Command, io: CliIO, state: RunState): void {
  const run = (load: Parameters<typeof lazy>[2]) => lazy(io, state, load);
  defineTaxCommands(program, run);
  defineBatchCommand(program, run);
  defineAuditCommands(program, run);
  defineCaptchaCommands(program, run);
  defineConfigCommands(program, run);
  defineServeCommand(program, run);
  defineOpenApiCommand(program, run);
  defineCompletionCommand(program, run);
  defineVersionCommand(program, run);
}
