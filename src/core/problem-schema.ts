import * as z from 'zod/mini';
import { looseObject, meta, wireSchema } from './schema.js';

/** An RFC 9457 problem document, the error body of the reference server. Lenient on extra members. */
export const ProblemDetailsSchema = wireSchema(() =>
  looseObject({
    type: meta(z.string(), {
      description:
        'URI naming the problem: `https://svc.invalid/problems/<status>`, or for a 402 its cause: `project-locked`, `feature-not-in-plan`, `plan-limit-reached`',
    }),
    title: meta(z.string(), { description: 'The HTTP status text, e.g. `Unprocessable Entity`' }),
    status: meta(z.number().check(z.int()).check(z.gte(100)).check(z.lte(599)), {
      description: 'The HTTP status code',
    }),
    detail: meta(z.string(), { description: 'What went wrong, in one sentence' }),
    /** 422: every failing field, with its dotted path (`items.3.rawValue` in a batch). */
    errors: meta(
      z.optional(
        z.array(
          meta(
            looseObject({
              path: meta(z.string(), { description: 'Dotted path of the field, e.g. `items.3.rawValue`' }),
              message: meta(z.string(), { description: 'Why the value was refused' }),
            }),
            { description: 'One failing field' },
          ),
        ),
      ),
      { description: '422 only: every failing field' },
    ),
  }),
);
/** An RFC 9457 problem document, the error body of the reference server. Lenient on extra members. */
export type ProblemDetails = z.infer<ReturnType<typeof ProblemDetailsSchema>>;
