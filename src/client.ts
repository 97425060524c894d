import { AuditClient } from './audit/client.js';
import { BotCheckClient } from './botcheck/current-client.js';
import { LegacyBotCheckClient } from './botcheck/legacy-client.js';
import type { SvcClientOptions } from './client-options.js';
import { allKeys, type Credentials, keyFor } from './core/credentials.js';
import { SvcError } from './core/errors/svc-error.js';
import { defaultSleep, HttpClient } from './core/http.js';
import { checkNumericOptions } from './core/numeric-options.js';
import { createFetchTransport } from './core/transport/fetch.js';
import { createUndiciTransport } from './core/transport/undici.js';
import { TaxClient } from './tax/client.js';
import { VERSION } from './version.js';

function env(name: string): string | undefined {
  const value = typeof process !== 'undefined' ? process.env[name] : undefined;
  return value === undefined || value === '' ? undefined : value;
}

function parseBaseUrl(value: string | URL | undefined): URL {
  if (value === undefined) {
    throw new SvcError('baseUrl is required (option baseUrl or env SVC_BASE_URL)', 'config');
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SvcError(`baseUrl is not a valid URL: ${String(value)}`, 'config');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(`baseUrl must use http or https, got ${url.protocol}`, 'config');
  }
  if (url.username || url.password) throw new SvcError('baseUrl must not contain credentials', 'config');
  return url;
}

/**
 * The client of the four APIs. One instance holds a keep-alive connection pool: create it once
 * and reuse it; call `close()` when done.
 *
 * @example
 * const client = new SvcClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'ak_demo_project' });
 */
export class SvcClient {
  /** The request pipeline shared by the sub-clients. */
  readonly http: HttpClient;
  /** Resolved credentials (never logged). */
  protected readonly credentials: Credentials;
  /** Tax-ID validation: single, batch, schedules, results. */
  readonly tax: TaxClient;
  /** Audit log: pages, every event through cursors, resumable NDJSON export, tail. */
  readonly audit: AuditClient;
  /** Current bot-check result API: results, evaluation, backend `verify`. */
  readonly botCheck: BotCheckClient;
  /** Legacy bot-check result API (v1/v2 widget clients). */
  readonly legacyBotCheck: LegacyBotCheckClient;

  constructor(options: SvcClientOptions = {}) {
    checkNumericOptions(options);
    const baseUrl = parseBaseUrl(options.baseUrl ?? env('SVC_BASE_URL'));
    this.credentials = {
      apiKey: options.apiKey ?? env('SVC_API_KEY'),
      auditApiKey: options.auditApiKey ?? env('SVC_AUDIT_API_KEY'),
      captchaApiKey: options.captchaApiKey ?? env('SVC_CAPTCHA_API_KEY'),
      legacyApiKey: options.legacyApiKey ?? env('SVC_LEGACY_API_KEY'),
    };
    const transport =
      options.transport ??
      (options.fetch
        ? createFetchTransport(options.fetch)
        : createUndiciTransport({ connections: options.connections }));
    const node = typeof process !== 'undefined' ? ` node/${process.versions.node}` : '';
    this.http = new HttpClient({
      baseUrl,
      transport,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      deadlineMs: options.deadlineMs,
      userAgent: `svc-sdk/${VERSION}${node}${options.userAgentSuffix ? ` ${options.userAgentSuffix}` : ''}`,
      logger: options.logger,
      onRequest: options.onRequest,
      onResponse: options.onResponse,
      secrets: allKeys(this.credentials),
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      now: Date.now,
    });
    this.tax = new TaxClient(this.http, () => keyFor(this.credentials, 'tax'));
    this.audit = new AuditClient(this.http, () => keyFor(this.credentials, 'audit'));
    this.botCheck = new BotCheckClient(this.http, () => keyFor(this.credentials, 'captcha'));
    this.legacyBotCheck = new LegacyBotCheckClient(this.http, () => keyFor(this.credentials, 'legacy'));
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.http.settings.transport.close?.();
  }
}
