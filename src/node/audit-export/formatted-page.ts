import { type AuditEventFormat, formatEvent } from '../../audit/normalise/format.js';
import type { AuditEvent } from '../../audit/schemas.js';
import type { LineBuffer } from './ndjson-page.js';
import type { ExportEvent, RawExportPage } from './pages.js';

// A page's kept events normalised (ECS or OCSF), one document per line: what `--format ecs|ocsf`
// exports instead of the lines as received.

/** The page's kept events as NDJSON lines of `format`, gathered in `lines` (a view valid until its next use). */
export function formattedPageLines(
  page: RawExportPage,
  dropped: Set<number> | undefined,
  lines: LineBuffer,
  format: Exclude<AuditEventFormat, 'raw'>,
  keepOriginal: boolean,
): Uint8Array {
  lines.clear();
  const decoder = new TextDecoder();
  for (let k = 0; k < page.content.length; k++) {
    if (dropped?.has(k)) continue;
    const event = page.content[k] as ExportEvent;
    const text =
      'text' in event
        ? event.text
        : decoder.decode((page.bytes as Uint8Array).subarray(event.start, event.end));
    const parsed = JSON.parse(text) as AuditEvent;
    lines.push(JSON.stringify(formatEvent(format, parsed, { keepOriginal, line: text })));
  }
  return lines.view();
}
