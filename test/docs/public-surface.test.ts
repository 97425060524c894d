import { describe, expect, it } from 'vitest';
import * as botcheck from '../../src/botcheck/index.js';
import * as core from '../../src/core/public.js';
import * as root from '../../src/index.js';
import * as node from '../../src/node/index.js';
import * as testing from '../../src/testing/index.js';

const names = (module: object) => Object.keys(module).sort();

describe('the root entry stays small: the Node jobs, the bot-check helpers and the dev fixtures have entries of their own', () => {
  it('svc-sdk exports at most 40 values', () => {
    expect(names(root).length).toBeLessThanOrEqual(40);
  });

  it('the core names svc-sdk/botcheck exports (errors, guards, the fetch transport) are in svc-sdk too', () => {
    expect(names(core).filter((name) => !(name in root))).toEqual([]);
    expect(names(core).filter((name) => !(name in botcheck))).toEqual([]);
  });

  it.each([
    ['svc-sdk/node', node],
    ['svc-sdk/testing', testing],
  ])('%s exports no value the root exports too', (_, entry) => {
    expect(names(entry).filter((name) => name in root)).toEqual([]);
  });

  it.each(['DUMMY_TOKENS', 'DUMMY_VERIFICATION_IDS', 'DEV_OUTCOMES', 'withBinding', 'listenForWebhooks'])(
    '%s is not in svc-sdk',
    (name) => {
      expect(name in root).toBe(false);
    },
  );

  it('withBinding is internal, and no class has a public _submitBatch', () => {
    expect('withBinding' in botcheck).toBe(false);
    expect('_submitBatch' in root.TaxClient.prototype).toBe(false);
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
    const schemas = Object.entries({ ...root, ...botcheck, ...node, ...testing })
      .filter(([, value]) => typeof value === 'object' && value !== null && 'safeParse' in value)
      .map(([name]) => name);
    expect(schemas).toEqual([]);
  });

  it('what a user calls or catches is there', () => {
    for (const name of [
      'SvcClient',
      'TaxClient',
      'AuditClient',
      'verify',
      'precheck',
      'ApiError',
      'LocalValidationError',
      'parseWebhookEvent',
      'createFetchTransport',
      'buildOpenApiDocument',
      'diagnose',
    ]) {
      expect(root, name).toHaveProperty(name);
    }
    for (const name of ['BotCheckClient', 'LegacyBotCheckClient', 'decodeVerificationToken', 'evaluate']) {
      expect(botcheck, name).toHaveProperty(name);
    }
    for (const name of [
      'verifyAuditArchive',
      'syncAuditProjects',
      'listenForWebhooks',
      'createUndiciTransport',
    ]) {
      expect(node, name).toHaveProperty(name);
    }
    for (const name of ['DUMMY_TOKENS', 'createDevVerification']) {
      expect(testing, name).toHaveProperty(name);
    }
  });
});
