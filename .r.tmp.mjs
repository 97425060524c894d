// src/core/errors/svc-error.ts
var SvcError = class extends Error {
  name = "SvcError";
  /** Stable machine-readable code, e.g. `http_404`, `connection`, `timeout`, `local_validation`. */
  code;
  constructor(message, code, options) {
    super(message, options);
    this.code = code;
  }
};

// src/tax/batch-file/errors.ts
var BatchInputError = class extends SvcError {
  name = "BatchInputError";
  constructor(message, options) {
    super(message, "config", options);
  }
};

// src/tax/batch-file/input-table.ts
function isBlank(cells) {
  for (const cell of cells) if (cell !== "") return false;
  return true;
}

// src/tax/batch-file/zip-limits.ts
import { open } from "node:fs/promises";
var WORKBOOK_LIMITS = {
  /** Sum of the declared unpacked sizes of all entries: 2 GiB. */
  totalBytes: 2 * 1024 ** 3,
  /** The shared strings table, held in memory while the sheet is read: 256 MiB. */
  sharedStringsBytes: 256 * 1024 ** 2,
  /** Unpacked size per packed byte above which a large entry is a zip bomb: 200 (XML packs 10-30x). */
  ratio: 200,
  /** Entries in the archive. */
  entries: 1e4
};
var EOCD = 101010256;
var CENTRAL = 33639248;
async function centralDirectory(path, label) {
  const notWorkbook = () => new BatchInputError(`${label} is not an Excel workbook (.xlsx): not a zip archive`);
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        end = i;
        break;
      }
    }
    if (end === -1) throw notWorkbook();
    const count = tail.readUInt16LE(end + 10);
    const dirSize = tail.readUInt32LE(end + 12);
    const dirOffset = tail.readUInt32LE(end + 16);
    if (count === 65535 || dirOffset === 4294967295)
      throw new BatchInputError(`${label} is a ZIP64 archive: too large for a customer list`);
    if (count > WORKBOOK_LIMITS.entries)
      throw new BatchInputError(`${label} has ${count} zip entries: too many`);
    if (dirOffset + dirSize > size) throw notWorkbook();
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    const entries = [];
    let at = 0;
    for (let n2 = 0; n2 < count; n2++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw notWorkbook();
      const nameLength = dir.readUInt16LE(at + 28);
      const extra = dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
      entries.push({
        name: dir.toString("utf8", at + 46, at + 46 + nameLength),
        packed: dir.readUInt32LE(at + 20),
        unpacked: dir.readUInt32LE(at + 24)
      });
      at += 46 + nameLength + extra;
    }
    return entries;
  } finally {
    await handle.close();
  }
}
async function checkWorkbookArchive(path, label) {
  const entries = await centralDirectory(path, label);
  const mb = (n2) => `${Math.round(n2 / 1024 ** 2)} MB`;
  let total = 0;
  for (const entry of entries) {
    total += entry.unpacked;
    if (entry.unpacked === 4294967295 || total > WORKBOOK_LIMITS.totalBytes)
      throw new BatchInputError(
        `${label} unpacks to more than ${mb(WORKBOOK_LIMITS.totalBytes)}: save it as CSV`
      );
    if (/^xl\/sharedStrings\.xml$/i.test(entry.name) && entry.unpacked > WORKBOOK_LIMITS.sharedStringsBytes)
      throw new BatchInputError(
        `${label} has a shared strings table of ${mb(entry.unpacked)} (limit ${mb(WORKBOOK_LIMITS.sharedStringsBytes)}): save it as CSV`
      );
    if (entry.unpacked > 1024 ** 2 && entry.unpacked > entry.packed * WORKBOOK_LIMITS.ratio)
      throw new BatchInputError(
        `${label} looks like a zip bomb: ${entry.name} unpacks ${Math.round(entry.unpacked / Math.max(entry.packed, 1))} times its size`
      );
  }
  if (!entries.some((e) => /^xl\/workbook\.xml$/i.test(e.name)))
    throw new BatchInputError(`${label} is a zip archive but not an Excel workbook (.xlsx)`);
}

// src/tax/batch-file/workbook-input.ts
var MAX_ROWS = 1048576;
var MAX_CELL = 32767;
function numberText(value) {
  if (!Number.isFinite(value)) return "";
  const rounded = Number(value.toPrecision(15));
  return Number.isInteger(rounded) && Math.abs(rounded) < 1e21 ? rounded.toFixed(0) : String(rounded);
}
function dateText(date) {
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
function cellText(value) {
  if (value === null || value === void 0) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value);
  if (typeof value === "object") {
    const v = value;
    if (Array.isArray(v.richText))
      return v.richText.map((run) => String(run.text ?? "")).join("");
    if ("formula" in v || "sharedFormula" in v) return cellText(v.result);
    if ("error" in v) return String(v.error);
    if ("text" in v) return cellText(v.text);
  }
  return "";
}
function rowCells(values, width) {
  const list = Array.isArray(values) ? values : [];
  const n2 = width ?? Math.max(list.length - 1, 0);
  const cells = [];
  for (let i = 1; i <= n2; i++) {
    const text = cellText(list[i]);
    if (text.length > MAX_CELL) throw new BatchInputError(`a cell holds more than ${MAX_CELL} characters`);
    cells.push(text);
  }
  return cells;
}
async function workbookReader(path) {
  const { default: ExcelJS } = await import("exceljs");
  return new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: "emit",
    sharedStrings: "cache",
    // Styles tell a date from a number.
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore"
  });
}
async function openWorkbook(path, label, sheet) {
  await checkWorkbookArchive(path, label);
  const reader = await workbookReader(path);
  const names = [];
  const fail = (error) => {
    if (error instanceof BatchInputError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new BatchInputError(
      `${label} cannot be read as an Excel workbook: ${message.replace(/\s+/g, " ").slice(0, 200)}`
    );
  };
  const sheets = reader[Symbol.asyncIterator]();
  let chosen;
  try {
    for (; ; ) {
      const next = await sheets.next();
      if (next.done) break;
      const name = next.value.name ?? `Sheet${names.length + 1}`;
      names.push(name);
      if (sheet === void 0 || name === sheet || name.toLowerCase() === sheet.toLowerCase()) {
        chosen = next.value;
        break;
      }
    }
  } catch (error) {
    fail(error);
  }
  if (!chosen) {
    if (sheet === void 0) throw new BatchInputError(`${label} has no sheet`);
    throw new BatchInputError(
      `${label} has no sheet '${sheet}'; sheets: ${names.map((n2) => `'${n2}'`).join(", ") || "none"}`
    );
  }
  const sheetName = chosen.name ?? names[names.length - 1] ?? "the sheet";
  const rowIterator = chosen[Symbol.asyncIterator]();
  const close = async () => {
    await rowIterator.return?.().catch(() => {
    });
    await sheets.return?.(void 0).catch(() => {
    });
  };
  const nextRow = async () => {
    const next = await rowIterator.next().catch(fail);
    if (!next.done && !(next.value.number >= 1 && next.value.number <= MAX_ROWS))
      throw new BatchInputError(`${label}: sheet '${sheetName}' has a row numbered beyond ${MAX_ROWS}`);
    return next;
  };
  let header;
  let headerLine = 0;
  try {
    for (; ; ) {
      const next = await nextRow();
      if (next.done) break;
      const cells = rowCells(next.value.values);
      if (isBlank(cells)) continue;
      while (cells.length > 0 && cells[cells.length - 1] === "") cells.pop();
      header = cells;
      headerLine = next.value.number;
      break;
    }
  } catch (error) {
    await close();
    fail(error);
  }
  if (!header) {
    await close();
    throw new BatchInputError(`sheet '${sheetName}' of ${label} is empty: a header row is required`);
  }
  const width = header.length;
  let last = headerLine;
  const rows = {
    next: async () => {
      for (; ; ) {
        const next = await nextRow();
        if (next.done) return { done: true, value: void 0 };
        const line = next.value.number > last ? next.value.number : last + 1;
        last = line;
        const cells = rowCells(next.value.values, width);
        if (!isBlank(cells)) return { done: false, value: { cells, line } };
      }
    },
    return: async () => {
      await close();
      return { done: true, value: void 0 };
    }
  };
  return { header, rows: { [Symbol.asyncIterator]: () => rows }, dialect: void 0 };
}

// .r.tmp.ts
var t = await openWorkbook("/tmp/b22b/kunden-100k.xlsx", "k.xlsx");
var n = 0;
var peak = 0;
for await (const r of t.rows) {
  n++;
  if (n % 1e4 === 0) {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    console.log(n, "rss", (m.rss / 1e6).toFixed(0), "heap", (m.heapUsed / 1e6).toFixed(0), "ext", (m.external / 1e6).toFixed(0), "ab", (m.arrayBuffers / 1e6).toFixed(0));
  }
}
console.log("rows", n);
