const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises spreadsheet formula injection: a cell starting with `=`, `+`, `-`, `@`, tab or
 * carriage return gets a leading apostrophe, so a spreadsheet shows it as text. Plain negative
 * numbers are left alone.
 */
export function safeCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text) && !/^-\d+(\.\d+)?$/.test(text)) return `'${text}`;
  return text;
}

const NEEDS_QUOTES: Readonly<Record<string, RegExp>> = {
  ',': /[",\r\n]/,
  ';': /[";\r\n]/,
  '\t': /["\t\r\n]/,
};

/** Quotes one CSV field when needed (RFC 4180): it holds a quote, a line break or `delimiter` (default `,`). */
export function csvField(value: unknown, delimiter = ','): string {
  const text = safeCsvCell(value);
  const special = NEEDS_QUOTES[delimiter] ?? NEEDS_QUOTES[','];
  return special?.test(text) || text.includes(delimiter) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with a trailing newline, fields separated by `delimiter` (default `,`). */
export function csvLine(values: readonly unknown[], delimiter = ','): string {
  if (delimiter === ',') return `${values.map((v) => csvField(v)).join(',')}\n`;
  return `${values.map((v) => csvField(v, delimiter)).join(delimiter)}\n`;
}
