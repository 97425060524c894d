/**
 * Characters a workbook cell cannot carry through exceljs: the C0 controls but tab, line feed and
 * carriage return, U+FFFE and U+FFFF (XML 1.0 forbids them: the sheet would not parse, so neither
 * `svc batch` nor Excel could open it), DEL (allowed by XML, but exceljs drops it without a word)
 * and UTF-16 surrogates without their pair (not characters; UTF-8 cannot encode them).
 */
const FORBIDDEN =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A first look, to leave the common cell alone: anything to replace, or a carriage return. */
const SUSPECT = /[\x00-\x08\x0B-\x1F\x7F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * The text of the cells of one workbook as it will read back: each character a workbook cannot
 * hold ({@link FORBIDDEN}) becomes U+FFFD, counted per cell in {@link replacedCells}, and each
 * line end (`\r\n` or a lone `\r`) a line feed, as an XML reader gives it back anyway.
 */
export class WorkbookCells {
  /** Cells in which at least one character was replaced with U+FFFD. */
  replacedCells = 0;

  /** `value` as the workbook can hold it. */
  text(value: string): string {
    if (!SUSPECT.test(value)) return value;
    const safe = value.replace(FORBIDDEN, '\uFFFD');
    if (safe !== value) this.replacedCells += 1;
    return safe.replace(/\r\n?/g, '\n');
  }
}
