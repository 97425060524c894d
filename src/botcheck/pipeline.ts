import { parseBaseUrl } from '../core/base-url.js';
import { SvcError } from '../core/errors/error-classes.js';
import { defaultSleep, HttpClient } from '../core/http.js';
import { checkNumericOptions } from '../core/numeric-options.js';
import { currentRuntime, runtimeTag } from '../core/runtime.js';
import { createFetchTransport, globalFetch } from '../core/transport/fetch.js';
import type { Transport } from '../core/transport/types.js';
import { VERSION } from '../version.js';
import type { BotCheckClientOptions, BotCheckPipeline } from './client-options.js';

function isPipeline(input: BotCheckClientOptions | BotCheckPipeline): input is BotCheckPipeline {
  return (input as BotCheckPipeline).http instanceof HttpClient;
}

function transportOf(options: BotCheckClientOptions): Transport {
  if (options.transport) return options.transport;
  if (options.fetch) return createFetchTransport(options.fetch);
  if (typeof globalThis.fetch !== 'function') {
    throw new SvcError(
      `This runtime (${currentRuntime().name}) has no global fetch: pass the fetch option`,
      'config',
    );
  }
  return createFetchTransport(globalFetch);
}

/**
 * The pipeline of a bot-check client: the one an `SvcClient` shares, or one built from standalone
 * options over `fetch` (never undici, so the `svc-sdk/botcheck` entry needs Web APIs only).
 *
 * @throws {SvcError} code `config` for a missing or bad `baseUrl`, or no `fetch` in this runtime.
 * @throws {LocalValidationError} for a bad `timeoutMs`, `deadlineMs` or `maxRetries`.
 */
export function botCheckPipeline(input: BotCheckClientOptions | BotCheckPipeline): BotCheckPipeline {
  if (isPipeline(input)) return input;
  checkNumericOptions(input);
  const baseUrl = parseBaseUrl(input.baseUrl);
  const apiKey = input.apiKey || undefined;
  const suffix = input.userAgentSuffix ? ` ${input.userAgentSuffix}` : '';
  const http = new HttpClient({
    baseUrl,
    transport: transportOf(input),
    timeoutMs: input.timeoutMs,
    maxRetries: input.maxRetries ?? 2,
    deadlineMs: input.deadlineMs,
    userAgent: `svc-sdk/${VERSION} ${runtimeTag()}${suffix}`,
    logger: input.logger,
    onRequest: input.onRequest,
    onResponse: input.onResponse,
    secrets: apiKey === undefined ? [] : [apiKey],
    responseLimits: input.maxResponseBytes,
    sleep: input.sleep ?? defaultSleep,
    random: Math.random,
    now: Date.now,
  });
  return { http, key: () => apiKey };
}
