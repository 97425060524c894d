import * as z from 'zod';
import { lazySchema } from './lazy-schema.js';

/** An RFC 9457 problem document, the error body of the reference server. Lenient on extra members. */
export const ProblemDetails = lazySchema(() =>
  z.looseObject({
    type: z.string().meta({
      description:
        'URI naming the problem: `https://svc.invalid/problems/<status>`, or for a 402 its cause: `project-locked`, `feature-not-in-plan`, `plan-limit-reached`',
    }),
    title: z.string().meta({ description: 'The HTTP status text, e.g. `Unprocessable Entity`' }),
    status: z.number().int().min(100).max(599).meta({ description: 'The HTTP status code' }),
    detail: z.string().meta({ description: 'What went wrong, in one sentence' }),
    /** 422: every failing field, with its dotted path (`items.3.rawValue` in a batch). */
    errors: z
      .array(
        z
          .looseObject({
            path: z.string().meta({ description: 'Dotted path of the field, e.g. `items.3.rawValue`' }),
            message: z.string().meta({ description: 'Why the value was refused' }),
          })
          .meta({ description: 'One failing field' }),
      )
      .optional()
      .meta({ description: '422 only: every failing field' }),
  }),
);
export type ProblemDetails = z.infer<ReturnType<typeof ProblemDetails>>;
