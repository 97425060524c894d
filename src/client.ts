import { AuditClient } from './audit/client.js';
import { BotCheckClient } from './botcheck/current-client.js';
import { LegacyBotCheckClient } from './botcheck/legacy-client.js';
import { resolvedOptions } from './client-env.js';
import { type ClientNetwork, clientNetwork } from './client-network.js';
import type { SvcClientOptions } from './client-options.js';
import { parseBaseUrl } from './core/base-url.js';
import { type ApiInterface, allKeys, type Credentials, keyFor } from './core/credentials.js';
import { defaultSleep, HttpClient } from './core/http.js';
import { checkNumericOptions } from './core/numeric-options.js';
import { runtimeTag } from './core/runtime.js';
import { createClientTransport } from './core/transport/default.js';
import { createFetchTransport } from './core/transport/fetch.js';
import { TaxClient } from './tax/client.js';
import { VERSION } from './version.js';

/**
 * The client of the four APIs. One instance holds a keep-alive connection pool: create it once
 * and reuse it; call `close()` when done. Its transport fits the runtime (undici on Node, the
 * global `fetch` on Bun, Deno, workerd and edge runtimes); for the bot check alone,
 * `svc-sdk/botcheck` is lighter.
 *
 * The constructor never reads the environment: pass every setting, or use
 * {@link SvcClient.fromEnv} (or the `env` option) to take `SVC_*` and the proxy variables as
 * defaults. The one exception is Node's own switch: under `NODE_USE_ENV_PROXY=1` (or
 * `--use-env-proxy`) a client built without `proxy` uses `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`,
 * as Node's own clients then do.
 *
 * @example
 * const client = new SvcClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'ak_demo_project' });
 * const fromEnv = SvcClient.fromEnv({ timeoutMs: 10_000 });
 */
export class SvcClient {
  /** The request pipeline shared by the sub-clients. */
  readonly http: HttpClient;
  /** Resolved credentials: a private field, so inspect, JSON and structured clones never see them. */
  readonly #credentials: Credentials;
  /** The proxy and CA of the default transport, which a bucket archive opened by `syncAuditArchive` takes too. */
  readonly #network: ClientNetwork;
  // Sub-clients are built on first use: a client that only verifies bot-check tokens never
  // constructs the tax or audit client.
  #tax: TaxClient | undefined;
  #audit: AuditClient | undefined;
  #botCheck: BotCheckClient | undefined;
  #legacyBotCheck: LegacyBotCheckClient | undefined;

  /** Tax-ID validation: single, batch, schedules, results. Built on first use. */
  get tax(): TaxClient {
    this.#tax ??= new TaxClient(this.http, () => keyFor(this.#credentials, 'tax'));
    return this.#tax;
  }

  /** Audit log: pages, every event through cursors, resumable NDJSON export, tail. Built on first use. */
  get audit(): AuditClient {
    this.#audit ??= new AuditClient(this.http, () => keyFor(this.#credentials, 'audit'), this.#network);
    return this.#audit;
  }

  /** Current bot-check result API: results, evaluation, backend `verify`. Built on first use. */
  get botCheck(): BotCheckClient {
    this.#botCheck ??= new BotCheckClient({
      http: this.http,
      key: () => keyFor(this.#credentials, 'captcha'),
    });
    return this.#botCheck;
  }

  /** Legacy bot-check result API (v1/v2 widget clients). Built on first use. */
  get legacyBotCheck(): LegacyBotCheckClient {
    this.#legacyBotCheck ??= new LegacyBotCheckClient({
      http: this.http,
      key: () => keyFor(this.#credentials, 'legacy'),
    });
    return this.#legacyBotCheck;
  }

  /**
   * A client configured by the environment of the process (`SVC_BASE_URL`, `SVC_API_KEY`,
   * `SVC_AUDIT_API_KEY`, `SVC_CAPTCHA_API_KEY`, `SVC_LEGACY_API_KEY`, and the proxy variables
   * `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, lower case first); `overrides` win over it.
   * The one place the library reads the environment of the process.
   */
  static fromEnv(overrides: SvcClientOptions = {}): SvcClient {
    return new SvcClient({ env: typeof process === 'undefined' ? {} : process.env, ...overrides });
  }

  constructor(input: SvcClientOptions = {}) {
    const options = resolvedOptions(input);
    checkNumericOptions(options);
    const baseUrl = parseBaseUrl(options.baseUrl);
    this.#credentials = {
      apiKey: options.apiKey,
      auditApiKey: options.auditApiKey,
      captchaApiKey: options.captchaApiKey,
      legacyApiKey: options.legacyApiKey,
    };
    const network = clientNetwork(input, options);
    this.#network = network;
    const transport =
      options.transport ??
      (options.fetch
        ? createFetchTransport(options.fetch)
        : createClientTransport({ connections: options.connections, ...network }));
    this.http = new HttpClient({
      baseUrl,
      transport,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      deadlineMs: options.deadlineMs,
      userAgent: `svc-sdk/${VERSION} ${runtimeTag()}${options.userAgentSuffix ? ` ${options.userAgentSuffix}` : ''}`,
      logger: options.logger,
      onRequest: options.onRequest,
      onResponse: options.onResponse,
      secrets: allKeys(this.#credentials),
      responseLimits: options.maxResponseBytes,
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      now: Date.now,
    });
  }

  /** Whether a key is configured for `api` (its own key or the fallback `apiKey`); never the key itself. */
  hasKey(api: ApiInterface): boolean {
    return keyFor(this.#credentials, api) !== undefined;
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.http.settings.transport.close?.();
  }
}
