/**
 * Where a formula may start a field: the cell's start, or a separator inside the cell. A
 * spreadsheet set to another delimiter than the file's splits the line at a `,`, `;` or tab (or
 * at a line break, when it does not see the quotes around it) and honours a quote only at a
 * field's start, so quoting the cell does not keep the field after it from being a formula.
 * A formula starts with `=`, `+`, `-`, `@`, tab or carriage return, even behind double quotes
 * (`""=1+1`); a plain negative number (`-12.5`) that ends the cell is a number, not a formula.
 * Matches the empty place where the `'` goes: the start, or right after the separator.
 */
const FORMULA_START = /(?:^|(?<=[,;\t\r\n]))(?="*[=+\-@\t\r])(?!-\d+(?:\.\d+)?$)/g;

/** Whether {@link FORMULA_START} can match at all: most cells have no separator and start plainly. */
const MAYBE_FORMULA = /^["=+\-@\t\r]|[,;\t\r\n]/;

/** A cell given a `'` after a separator inside it: always quoted. */
const PREFIXED_INSIDE = /[,;\t]'/;

/**
 * Neutralises spreadsheet formula injection, whichever of `,`, `;` or tab a spreadsheet splits the
 * line at: a cell starting with `=`, `+`, `-`, `@`, tab or carriage return (behind any double
 * quotes) gets a leading apostrophe, and so does every field a split inside the cell would start
 * with one: the `'` goes right after the `,`, `;`, tab or line break (`x,=1+1` becomes
 * `x,'=1+1`). A spreadsheet then shows text. A plain negative number (`-12.5`) is left alone, as
 * the whole cell or after its last separator.
 */
export function safeCsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return MAYBE_FORMULA.test(text) ? text.replace(FORMULA_START, "'") : text;
}

const NEEDS_QUOTES: Readonly<Record<string, RegExp>> = {
  ',': /[",\r\n]/,
  ';': /[";\r\n]/,
  '\t': /["\t\r\n]/,
};

/**
 * Quotes one CSV field when needed (RFC 4180): it holds a quote, a line break or `delimiter`
 * (default `,`), or a `'` was put after a separator inside it ({@link safeCsvCell}).
 */
export function csvField(value: unknown, delimiter = ','): string {
  const text = safeCsvCell(value);
  const special = NEEDS_QUOTES[delimiter] ?? NEEDS_QUOTES[','];
  return special?.test(text) || text.includes(delimiter) || PREFIXED_INSIDE.test(text)
    ? `"${text.replace(/"/g, '""')}"`
    : text;
}

/** One CSV line with a trailing newline, fields separated by `delimiter` (default `,`). */
export function csvLine(values: readonly unknown[], delimiter = ','): string {
  if (delimiter === ',') return `${values.map((v) => csvField(v)).join(',')}\n`;
  return `${values.map((v) => csvField(v, delimiter)).join(delimiter)}\n`;
}

/** How a CSV text is written: the delimiter and whether it starts with a BOM. */
export interface CsvStyle {
  /** Field delimiter: `,`, `;` or tab. Default `,`. */
  delimiter: string;
  /** Start the text with a UTF-8 byte order mark (Excel then reads it as UTF-8). Default false. */
  bom: boolean;
}

/** The UTF-8 byte order mark (EF BB BF), as the first character of a text. */
export const UTF8_BOM = '\uFEFF';

/** The first line of a CSV text in `style`: the BOM when asked, then the header fields. */
export function csvHeaderLine(values: readonly unknown[], style: CsvStyle): string {
  return (style.bom ? UTF8_BOM : '') + csvLine(values, style.delimiter);
}
