import type { ServerResponse } from 'node:http';
import { statusText } from '../core/errors/api-error.js';
import type { ProblemDetails } from '../core/problem-schema.js';

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

  constructor(status: number, detail: string, errors?: ProblemIssue[], headers?: Record<string, string>) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
  }
}

/** Writes an RFC 9457 problem document. */
export function sendProblem(res: ServerResponse, problem: HttpProblem): void {
  const body: ProblemDetails = {
    type: `https://svc.invalid/problems/${problem.status}`,
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
  res.end(text);
}
