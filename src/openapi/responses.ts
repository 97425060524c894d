import { statusText } from '../core/errors/api-error.js';
import { ref } from './components.js';

/** A JSON response with a schema. */
export function json(description: string, schema: string) {
  return { description, content: { 'application/json': { schema: ref(schema) } } };
}

/** Problem responses for the given statuses, each with its meaning for this endpoint. */
export function problems(meanings: Record<number, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, meaning] of Object.entries(meanings)) {
    out[status] = {
      description: `${statusText(Number(status))}: ${meaning}`,
      headers: { 'Request-Id': { schema: { type: 'string' }, description: 'Reference for support' } },
      content: { 'application/problem+json': { schema: ref('Problem') } },
    };
  }
  return out;
}

export const TAX_AUTH_ERRORS = {
  401: 'API key missing',
  402: 'project locked, plan lacks the feature, or a plan limit is reached',
  403: 'API key invalid',
};
