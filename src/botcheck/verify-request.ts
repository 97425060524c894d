import {
  type BodyRead,
  DEFAULT_MAX_BODY_BYTES,
  type NodeBodyStream,
  readNodeBody,
  readWebBody,
} from '../core/request-body.js';
import { validateBinding } from './binding.js';
import { type Decision, type EvaluationReason, validatePolicy } from './evaluate.js';
import { extractToken, TOKEN_FIELD } from './extract-token.js';
import type { LegacyAssessmentResult } from './legacy-client.js';
import { isMultipart, multipartToken } from './multipart.js';
import type { VerifyOutcome } from './run-verify.js';
import type { VerificationResult } from './schemas.js';
import { type BotCheckClients, type VerifyWithClientOptions, verify } from './verify.js';

export { DEFAULT_MAX_BODY_BYTES } from '../core/request-body.js';

/** The outcome a request's bot check ends with (see `verify`). */
export type BotCheckOutcome = VerifyOutcome<VerificationResult | LegacyAssessmentResult>;

/**
 * A request whose body a framework already parsed (Express with a body parser, Fastify, Koa...):
 * `body` is an object, `URLSearchParams`, a string or a buffer.
 */
export interface ParsedRequest {
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * What {@link verifyRequest} reads: a Web `Request` (Next.js route handlers, Hono, Bun, Deno,
 * Workers), a `node:http` `IncomingMessage` (its body is read from the stream unless a `body` is
 * already set; typed by the parts read, so these types need no `@types/node`), or a request with a
 * parsed body.
 */
export type BotCheckRequest = Request | NodeBodyStream | ParsedRequest;

/** Passed to `onDecision` once per request: for logs and metrics, never for the visitor. */
export interface BotCheckDecisionEvent {
  decision: Decision;
  /** Why, with stable codes (`SCORE_LOW`, `REPLAYED`, `ORIGIN_MISMATCH`, `BODY_TOO_LARGE`...). */
  reasons: EvaluationReason[];
  /** Time from the start of the check to the decision, ms (body read included). */
  latencyMs: number;
  /** The verification id, when the token could be decoded. */
  verificationId: string | undefined;
  /** The whole outcome, with the result when there is one. */
  outcome: BotCheckOutcome;
  /** The request that was checked, as passed in. */
  request: unknown;
}

/** Options of {@link verifyRequest} and of the Express and Fastify adapters. */
export interface VerifyRequestOptions extends VerifyWithClientOptions {
  /**
   * Request header that may carry the token instead of the body (for `fetch` submits); when it
   * is present the body is not read. `false` reads the body only. Default `svc-verification-token`.
   */
  header?: string | false;
  /**
   * Largest body read from a stream, bytes, whatever its type (urlencoded, JSON, multipart with
   * its files); a larger one is answered 413 without reading the rest. Default 65536 (64 KiB).
   * For forms with file uploads, raise it or send the token in the `header`.
   */
  maxBodyBytes?: number;
  /** Called once per request with the decision and its reasons. An error it throws fails the request. */
  onDecision?: (event: BotCheckDecisionEvent) => void;
}

/** The answer for a request: what to send when the decision is not accept. */
export interface BotCheckAnswer {
  decision: Decision;
  /** 200 accept, 401 extra check needed, 403 reject, 413 body over `maxBodyBytes` (a reject). */
  status: 200 | 401 | 403 | 413;
  /** The JSON body to send: `{ decision }` and nothing that tells the visitor why. */
  body: { decision: Decision };
  /** The full outcome, with reasons and result, for the server side only. */
  outcome: BotCheckOutcome;
  latencyMs: number;
  /** The body this call read from a stream, as UTF-8 text, so the handler can parse it; else undefined. */
  bodyText: string | undefined;
  /** The same body as bytes, exactly as received (a multipart file may not be text); else undefined. */
  bodyBytes: Uint8Array | undefined;
}

const STATUS = { accept: 200, challenge: 401, reject: 403 } as const;

const outcomes = new WeakMap<object, BotCheckOutcome>();

/** The bot-check outcome {@link verifyRequest} (or an adapter) attached to `request`, if any. */
export function botCheckOf(request: object): BotCheckOutcome | undefined {
  return outcomes.get(request);
}

/** Checks the options once, so a wrong policy or binding fails at startup, not on a visitor. */
export function validateRequestOptions(options: VerifyRequestOptions): void {
  if (options.policy) validatePolicy(options.policy);
  validateBinding(options);
  const max = options.maxBodyBytes;
  if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
    throw new RangeError('maxBodyBytes must be a positive whole number of bytes');
  }
}

function isWebRequest(request: BotCheckRequest): request is Request {
  return (
    typeof (request as Request).headers?.get === 'function' &&
    typeof (request as Request).clone === 'function'
  );
}

function isNodeStream(request: BotCheckRequest): request is NodeBodyStream {
  return (
    (request as ParsedRequest).body === undefined && typeof (request as NodeBodyStream).on === 'function'
  );
}

function headerValue(request: BotCheckRequest, name: string): string | string[] | undefined {
  if (isWebRequest(request)) return request.headers.get(name) ?? undefined;
  return request.headers[name.toLowerCase()];
}

type TokenSource =
  | { token: string | undefined; bodyText?: string; bodyBytes?: Uint8Array }
  | { failed: 'too-large' | 'unreadable' };

/** The token and, when read, the body; or why the body could not be read. */
async function tokenOf(request: BotCheckRequest, options: VerifyRequestOptions): Promise<TokenSource> {
  const header = options.header ?? TOKEN_FIELD;
  const fromHeader = header === false ? undefined : headerValue(request, header);
  if (fromHeader !== undefined) {
    return { token: Array.isArray(fromHeader) ? extractToken({ [TOKEN_FIELD]: fromHeader }) : fromHeader };
  }
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let read: BodyRead | undefined;
  if (isWebRequest(request)) read = await readWebBody(request, limit);
  else if (isNodeStream(request)) read = await readNodeBody(request, limit);
  if (read === undefined) return { token: extractToken((request as ParsedRequest).body) };
  if (!read.ok) return { failed: read.reason };
  const bodyBytes = read.bytes;
  const bodyText = new TextDecoder().decode(bodyBytes);
  const type = headerValue(request, 'content-type');
  const contentType = Array.isArray(type) ? type[0] : type;
  if (!isMultipart(contentType)) return { token: extractToken(bodyText), bodyText, bodyBytes };
  try {
    // Parsed only now, from bytes already within the limit.
    return { token: await multipartToken(bodyBytes, contentType), bodyText, bodyBytes };
  } catch {
    return { failed: 'unreadable' };
  }
}

/**
 * Checks the bot-check token a request carries and says how to answer it, without any framework:
 * the token comes from the `svc-verification-token` header, else from the body field of that
 * name (urlencoded, JSON or `multipart/form-data`, at most `maxBodyBytes` whatever the type,
 * read within the limit before anything is parsed). Accept is 200 (let the request through),
 * an extra check 401 `{decision:"challenge"}`, a reject 403 `{decision:"reject"}`, a body over
 * the limit 413 `{decision:"reject"}`. The reasons go to `onDecision` and stay attached to the
 * request ({@link botCheckOf}), never to the visitor. Fails closed like `verify`; each token is
 * answered once per client (a replay rejects). Never throws for service errors.
 *
 * @example
 * // A Next.js route handler
 * export async function POST(request: Request) {
 *   const check = await verifyRequest(client, request, { expectedOrigins: ['https://www.example.com'] });
 *   if (check.decision !== 'accept') return Response.json(check.body, { status: check.status });
 *   const form = await request.formData();
 * }
 */
export async function verifyRequest(
  client: BotCheckClients,
  request: BotCheckRequest,
  options: VerifyRequestOptions = {},
): Promise<BotCheckAnswer> {
  const started = performance.now();
  const { header: _header, maxBodyBytes: _max, onDecision, ...verifyOptions } = options;
  const source = await tokenOf(request, options);
  let outcome: BotCheckOutcome;
  if ('failed' in source) {
    const code = source.failed === 'too-large' ? 'BODY_TOO_LARGE' : 'BODY_UNREADABLE';
    const message =
      source.failed === 'too-large'
        ? `the request body is larger than ${options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes`
        : 'the request body could not be read';
    outcome = { decision: 'reject', reasons: [{ code, message }], replayed: false, shared: false };
  } else {
    outcome = await verify(client, source.token, verifyOptions);
  }
  const latencyMs = performance.now() - started;
  outcomes.set(request, outcome);
  onDecision?.({
    decision: outcome.decision,
    reasons: outcome.reasons,
    latencyMs,
    verificationId: outcome.verificationId,
    outcome,
    request,
  });
  const tooLarge = 'failed' in source && source.failed === 'too-large';
  return {
    decision: outcome.decision,
    status: tooLarge ? 413 : STATUS[outcome.decision],
    body: { decision: outcome.decision },
    outcome,
    latencyMs,
    bodyText: 'failed' in source ? undefined : source.bodyText,
    bodyBytes: 'failed' in source ? undefined : source.bodyBytes,
  };
}
