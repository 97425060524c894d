import { describe, expect, it } from 'vitest';
import * as botcheck from '../../src/botcheck/index.js';
import * as adapter from '../../src/botcheck/verify-request.js';
import * as root from '../../src/index.js';

const names = (module: object) => Object.keys(module).sort();

describe('svc-sdk and svc-sdk/botcheck share one list of bot-check and core names', () => {
  it('every value of svc-sdk/botcheck is in svc-sdk, but the request adapter of svc-sdk/http', () => {
    const adapterOnly = new Set(names(adapter));
    const missing = names(botcheck).filter((name) => !(name in root) && !adapterOnly.has(name));
    expect(missing).toEqual([]);
  });
});

describe('the root entry exports what a library user calls or catches, not the helpers of the CLI and the tests', () => {
  it.each([
    'backoffDelay',
    'parseRetryAfter',
    'RETRY_SAFE',
    'RETRY_UNSENT_ONLY',
    'RETRY_IDEMPOTENT_DELETE',
    'statusText',
    'createApiError',
    'rowReject',
    'maskKey',
    'redact',
    'redactHeaders',
    'registryFor',
    'PROVIDERS',
    'PRECHECK_MODES',
  ])('%s is internal', (name) => {
    expect(name in root).toBe(false);
    expect(name in botcheck).toBe(false);
  });

  it('wire schemas are types only: no zod schema object is exported', () => {
    const schemas = Object.entries({ ...root, ...botcheck })
      .filter(([, value]) => typeof value === 'object' && value !== null && 'safeParse' in value)
      .map(([name]) => name);
    expect(schemas).toEqual([]);
  });

  it('what a user calls or catches is there', () => {
    for (const name of [
      'SvcClient',
      'BotCheckClient',
      'verify',
      'precheck',
      'ApiError',
      'LocalValidationError',
      'decodeVerificationToken',
      'parseWebhookEvent',
      'verifyAuditArchive',
      'createFetchTransport',
    ]) {
      expect(root, name).toHaveProperty(name);
    }
  });
});
