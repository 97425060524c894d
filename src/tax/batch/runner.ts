import { AbortError, ApiError, SvcError, UnprocessableEntityError } from '../../core/errors/error-classes.js';
import { compiledSchema, loadSchemaCompiler } from '../../core/schema-compiler.js';
import { precheckDecision } from '../precheck-mode.js';
import { type ValidationRequest, ValidationRequestSchema } from '../request-schemas.js';
import { BatchStoppedError } from './batch-stopped-error.js';
import { idempotencyKeys, rowKeyText } from './keys.js';
import { pacedSender } from './paced-sender.js';
import { schemaReason } from './row-reason.js';
import {
  type BatchRowResult,
  type BatchSender,
  isRowReject,
  type RunBatchOptions,
  resultDetails,
  type SentRowResult,
} from './types.js';

/** A row that passed the local checks, with the exact request to send. */
export interface Pending {
  row: number;
  request: ValidationRequest & { idempotencyKey: string };
}

/**
 * A row that passed the local checks, its request complete but for the idempotency key when the
 * row brought none: `keyText` is then what the key hashes ({@link keyRows} derives it, a chunk of
 * rows at a time).
 */
export interface Checked {
  row: number;
  request: ValidationRequest;
  /** Undefined once keyed, and for a row that brought its own key. */
  keyText?: string | undefined;
}

type Slot = BatchRowResult | Pending;
/** A row as checked: a result (rejected), or a request to send, keyed or not yet. */
export type CheckedSlot = BatchRowResult | Checked;

/** The check of each row: the request schema, compiled where the platform gives zod's compiler. */
const RowRequestSchema = compiledSchema(ValidationRequestSchema);

function errorCode(error: unknown): string {
  if (error instanceof ApiError) return `HTTP_${error.status}`;
  if (error instanceof SvcError) return error.code.toUpperCase();
  return 'ERROR';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Indexes named by a 422 problem body (`errors[].path` = `items.N...`), when it names any. */
function failingIndexes(error: UnprocessableEntityError): Map<number, string> {
  const out = new Map<number, string>();
  const errors = (error.body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return out;
  for (const e of errors) {
    const match = /^items\.(\d+)(?:\.(.*))?$/.exec(String((e as { path?: unknown }).path ?? ''));
    if (!match) continue;
    const index = Number(match[1]);
    const message = `${match[2] ? `${match[2]}: ` : ''}${String((e as { message?: unknown }).message ?? 'invalid')}`;
    out.set(index, out.has(index) ? `${out.get(index)}; ${message}` : message);
  }
  return out;
}

/**
 * Checks one input row locally; a result when it is rejected, the request otherwise (to be keyed
 * with {@link keyRows}). The same row, options and run id always give the same request and key
 * (reconciliation resends it).
 */
export function checkRow(row: number, input: unknown, options: RunBatchOptions, runId: string): CheckedSlot {
  if (isRowReject(input)) return { row, status: 'rejected', ...input.rowReject };
  const parsed = RowRequestSchema().safeParse(input);
  if (!parsed.success) {
    return {
      row,
      status: 'rejected',
      code: 'SCHEMA',
      message: schemaReason(parsed.error, options.fieldName),
    };
  }
  const decision = precheckDecision(
    parsed.data.countryCode,
    parsed.data.rawValue,
    options.precheck ?? 'structural',
  );
  if (decision.code !== undefined) {
    const field = options.fieldName?.('rawValue') ?? 'rawValue';
    return { row, status: 'rejected', code: decision.code, message: `${field} ${decision.message}` };
  }
  // The key hashes the row as it came in (before the pre-check's canonical rawValue): taken now.
  const keyText = parsed.data.idempotencyKey === undefined ? rowKeyText(runId, row, parsed.data) : undefined;
  // The parsed object is zod's own copy: completed in place (same keys, same order as a spread).
  const request = parsed.data;
  request.rawValue = decision.rawValue;
  // One shape for every checked row (keyText undefined when it brought its own key).
  return { row, request, keyText };
}

/**
 * The rows with their idempotency keys: those checked without one get theirs, all digests of the
 * slots at once (Web Crypto's digest is asynchronous). Completes the requests in place (the key
 * last, as a spread would add it) and returns the same slots.
 */
export async function keyRows(slots: readonly CheckedSlot[]): Promise<Slot[]> {
  const unkeyed: Checked[] = [];
  for (const slot of slots) if ('request' in slot && slot.keyText !== undefined) unkeyed.push(slot);
  if (unkeyed.length > 0) {
    const keys = await idempotencyKeys(unkeyed.map((slot) => slot.keyText as string));
    for (let i = 0; i < unkeyed.length; i++) {
      const slot = unkeyed[i] as Checked;
      slot.request.idempotencyKey = keys[i];
      slot.keyText = undefined;
    }
  }
  return slots as Slot[];
}

/**
 * Sends a chunk with `POST /validations/batch`. A 422 for the whole chunk (the server is stricter
 * than the local check) is narrowed down: rows the problem names are rejected and the rest resent;
 * when it names none, the chunk is bisected until the offending rows are isolated.
 */
async function sendChunk(
  tax: BatchSender,
  items: Pending[],
  options: RunBatchOptions,
): Promise<SentRowResult[]> {
  try {
    const accepted = await tax._submitBatch(
      items.map((i) => i.request),
      options,
    );
    // Entries come in input order; the map is built only for an answer that reorders them.
    let byIndex: Map<number, (typeof accepted.items)[number]> | undefined;
    const entryAt = (index: number) => {
      const inOrder = accepted.items[index];
      if (inOrder?.index === index) return inOrder;
      byIndex ??= new Map(accepted.items.map((e) => [e.index, e]));
      return byIndex.get(index) ?? inOrder;
    };
    return items.map((item, index) => {
      const entry = entryAt(index);
      const result: BatchRowResult = {
        row: item.row,
        status: 'submitted',
        validationRequestId: entry?.validationRequestId,
        idempotencyKey: item.request.idempotencyKey,
      };
      if (entry?.validationResultId)
        Object.defineProperty(result, 'knownResultId', { value: entry.validationResultId });
      return result;
    });
  } catch (error) {
    if (!(error instanceof UnprocessableEntityError)) throw error;
    const named = failingIndexes(error);
    if (items.length === 1) {
      const item = items[0] as Pending;
      const message = named.get(0) ?? error.detail ?? error.message;
      return [{ row: item.row, status: 'rejected', code: 'SERVER_422', message: oneLine(message) }];
    }
    if (named.size > 0 && named.size < items.length) {
      const rejected = new Map<number, BatchRowResult>();
      items.forEach((item, index) => {
        const message = named.get(index);
        if (message !== undefined)
          rejected.set(item.row, {
            row: item.row,
            status: 'rejected',
            code: 'SERVER_422',
            message: oneLine(message),
          });
      });
      const rest = await sendChunk(
        tax,
        items.filter((_, index) => !named.has(index)),
        options,
      );
      return [...rest, ...rejected.values()].sort((a, b) => a.row - b.row);
    }
    const middle = Math.ceil(items.length / 2);
    const left = await sendChunk(tax, items.slice(0, middle), options);
    const right = await sendChunk(tax, items.slice(middle), options);
    return [...left, ...right];
  }
}

async function sendSingle(
  tax: BatchSender,
  item: Pending,
  options: RunBatchOptions,
): Promise<BatchRowResult[]> {
  try {
    const outcome = await tax.validate(item.request, { ...options, precheck: 'off' });
    if (outcome.kind === 'pending') {
      return [
        {
          row: item.row,
          status: 'submitted',
          validationRequestId: outcome.pending.validationRequestId,
          idempotencyKey: item.request.idempotencyKey,
        },
      ];
    }
    const r = outcome.result;
    return [
      {
        row: item.row,
        status: 'completed',
        validationRequestId: r.validationRequestId,
        validationResultId: r.validationResultId,
        outcome: r.outcome,
        provider: r.provider ?? null,
        ...resultDetails(r),
        idempotencyKey: item.request.idempotencyKey,
      },
    ];
  } catch (error) {
    if (error instanceof UnprocessableEntityError) {
      return [
        {
          row: item.row,
          status: 'rejected',
          code: 'SERVER_422',
          message: oneLine(error.detail ?? error.message),
        },
      ];
    }
    throw error;
  }
}

function isStopping(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 402 || error.status === 403);
}

/**
 * Runs one segment (rows in row order: consecutive ones, or a resumed run's failed rows), its rows
 * keyed first ({@link keyRows}); failures become `failed` rows unless the run must stop (an abort, 401, 402, 403: thrown).
 */
export async function runSegment(
  tax: BatchSender,
  checked: readonly CheckedSlot[],
  options: RunBatchOptions,
  single: boolean,
): Promise<SentRowResult[]> {
  const slots = await keyRows(checked);
  const pending = slots.filter((s): s is Pending => 'request' in s);
  let sent: SentRowResult[] = [];
  if (pending.length > 0) {
    try {
      sent = single
        ? await sendSingle(tax, pending[0] as Pending, options)
        : await sendChunk(tax, pending, options);
    } catch (error) {
      if (error instanceof AbortError || isStopping(error)) throw error;
      const message = oneLine(error instanceof Error ? error.message : String(error));
      sent = pending.map((p) => ({
        row: p.row,
        status: 'failed',
        code: errorCode(error),
        message,
        idempotencyKey: p.request.idempotencyKey,
      }));
    }
  }
  // Every row sent: the results are the segment's, in order.
  if (pending.length === slots.length && sent.length === slots.length) return sent;
  const byRow = new Map(sent.map((r) => [r.row, r]));
  return slots.map((s) => ('request' in s ? (byRow.get(s.row) as BatchRowResult) : s));
}

/**
 * Streams rows through validation and yields one result per row, in input order, with bounded
 * memory: at most `concurrency` segments are in flight and no further input is read until the
 * oldest one is done.
 */
export async function* runBatch(
  tax: BatchSender,
  rows: AsyncIterable<unknown> | Iterable<unknown>,
  options: RunBatchOptions = {},
): AsyncGenerator<BatchRowResult> {
  async function* oneByOne(): AsyncGenerator<readonly unknown[]> {
    for await (const input of rows as AsyncIterable<unknown>) yield [input];
  }
  for await (const results of runBatchSegments(tax, oneByOne(), options)) yield* results;
}

/**
 * {@link runBatch} for inputs that come in batches (a file read a buffer at a time): the same
 * rows, requests and results, yielded a segment (consecutive rows) at a time. Per row it costs no
 * promise, which is most of the runner's own time on a fast service.
 */
export async function* runBatchSegments(
  client: BatchSender,
  batches: AsyncIterable<readonly unknown[]>,
  options: RunBatchOptions = {},
): AsyncGenerator<SentRowResult[]> {
  // Before the first row: every row's check, and each chunk's answer, parse with compiled schemas.
  await loadSchemaCompiler();
  const single = options.strategy === 'single';
  const chunkSize = single ? 1 : Math.min(Math.max(options.chunkSize ?? 100, 1), 1000);
  const concurrency = Math.max(options.concurrency ?? 4, 1);
  const tax = pacedSender(client, options, concurrency);
  const runId = options.runId ?? crypto.randomUUID();
  const skip = options.skipRows ?? 0;
  const window: Array<{ firstRow: number; done: Promise<SentRowResult[]> }> = [];
  let segment: CheckedSlot[] = [];
  let segmentSends = 0;
  let row = 0;

  const flushSegment = () => {
    if (segment.length === 0) return;
    const slots = segment;
    const done = runSegment(tax, slots, options, single);
    // Settled later by the consumer; avoid an unhandled rejection while it waits its turn.
    done.catch(() => {});
    window.push({ firstRow: slots[0]?.row ?? row, done });
    segment = [];
    segmentSends = 0;
  };

  // The oldest segment's results.
  async function drainOne(): Promise<SentRowResult[]> {
    const head = window.shift();
    if (!head) return [];
    try {
      return await head.done;
    } catch (error) {
      if (error instanceof AbortError) throw error;
      const message = error instanceof Error ? oneLine(error.message) : String(error);
      throw new BatchStoppedError(`Batch stopped at row ${head.firstRow}: ${message}`, head.firstRow, error);
    }
  }

  let stopped = false;
  for await (const batch of batches) {
    for (const input of batch) {
      row += 1;
      if (row <= skip) continue;
      if (options.signal?.aborted) {
        stopped = true;
        break;
      }
      const slot = checkRow(row, input, options, runId);
      segment.push(slot);
      if ('request' in slot) segmentSends += 1;
      if (segmentSends >= chunkSize || segment.length >= chunkSize * 4) flushSegment();
      while (window.length >= concurrency) yield await drainOne();
    }
    if (stopped) break;
  }
  // On interruption nothing new is sent; what is already in flight is still reported.
  if (!options.signal?.aborted) flushSegment();
  while (window.length > 0) yield await drainOne();
  if (options.signal?.aborted) throw new AbortError('Batch run interrupted');
}
