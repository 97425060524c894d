import type { Command } from '@commander-js/extra-typings';
import type { Runner } from './command.js';
import { auditExportCommand, auditListCommand, auditTailCommand } from './definitions/audit.js';
import {
  auditCopyCommand,
  auditGapsAckCommand,
  auditGapsCommand,
  auditSyncCommand,
  auditVerifyCommand,
} from './definitions/audit-archive.js';
import { captchaLegacyCommand, captchaTokenCommand, decisionCommand } from './definitions/captcha.js';
import {
  batchCommand,
  schedulesCreateCommand,
  validateCommand,
  webhooksListenCommand,
} from './definitions/tax.js';

// The areas not yet in command modules (registry.ts lists them): each command as definitions/ declares it (arguments, options, help; the types
// its handler takes come from there), tied here to its handler in commands/, which loads when the
// command runs. definitions/ never imports commands/, so the types flow one way.

/** `svc audit sync|verify|gaps|copy`: the incremental, verifiable archive. */
function defineAuditArchiveCommands(audit: Command, run: Runner): void {
  auditSyncCommand(audit).action(run(async () => (await import('./commands/audit-sync.js')).auditSync));
  auditVerifyCommand(audit).action(run(async () => (await import('./commands/audit-verify.js')).auditVerify));
  const gaps = auditGapsCommand(audit).action(
    run(async () => (await import('./commands/audit-gaps.js')).auditGaps),
  );
  auditGapsAckCommand(gaps).action(run(async () => (await import('./commands/audit-gaps.js')).auditGapsAck));
  auditCopyCommand(audit).action(run(async () => (await import('./commands/audit-copy.js')).auditCopy));
}

/** `svc audit list|export|tail`, and the archive commands (audit-archive.ts). */
export function defineAuditCommands(program: Command, run: Runner): void {
  const audit = program.command('audit').description('read, export and follow the audit log');
  auditListCommand(audit).action(run(async () => (await import('./commands/audit.js')).auditList));
  auditExportCommand(audit).action(run(async () => (await import('./commands/audit-export.js')).auditExport));
  auditTailCommand(audit).action(run(async () => (await import('./commands/audit.js')).auditTail));
  defineAuditArchiveCommands(audit, run);
}

/** `svc captcha result|legacy|token`, `svc token decode`. Exit 0 accept, 3 reject, 4 extra check. */
export function defineCaptchaCommands(program: Command, run: Runner): void {
  const load = async () => import('./commands/captcha.js');
  const captcha = program
    .command('captcha')
    .description('fetch and evaluate bot-check results (exit 0 accept, 3 reject, 4 extra check, 1 error)');
  decisionCommand(
    captcha.command('result').description('current API: fetch a result (consumes it) and decide'),
  ).action(run(async () => (await load()).captchaResult));
  captchaLegacyCommand(captcha).action(run(async () => (await load()).captchaLegacy));
  captchaTokenCommand(captcha).action(
    run(async () => (await import('./commands/captcha-token.js')).captchaToken),
  );

  program
    .command('token')
    .description('verification tokens')
    .command('decode')
    .description('decode a verification token offline (no network)')
    .argument('<token>', "the token, or '-' to read it from stdin")
    .action(run(async () => (await import('./commands/token.js')).tokenDecode));
}

/** `svc validate` (`svc precheck` follows it, a command module). */
export function defineValidateCommand(program: Command, run: Runner): void {
  validateCommand(program).action(run(async () => (await import('./commands/tax.js')).validate));
}

/** `svc results get`, `svc schedules create|delete`, `svc webhooks listen`. */
export function defineTaxCommands(program: Command, run: Runner): void {
  const load = async () => import('./commands/tax.js');

  const results = program.command('results').description('stored validation results');
  results
    .command('get')
    .description('fetch one stored validation result')
    .argument('<validationResultId>')
    .action(run(async () => (await load()).resultsGet));

  const schedules = program.command('schedules').description('recurring validations');
  schedulesCreateCommand(schedules).action(run(async () => (await load()).schedulesCreate));
  schedules
    .command('delete')
    .description('delete a schedule')
    .argument('<scheduleId>')
    .action(run(async () => (await load()).schedulesDelete));

  const webhooks = program.command('webhooks').description('receive webhook events locally');
  webhooksListenCommand(webhooks).action(run(async () => (await load()).webhooksListen));
}

/** `svc batch`. */
export function defineBatchCommand(program: Command, run: Runner): void {
  batchCommand(program).action(run(async () => (await import('./commands/batch.js')).batch));
}
