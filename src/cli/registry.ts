import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CommandModule, RegistryEntry, Runner } from './command.js';
import { auditCopyCommand } from './commands/audit-copy.js';
import { auditExportCommand } from './commands/audit-export.js';
import { auditGapsCommand } from './commands/audit-gaps.js';
import { auditGapsAckCommand } from './commands/audit-gaps-ack.js';
import { auditListCommand } from './commands/audit-list.js';
import { auditReceiveCommand } from './commands/audit-receive.js';
import { auditReportCommand } from './commands/audit-report.js';
import { auditSearchCommand } from './commands/audit-search.js';
import { auditShipCommand } from './commands/audit-ship.js';
import { auditSyncCommand } from './commands/audit-sync.js';
import { auditTailCommand } from './commands/audit-tail.js';
import { auditVerifyCommand } from './commands/audit-verify.js';
import { batchCommand } from './commands/batch.js';
import { captchaLegacyCommand } from './commands/captcha-legacy.js';
import { captchaResultCommand } from './commands/captcha-result.js';
import { captchaTokenCommand } from './commands/captcha-token.js';
import { completionCommand } from './commands/completion.js';
import {
  configGetCommand,
  configGroup,
  configListCommand,
  configPathCommand,
  configSetCommand,
  configUnsetCommand,
} from './commands/config.js';
import { doctorCommand } from './commands/doctor.js';
import {
  auditGroup,
  captchaGroup,
  resultsGroup,
  schedulesGroup,
  tokenGroup,
  webhooksGroup,
} from './commands/groups.js';
import { openApiCommand } from './commands/openapi.js';
import { precheckCommand } from './commands/precheck.js';
import { resultsGetCommand } from './commands/results-get.js';
import { schedulesCreateCommand } from './commands/schedules-create.js';
import { schedulesDeleteCommand } from './commands/schedules-delete.js';
import { serveCommand } from './commands/serve.js';
import { tokenDecodeCommand } from './commands/token-decode.js';
import { validateCommand } from './commands/validate.js';
import { versionCommand } from './commands/version.js';
import { webhooksListenCommand } from './commands/webhooks-listen.js';
import { addCsvOptions } from './csv-options.js';
import { chooseOutputFormat, type FormatRequest } from './output-contract.js';
import type { OutputFormat } from './output-format.js';

/**
 * Every command of `svc`, in the order `svc --help` lists them: the command modules (command.ts),
 * each group before its commands (a command may be a group too: `audit gaps`).
 */
export const COMMANDS: readonly RegistryEntry[] = [
  validateCommand,
  precheckCommand,
  resultsGroup,
  resultsGetCommand,
  schedulesGroup,
  schedulesCreateCommand,
  schedulesDeleteCommand,
  webhooksGroup,
  webhooksListenCommand,
  batchCommand,
  auditGroup,
  auditListCommand,
  auditExportCommand,
  auditTailCommand,
  auditSyncCommand,
  auditVerifyCommand,
  auditGapsCommand,
  auditGapsAckCommand,
  auditCopyCommand,
  auditSearchCommand,
  auditReportCommand,
  auditShipCommand,
  auditReceiveCommand,
  captchaGroup,
  captchaResultCommand,
  captchaLegacyCommand,
  captchaTokenCommand,
  tokenGroup,
  tokenDecodeCommand,
  configGroup,
  configSetCommand,
  configGetCommand,
  configUnsetCommand,
  configListCommand,
  configPathCommand,
  serveCommand,
  openApiCommand,
  completionCommand,
  doctorCommand,
  versionCommand,
];

const modules = COMMANDS.filter((entry): entry is CommandModule => entry.kind === 'command');

/**
 * The output contract: which `-o` formats each command honours, by command path. This is the one
 * table the CLI enforces (a format not listed is refused with exit 2 before anything is sent),
 * and docs/configuration.md shows the same table (a test compares them). A command with no
 * formats prints no data in a format (plain text, a script, files, nothing).
 */
export const OUTPUT_CONTRACT: Readonly<Record<string, readonly OutputFormat[]>> = {
  ...Object.fromEntries(modules.map((m) => [m.path, m.outputs])),
};

/**
 * The format `command` (a path of {@link OUTPUT_CONTRACT}) prints in, as a run picks it
 * (output-contract.ts); a command not in the contract takes any format.
 */
export function resolveOutputFormat(command: string | undefined, request: FormatRequest): OutputFormat {
  return chooseOutputFormat(command, command === undefined ? undefined : OUTPUT_CONTRACT[command], request);
}

/**
 * Examples shown at the end of each command's help, by command path (`''` is `svc` itself), as
 * `gh` does. Two or three per command; a group without its own entry shows the first example of
 * each of its subcommands (help-examples.ts).
 */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'svc --sandbox validate DE 136695976',
    'svc config set api-key            # reads the key from stdin',
    'svc audit export --from 2026-01-01 --out events.ndjson',
  ],
  ...Object.fromEntries(modules.map((m) => [m.path, m.examples])),
  help: ['svc help audit export', 'svc help batch', 'svc help reference > cli.md'],
};

/** The command at `path` below `program`, as registered so far (a group before its commands). */
function commandAt(program: CommandUnknownOpts, path: string): CommandUnknownOpts {
  let at = program;
  for (const name of path.split(' ').filter(Boolean)) {
    const next = at.commands.find((c) => c.name() === name);
    if (!next) throw new Error(`registry: '${path}' comes before its group`);
    at = next;
  }
  return at;
}

/** Registers one entry under its parent path: a group as a bare command, a module with its action. */
function register(program: Command, entry: RegistryEntry, run: Runner): void {
  const cut = entry.path.lastIndexOf(' ');
  const parent = commandAt(program, entry.path.slice(0, Math.max(cut, 0))) as Command;
  const command = parent.command(entry.path.slice(cut + 1)).description(entry.summary);
  if (entry.kind === 'group') return;
  const configured = entry.configure ? entry.configure(command) : command;
  configured.action(run(entry.load as () => Promise<never>));
}

/**
 * Registers every command in {@link COMMANDS} order under `program`; `run` ties each handler
 * loader to the run (action.ts), so this module loads no handler. Then `--bom` and `--delimiter`
 * go to the commands with CSV output.
 */
export function registerCommands(program: Command, run: Runner): void {
  for (const entry of COMMANDS) register(program, entry, run);
  addCsvOptions(program, OUTPUT_CONTRACT);
}
