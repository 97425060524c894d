import { z } from 'zod';

/** An RFC 9457 problem document, the error body of the reference server. Lenient on extra members. */
export const ProblemDetails = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  /** 422: every failing field, with its dotted path (`items.3.rawValue` in a batch). */
  errors: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
});
export type ProblemDetails = z.infer<typeof ProblemDetails>;
