import type { OutputFormat } from './output-format.js';
import { UsageError } from './usage-error.js';

/**
 * The output contract: which `-o` formats each command honours, by command path. This is the one
 * table the CLI enforces (a format not listed is refused with exit 2 before anything is sent),
 * and the README's "Output and exit codes" section shows the same table (a test compares them).
 * A command with no formats prints no data in a format (plain text, a script, files, nothing).
 */
export const OUTPUT_CONTRACT: Readonly<Record<string, readonly OutputFormat[]>> = {
  validate: ['table', 'json', 'ndjson', 'csv'],
  precheck: ['table', 'json', 'ndjson', 'csv'],
  batch: ['ndjson', 'csv'],
  'results get': ['table', 'json', 'ndjson', 'csv'],
  'schedules create': ['table', 'json', 'ndjson', 'csv'],
  'schedules delete': ['table', 'json', 'ndjson', 'csv'],
  'webhooks listen': ['ndjson'],
  'audit list': ['table', 'json', 'ndjson', 'csv'],
  'audit export': ['ndjson'],
  'audit tail': ['ndjson'],
  'audit sync': [],
  'audit verify': ['json'],
  'audit gaps': ['json'],
  'audit gaps ack': [],
  'audit copy': [],
  'captcha result': ['table', 'json', 'ndjson', 'csv'],
  'captcha legacy': ['table', 'json', 'ndjson', 'csv'],
  // Without -o: the token alone on stdout, for $(svc captcha token).
  'captcha token': ['json', 'ndjson'],
  'token decode': ['table', 'json', 'ndjson', 'csv'],
  doctor: ['table', 'json', 'ndjson', 'csv'],
  'config set': [],
  'config get': [],
  'config unset': [],
  'config list': ['table', 'json', 'ndjson', 'csv'],
  'config path': [],
  serve: [],
  openapi: ['json'],
  completion: [],
  version: [],
};

/**
 * The columns of the output that hold an id or a token, by table header (`audit list`'s `id`) or
 * by field name in a one-object table (`validationResultId`): a table on a narrow terminal never
 * cuts these, so they can be copied whole (gh keeps its id column whole too); the other columns
 * are cut to make room. The one list: views name their columns, this says which are ids.
 */
export const ID_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'validationResultId',
  'validationRequestId',
  'taxIdentifierId',
  'correlationId',
  'scheduleId',
  'verificationId',
  'token',
]);

/** What a command prints when it has no formats, for the refusal line. */
function noFormatLine(command: string): string {
  return `svc ${command} prints no data in a format and takes no -o/--output`;
}

/** Where the requested format came from: the `-o` flag, or a preference (`SVC_OUTPUT`, the profile). */
export interface FormatRequest {
  /** `-o/--output`, already checked to be a known format. */
  flag?: OutputFormat | undefined;
  /** `SVC_OUTPUT` or the profile's `output`, already checked to be a known format. */
  preference?: OutputFormat | undefined;
  /** Whether stdout is a terminal (the default is then `table`, else `json`). */
  stdoutIsTTY: boolean;
}

/**
 * The format a command prints in. `-o` must name a format the command honours, else a
 * {@link UsageError} (exit 2) naming the accepted ones. A preference from `SVC_OUTPUT` or the
 * profile applies where the command honours it; otherwise, like the default (`table` on a
 * terminal, `json` otherwise), it gives way to the command's first listed format. A command not
 * in the contract (none today) takes any format.
 */
export function resolveOutputFormat(command: string | undefined, request: FormatRequest): OutputFormat {
  const fallback: OutputFormat = request.stdoutIsTTY ? 'table' : 'json';
  const formats = command === undefined ? undefined : OUTPUT_CONTRACT[command];
  if (formats === undefined) return request.flag ?? request.preference ?? fallback;
  if (request.flag !== undefined && !formats.includes(request.flag)) {
    throw new UsageError(
      formats.length === 0
        ? noFormatLine(command as string)
        : `svc ${command} does not print ${request.flag}; -o must be one of ${formats.join(', ')}`,
    );
  }
  if (request.flag !== undefined) return request.flag;
  for (const candidate of [request.preference, fallback]) {
    if (candidate !== undefined && formats.includes(candidate)) return candidate;
  }
  return formats[0] ?? fallback;
}

interface CommandLike {
  name(): string;
  parent: CommandLike | null;
}

const isCommand = (value: unknown): value is CommandLike =>
  typeof value === 'object' && value !== null && typeof (value as CommandLike).name === 'function';

/**
 * The path of a command as the contract names it (`audit list`), from what commander passes to an
 * action last (the command itself); undefined for anything else.
 */
export function commandPath(command: unknown): string | undefined {
  const names: string[] = [];
  for (let at = isCommand(command) ? command : null; at?.parent; at = at.parent) names.unshift(at.name());
  return names.length ? names.join(' ') : undefined;
}
