import { formatEvent } from '../../audit/normalise/format.js';
import type { AuditEvent } from '../../audit/schemas.js';
import { EVENT_COLUMNS, EVENT_TABLE_COLUMNS, eventRow, eventTableRow } from '../../audit/search/columns.js';
import { type AuditQuery, parseAuditQuery } from '../../audit/search/query.js';
import { type CsvStyle, csvHeaderLine, csvLine } from '../../core/csv-line.js';
import { SvcError } from '../../core/errors/error-classes.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditSearchOptions } from '../options/audit-search-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { auditEventSource, sayFooter } from './audit-event-source.js';
import { type EventFormatChoice, eventFormat } from './event-format.js';

const NEWLINE = Buffer.from('\n');

/** Rows a table shows at most: past them, the rest is counted and the line says how to see it. */
const MAX_TABLE_ROWS = 1000;

/**
 * The query from the command line's words: one word a term, as the shell left it; a term whose
 * value holds a space (the shell took its quotes) is quoted again, so `subject:"Demo project"`
 * typed without outer quotes still reads as one term.
 */
export function queryText(words: readonly string[]): string {
  return words
    .map((word) => {
      const term = /^(-?[A-Za-z][\w.]*:)(.*\s.*)$/.exec(word);
      return term && !term[2]?.includes('"') ? `${term[1]}"${term[2]}"` : word;
    })
    .join(' ');
}

/** The query parsed; a query that cannot be read is a usage error (exit 2) in its own words. */
export function parseQuery(words: readonly string[]): AuditQuery {
  const flag = words.find((word) => word.startsWith('--') || /^-[a-zA-Z]$/.test(word));
  if (flag) throw new UsageError(`unknown option '${flag}' (a negated term is -qualifier:value)`);
  try {
    return parseAuditQuery(queryText(words));
  } catch (error) {
    if (error instanceof SvcError && error.code === 'query') throw new UsageError(error.message);
    throw error;
  }
}

/** Where matches go, as they come: each format streams, the table up to {@link MAX_TABLE_ROWS} rows. */
interface MatchWriter {
  /** Writes one match; its `event` is read only by formats that need it (an archive's match parses its line when read). */
  write(match: { readonly event: AuditEvent; readonly line?: Buffer | undefined }): Promise<void>;
  /** Ends the output; `footer` goes into JSON (other formats say it on stderr). */
  end(footer: object): Promise<void>;
}

type EventJson = (event: AuditEvent, line: Buffer | undefined) => string;

function matchWriter(ctx: CommandContext, csv: CsvStyle | undefined, shape: EventFormatChoice): MatchWriter {
  const { out } = ctx;
  const format = ctx.settings.format;
  // An event as JSON text: itself, or its ECS or OCSF document.
  const json: EventJson = (event, line) =>
    jsonForTerminal(
      shape.format === 'raw'
        ? event
        : formatEvent(shape.format, event, {
            keepOriginal: shape.keepOriginal,
            ...(line && { line: line.toString('utf8') }),
          }),
    );
  // The archived line byte for byte; on a terminal escaped like any JSON shown there.
  if (format === 'ndjson') return ndjsonWriter(out, json, !ctx.io.stdoutIsTTY && shape.format === 'raw');
  if (format === 'json') return jsonWriter(out, json);
  if (format === 'csv') return csvWriter(out, csv ?? { delimiter: ',', bom: false });
  return tableWriter(out);
}

/**
 * NDJSON: with `raw`, each archived line as its bytes (never a string, never parsed); else the
 * event's JSON. Lines gathered into writes of about 64 KiB: a write per line costs more than the
 * search.
 */
function ndjsonWriter(out: CommandContext['out'], json: EventJson, raw: boolean): MatchWriter {
  let gathered: Buffer[] = [];
  let size = 0;
  const flush = async () => {
    if (gathered.length === 0) return;
    const bytes = Buffer.concat(gathered, size);
    gathered = [];
    size = 0;
    await out.bytes(bytes);
  };
  return {
    write: async (match) => {
      const { line } = match;
      if (raw && line) {
        gathered.push(line, NEWLINE);
        size += line.length + 1;
      } else {
        const text = Buffer.from(`${json(match.event, line)}\n`, 'utf8');
        gathered.push(text);
        size += text.length;
      }
      if (size >= 64 * 1024) await flush();
    },
    end: flush,
  };
}

/** JSON: `{"events": [...], "footer": {...}}`, written as the matches come. */
function jsonWriter(out: CommandContext['out'], json: EventJson): MatchWriter {
  let first = true;
  return {
    write: ({ event, line }) => {
      const text = `${first ? '{"events":[\n' : ',\n'}${json(event, line)}`;
      first = false;
      return out.data(text);
    },
    end: (footer) => out.data(`${first ? '{"events":[' : '\n'}],\n"footer":${jsonForTerminal(footer, 2)}}\n`),
  };
}

/** CSV: the event columns, formula-safe; the header is written even when nothing matched. */
function csvWriter(out: CommandContext['out'], style: CsvStyle): MatchWriter {
  let started = false;
  const header = () => {
    if (started) return '';
    started = true;
    return csvHeaderLine([...EVENT_COLUMNS], style);
  };
  return {
    write: ({ event }) => out.data(header() + csvLine(eventRow(event), style.delimiter)),
    end: async () => {
      if (!started) await out.data(header());
    },
  };
}

/** A table of the first {@link MAX_TABLE_ROWS} matches, and how many more there were. */
function tableWriter(out: CommandContext['out']): MatchWriter {
  const rows: string[][] = [];
  let more = 0;
  return {
    write: async (match) => {
      if (rows.length < MAX_TABLE_ROWS) rows.push(eventTableRow(match.event));
      else more += 1;
    },
    end: async () => {
      await out.print(rows, () => ({ head: [...EVENT_TABLE_COLUMNS], rows }));
      if (more > 0) out.info(`${more} more matches not shown: use -o ndjson, -o csv or --limit`);
    },
  };
}

/**
 * `svc audit search [QUERY...]`: the matching events of an archive (`--dir`) or of the API's
 * range, streamed in the chosen format, then what was read (stderr; a `footer` field in JSON).
 * Exit 0 when the search ran (a range that is not whole is said, not failed), 1 when the archive
 * was changed or cannot be read, 2 for a query or option that cannot be read.
 */
export async function auditSearch(
  ctx: CommandContext,
  words: string[],
  flags: AuditSearchOptions,
): Promise<number> {
  const query = parseQuery(words);
  const limit =
    flags.limit === undefined ? Number.POSITIVE_INFINITY : parseIntOption(flags.limit, '--limit', 1);
  const format = ctx.settings.format;
  const shape = eventFormat(flags, format === 'ndjson' || format === 'json');
  const writer = matchWriter(ctx, ctx.out.csv, shape);
  const source = await auditEventSource(ctx, flags, query);
  let matched = 0;
  for await (const match of source.matches) {
    await writer.write(match);
    if (++matched >= limit) break;
  }
  const footer = source.footer();
  await writer.end(footer.json);
  if (ctx.settings.format !== 'json') sayFooter(ctx, footer);
  return EXIT.OK;
}
