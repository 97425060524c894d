import { isReportName, REPORT_NAMES, reportBuilder } from '../../audit/reports/catalogue.js';
import { reportPage } from '../../audit/reports/html.js';
import { openOutput, writeFailure } from '../../node/fs/output-file.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditReportOptions } from '../options/audit-report-options.js';
import { UsageError } from '../usage-error.js';
import { auditEventSource, sayFooter } from './audit-event-source.js';
import { parseQuery } from './audit-search.js';

/** Writes a page to `path` as every output file is written: never through a link, 0600, no overwrite without `--force`. */
async function writePage(path: string, page: string, force: boolean): Promise<void> {
  const { handle } = await openOutput(path, { force });
  try {
    await handle.writeFile(page, 'utf8');
    await handle.sync();
  } catch (error) {
    throw writeFailure(path, error);
  } finally {
    await handle.close();
  }
}

/**
 * `svc audit report NAME [QUERY...]`: a ready-made report over the events of an archive
 * (`--dir`) or of the API's range that match the query, printed as a table, CSV or JSON
 * (`{report, footer}`), or with `--html FILE` written as one page; then what was read (stderr).
 * Exit 0 when the report was made, 1 when the archive was changed or cannot be read, 2 for a
 * name, query or option that cannot be read.
 */
export async function auditReport(
  ctx: CommandContext,
  name: string,
  words: string[],
  flags: AuditReportOptions,
): Promise<number> {
  if (!isReportName(name))
    throw new UsageError(`no report '${name}': the reports are ${REPORT_NAMES.join(', ')}`);
  const subject = name === 'timeline' ? words[0] : undefined;
  const rest = name === 'timeline' ? words.slice(1) : words;
  if (name === 'timeline' && !subject)
    throw new UsageError('timeline needs the subject: its id or label, e.g. svc audit report timeline demo');
  const builder = reportBuilder(name, subject);
  const source = await auditEventSource(ctx, flags, parseQuery(rest));
  for await (const { event } of source.matches) builder.add(event);
  const report = builder.result();
  const footer = source.footer();
  if (flags.html !== undefined) {
    await writePage(flags.html, reportPage(report, footer, new Date().toISOString()), flags.force === true);
    ctx.out.info(`wrote ${flags.html}: ${report.rows.length} rows, ${report.events} events counted`);
  } else if (ctx.settings.format === 'json') {
    await ctx.out.print({ report, footer: footer.json }, () => ({ head: report.columns, rows: report.rows }));
  } else {
    await ctx.out.print(report.rows, () => ({ head: report.columns, rows: report.rows }));
  }
  if (ctx.settings.format !== 'json' || flags.html !== undefined) sayFooter(ctx, footer);
  return EXIT.OK;
}
