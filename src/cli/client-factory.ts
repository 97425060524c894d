import type { SvcClient } from '../client.js';
import type { SvcClientOptions } from '../client-options.js';
import type { ApiInterface } from '../core/credentials.js';
import type { ReferenceServer } from '../server/reference-server.js';
import type { CommandOutput } from './command-output.js';
import type { ConfigKey } from './config-store.js';
import { loadSvcClient, provideNodePlatform } from './load-client.js';
import type { Settings } from './settings.js';
import { UsageError } from './usage-error.js';
import { withKeyCheck } from './with-key-check.js';

/** The settings of an API's own key, which wins over `api-key` for that API. */
const OWN_KEY: Record<ApiInterface, { label: string; setting: ConfigKey; env: string } | undefined> = {
  tax: undefined,
  audit: { label: 'audit', setting: 'audit-api-key', env: 'SVC_AUDIT_API_KEY' },
  captcha: { label: 'bot-check', setting: 'captcha-api-key', env: 'SVC_CAPTCHA_API_KEY' },
  legacy: { label: 'legacy bot-check', setting: 'legacy-api-key', env: 'SVC_LEGACY_API_KEY' },
};

/** Makes the run's {@link SvcClient} (and the `--sandbox` server) from the settings, once. */
export class ClientFactory {
  private readonly settings: Settings;
  private readonly out: CommandOutput;
  private readonly onClose: (fn: () => Promise<void>) => void;
  private clientPromise: Promise<SvcClient> | undefined;
  private sandboxServer: ReferenceServer | undefined;

  /** `onClose` registers what must be closed when the command ends (the client, the sandbox). */
  constructor(settings: Settings, out: CommandOutput, onClose: (fn: () => Promise<void>) => void) {
    this.settings = settings;
    this.out = out;
    this.onClose = onClose;
  }

  /** The reference server of `--sandbox`, started on first use. */
  async sandbox(): Promise<ReferenceServer | undefined> {
    if (!this.settings.flags.sandbox) return undefined;
    if (!this.sandboxServer) {
      const { createSandboxServer } = await import('../server/sandbox.js');
      this.sandboxServer = await createSandboxServer();
      const server = this.sandboxServer;
      this.onClose(() => server.close());
      this.out.debug(`sandbox reference server at ${server.url}`);
    }
    return this.sandboxServer;
  }

  /**
   * Client options resolved from flags, env, profile and the sandbox. No key is required here
   * (`doctor` reports a missing key per API itself); {@link get} checks the key of each API
   * before its first use.
   */
  async options(): Promise<SvcClientOptions> {
    // Options are for a client or `diagnose`: both need the Node platform (the proxy rules ask it).
    const [options] = await Promise.all([this.resolveOptions(), provideNodePlatform()]);
    this.settings.warnBrokenConfig();
    return options;
  }

  private async resolveOptions(): Promise<SvcClientOptions> {
    await this.settings.loadProfile();
    const sandbox = await this.sandbox();
    const options = await this.settings.clientOptions(sandbox?.url);
    if (this.settings.debug) {
      const sent = [options.apiKey ?? ''];
      options.logger = { debug: (line) => this.out.debug(line, sent) };
      // Which proxy the run uses and from where (redacted: `http://***@proxy:3128`).
      if (!sandbox) {
        const { settings, source } = this.settings.proxySettings();
        const shown = [
          settings?.httpsProxy && `https ${settings.httpsProxy}`,
          settings?.httpProxy && `http ${settings.httpProxy}`,
        ];
        const noProxy = settings?.noProxy ? `; NO_PROXY ${settings.noProxy}` : '';
        this.out.debug(
          `proxy: ${shown.filter(Boolean).join(', ') || 'none'} (from ${source})${noProxy}`,
          sent,
        );
      }
    }
    return options;
  }

  /**
   * The client, created once per run. Each API checks its key before its first use (see
   * {@link withKeyCheck}): with none, the run stops with exit 2 and a hint, and nothing is sent.
   * With `api`, that API's key is checked now, for a command that uses the API only later (e.g.
   * `webhooks listen --confirm`, when an event comes in).
   */
  async get(api?: ApiInterface): Promise<SvcClient> {
    this.clientPromise ??= (async () => {
      const options = await this.resolveOptions();
      const SvcClient = await loadSvcClient();
      const client = new SvcClient(options);
      this.onClose(() => client.close());
      return withKeyCheck(client, (used, hasKey) => this.checkKey(used, hasKey));
    })();
    const client = await this.clientPromise;
    if (api) this.checkKey(api, client.hasKey(api));
    return client;
  }

  /** Stops the run when an API is about to be used without a key; else goes on (saying once if a broken config file was skipped). */
  private checkKey(api: ApiInterface, hasKey: boolean): void {
    if (!hasKey) throw new UsageError(this.missingKeyLine(api));
    this.settings.warnBrokenConfig();
  }

  /** The one line for an API used without a key: where a key can come from. */
  private missingKeyLine(api: ApiInterface): string {
    const own = OWN_KEY[api];
    const name = this.settings.profileName;
    const where = name === 'default' ? '' : ` in profile '${name}'`;
    const alternative = own ? `, or ${own.setting} / ${own.env} for this API only` : '';
    return `no API key for the ${own?.label ?? 'tax-validation'} API${where}, so nothing was sent: run \`svc config set api-key\` or set SVC_API_KEY (or use --api-key${alternative})${this.settings.brokenConfigNote()}`;
  }
}
