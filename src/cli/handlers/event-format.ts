import type { AuditEventFormat } from '../../audit/normalise/format.js';
import { UsageError } from '../usage-error.js';

/** How events are written, from `--format` and `--keep-original`. */
export interface EventFormatChoice {
  format: AuditEventFormat;
  keepOriginal: boolean;
}

/**
 * `--format` and `--keep-original` checked: `--keep-original` needs a normalised format, and a
 * normalised format needs an output that holds documents (`documents` false: a table or CSV).
 */
export function eventFormat(
  flags: { format?: AuditEventFormat | undefined; keepOriginal?: true | undefined },
  documents: boolean,
): EventFormatChoice {
  const format = flags.format ?? 'raw';
  const keepOriginal = flags.keepOriginal === true;
  if (keepOriginal && format === 'raw')
    throw new UsageError(
      '--keep-original goes with --format ecs or --format ocsf (raw events are the original)',
    );
  if (format !== 'raw' && !documents)
    throw new UsageError(`--format ${format} writes documents: use -o ndjson or -o json`);
  return { format, keepOriginal };
}
