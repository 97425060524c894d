import type { AuditReport, ReportCell } from './report.js';

// A report as one self-contained page to send to someone: no script, no network asset (a
// Content-Security-Policy that allows none), readable offline and printable; a per-day chart as
// inline SVG, the report's table, and what was read. Every string from an event is escaped.

/** What the page says was read, under the table (the footer of the search that fed the report). */
export interface PageFooter {
  /** One line each, shown as they are (escaped). */
  lines: string[];
  /** False: the page says, at the top too, that the range is not whole. */
  whole: boolean;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);
}

const cell = (value: ReportCell) => escapeHtml(String(value));

const CHART = { width: 720, height: 160, top: 10, bottom: 24 };

/** The per-day chart: one bar per day of `perDay`, its height the day's events, each with its day and count as a title. */
export function dayChart(perDay: AuditReport['perDay']): string {
  const max = Math.max(1, ...perDay.map((d) => d.events));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const step = CHART.width / Math.max(1, perDay.length);
  const barWidth = Math.max(1, step * 0.8);
  // Labels for at most about 12 days, evenly spaced, the first and last always.
  const every = Math.max(1, Math.ceil(perDay.length / 12));
  const bars = perDay.map((d, i) => {
    const h = Math.max(d.events > 0 ? 1 : 0, Math.round((d.events / max) * plot));
    const x = (i * step + (step - barWidth) / 2).toFixed(1);
    const y = CHART.top + plot - h;
    const label =
      i % every === 0 || i === perDay.length - 1
        ? `<text x="${(i * step + step / 2).toFixed(1)}" y="${CHART.height - 8}" text-anchor="middle">${escapeHtml(d.day.slice(5))}</text>`
        : '';
    return `<rect class="bar" x="${x}" y="${y}" width="${barWidth.toFixed(1)}" height="${h}" data-day="${escapeHtml(d.day)}" data-events="${d.events}"><title>${escapeHtml(d.day)}: ${d.events} events</title></rect>${label}`;
  });
  return `<svg class="chart" role="img" aria-label="events per day" viewBox="0 0 ${CHART.width} ${CHART.height}"><text x="0" y="${CHART.top}" class="max">${max}</text>${bars.join('')}</svg>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#111}h1{font-size:1.4em}
.warn{background:#fff3cd;border:1px solid #e0c36c;padding:.5em}.chart{display:block;width:100%;max-width:960px;height:auto;border-bottom:1px solid #999}
.bar{fill:#3b6ea5}.chart text{font-size:10px;fill:#555}table{border-collapse:collapse;margin-top:1em;width:100%}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top;word-break:break-word}th{background:#eee}
footer{margin-top:1em;color:#333;font-size:12px}@media print{body{margin:0}.bar{fill:#000}th{background:none}}`;

/**
 * The page of a report: its title, a warning when the range is not whole, the per-day chart,
 * the table (every row) and the footer's lines. `generatedAt` is printed as given.
 */
export function reportPage(report: AuditReport, footer: PageFooter, generatedAt: string): string {
  const head = report.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const rows = report.rows
    .map((row) => `<tr>${row.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`)
    .join('\n');
  const warning = footer.whole
    ? ''
    : `<p class="warn">The range read is not whole: see the end of the page. Counts may be short.</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(report.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
<p>${report.events} events counted, ${report.rows.length} rows; made ${escapeHtml(generatedAt)}.</p>
${warning}
${dayChart(report.perDay)}
<table>
<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<footer>${footer.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</footer>
</body>
</html>
`;
}
