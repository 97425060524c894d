import * as z from 'zod/mini';
import { lazySchema } from '../../core/lazy-schema.js';

// The answers of Splunk's HTTP Event Collector, as Splunk documents them: every answer is
// `{"text", "code"}` (0 success, 9 server busy, 6 invalid data format with the number of the
// first invalid event, ...), a success with indexer acknowledgement on carries `ackId`, and the
// acknowledgement endpoint answers `{"acks": {"<ackId>": true|false}}`.

/** Any answer of the event endpoint. */
export const HecAnswerSchema = lazySchema(() =>
  z.object({
    text: z.optional(z.string()),
    code: z.optional(z.number()),
    ackId: z.optional(z.number().check(z.int())),
    'invalid-event-number': z.optional(z.number().check(z.int())),
  }),
);
/** Any answer of the event endpoint. */
export type HecAnswer = z.infer<ReturnType<typeof HecAnswerSchema>>;

/** The answer of the acknowledgement endpoint. */
export const HecAcksSchema = lazySchema(() => z.object({ acks: z.record(z.string(), z.boolean()) }));

/** HEC's code for "server is busy" (503): the request is to be sent again later. */
export const HEC_BUSY = 9;
