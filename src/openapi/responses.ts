import { statusText } from '../core/errors/error-classes.js';
import {
  PAYMENT_REQUIRED_CAUSES,
  type PaymentRequiredCause,
  paymentRequiredType,
} from '../core/problem-types.js';
import { ref } from './components.js';
import { problemExample } from './examples.js';

/** `Request-Id` on every response of the API, success or not. */
export const REQUEST_ID_HEADER = {
  'Request-Id': {
    description: 'Id of this request; quote it to support',
    schema: { type: 'string' },
  },
};
const headers = { 'Request-Id': { $ref: '#/components/headers/Request-Id' } };

/** A JSON response with a schema (a component name or a schema object) and an example. */
export function json(description: string, schema: string | Record<string, unknown>, example: unknown) {
  return {
    description,
    headers,
    content: {
      'application/json': { schema: typeof schema === 'string' ? ref(schema) : schema, example },
    },
  };
}

/** A response without a body. */
export function empty(description: string) {
  return { description, headers };
}

function paymentRequiredExamples() {
  const out: Record<string, unknown> = {};
  for (const [cause, meaning] of Object.entries(PAYMENT_REQUIRED_CAUSES)) {
    out[cause] = {
      summary: meaning,
      value: problemExample(
        402,
        statusText(402),
        meaning,
        paymentRequiredType(cause as PaymentRequiredCause),
      ),
    };
  }
  return out;
}

/** Problem responses for the given statuses, each with its meaning for this endpoint. */
export function problems(meanings: Record<number, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, meaning] of Object.entries(meanings)) {
    const status = Number(key);
    const media =
      status === 402
        ? { schema: ref('Problem'), examples: paymentRequiredExamples() }
        : { schema: ref('Problem'), example: problemExample(status, statusText(status), meaning) };
    out[key] = {
      description:
        status === 402
          ? `${statusText(status)}: ${meaning}. The problem type names the cause: ${Object.keys(
              PAYMENT_REQUIRED_CAUSES,
            )
              .map((cause) => `\`${paymentRequiredType(cause as PaymentRequiredCause)}\``)
              .join(', ')}`
          : `${statusText(status)}: ${meaning}`,
      headers,
      content: { 'application/problem+json': media },
    };
  }
  return out;
}

/** Statuses every operation can answer. */
export const COMMON_ERRORS = { 500: 'internal error' };

/** Statuses of a tax-validation or audit-log call, from the key check. */
export const TAX_AUTH_ERRORS = {
  401: 'API key missing',
  402: 'project locked, plan lacks the feature, or a plan limit is reached',
  403: 'API key invalid or expired',
};

/**
 * Statuses of reading a JSON request body of at most `limit` (in words, e.g. `4 MiB`: what the
 * reference server reads, counted on the bytes received, chunked or not).
 */
export function bodyErrors(limit: string) {
  return {
    400: 'the body is not valid JSON',
    413: `the body is larger than ${limit}`,
  };
}
