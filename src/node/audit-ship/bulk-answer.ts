import * as z from 'zod/mini';
import { lazySchema } from '../../core/lazy-schema.js';

// The answer of Elasticsearch's and OpenSearch's `_bulk` API, as both document it: `errors` says
// whether any item failed, `items` holds one object per action, in order, keyed by the action
// (`create`), with the item's `status` and, when it failed, `error.type` and `error.reason`.

/** The error of one failed item. */
const BulkItemError = () =>
  z.object({ type: z.optional(z.string()), reason: z.optional(z.nullable(z.string())) });

/** One item's result: keyed by its action (`create`, `index`). */
const BulkItem = () =>
  z.record(
    z.string(),
    z.object({
      status: z.number().check(z.int()),
      error: z.optional(z.union([BulkItemError(), z.string()])),
    }),
  );

/** A `_bulk` answer (200), whether or not some items failed. */
export const BulkAnswerSchema = lazySchema(() =>
  z.object({ errors: z.boolean(), items: z.array(BulkItem()) }),
);
/** A `_bulk` answer (200). */
export type BulkAnswer = z.infer<ReturnType<typeof BulkAnswerSchema>>;

/** Only `errors` and how many items: what an answer without failures needs checked. */
export const BulkSummarySchema = lazySchema(() =>
  z.object({ errors: z.boolean(), items: z.array(z.unknown()) }),
);

/** The error object of an answer that is not 200 (`{"error":{"type","reason"},"status"}`), or a string. */
export const BulkFailureSchema = lazySchema(() =>
  z.object({ error: z.optional(z.union([BulkItemError(), z.string()])) }),
);
