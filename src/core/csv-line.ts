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

/** Quotes one CSV field when needed (RFC 4180). */
export function csvField(value: unknown): string {
  const text = safeCsvCell(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with a trailing newline. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\n`;
}
