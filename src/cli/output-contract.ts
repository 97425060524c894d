import type { OutputFormat } from './output-format.js';
import { UsageError } from './usage-error.js';

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
 * The format a command prints in, given the formats it honours (`formats`, its row of the
 * registry's output contract). `-o` must name one of them, else a
 * {@link UsageError} (exit 2) naming the accepted ones. A preference from `SVC_OUTPUT` or the
 * profile applies where the command honours it; otherwise, like the default (`table` on a
 * terminal, `json` otherwise), it gives way to the command's first listed format. Without
 * `formats` (a command not in the contract, none today) any format is taken.
 */
export function chooseOutputFormat(
  command: string | undefined,
  formats: readonly OutputFormat[] | undefined,
  request: FormatRequest,
): OutputFormat {
  const fallback: OutputFormat = request.stdoutIsTTY ? 'table' : 'json';
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
