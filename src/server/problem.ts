import type { ServerResponse } from 'node:http';
import { statusText } from '../core/errors/error-classes.js';
import type { ProblemDetails } from '../core/problem-schema.js';
import { type PaymentRequiredCause, paymentRequiredType, statusProblemType } from '../core/problem-types.js';
import { endLingering } from './linger.js';

/** One failing field of a 422, RFC 9457 extension member `errors`. */
export interface ProblemIssue {
  path: string;
  message: string;
}

/** An error the route handlers throw; the app turns it into problem+json. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors: ProblemIssue[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** The problem `type` URI; default `https://svc.invalid/problems/<status>`. */
  readonly type: string;

  constructor(
    status: number,
    detail: string,
    errors?: ProblemIssue[],
    headers?: Record<string, string>,
    type: string = statusProblemType(status),
  ) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
    this.type = type;
  }
}

/** A 402 whose problem `type` names its cause (locked project, feature not in the plan, plan limit). */
export function paymentRequired(cause: PaymentRequiredCause, detail: string): HttpProblem {
  return new HttpProblem(402, detail, undefined, undefined, paymentRequiredType(cause));
}

/** Writes an RFC 9457 problem document. */
export function sendProblem(res: ServerResponse, problem: HttpProblem): void {
  const body: ProblemDetails = {
    type: problem.type,
    title: statusText(problem.status),
    status: problem.status,
    detail: problem.detail,
  };
  if (problem.errors) body.errors = problem.errors.map((e) => ({ path: e.path, message: e.message }));
  const text = JSON.stringify(body);
  res.writeHead(problem.status, {
    ...problem.headers,
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
  });
  // A body cut off at its limit: the client may still be sending it.
  if (problem.status === 413 && problem.headers?.connection === 'close') endLingering(res, text);
  else res.end(text);
}
