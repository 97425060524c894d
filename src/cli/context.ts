import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SvcClient } from '../client.js';
import type { SvcClientOptions } from '../client-options.js';
import { redact } from '../core/redact.js';
import type { ReferenceServer } from '../server/reference-server.js';
import { type ConfigKey, type ConfigStore, configDir, openConfig } from './config-store.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';
import { printData } from './output.js';
import { resolveOutputFormat } from './output-contract.js';
import { type OutputFormat, parseOutputFormat, type TableView } from './output-format.js';
import { escapeForTerminal } from './terminal-safe.js';
import { parseIntOption, UsageError } from './usage-error.js';

/** The demo key the sandbox uses. */
export const SANDBOX_KEY = 'ak_demo_project';

/** What every command handler gets: resolved settings, the client, output and messages. */
export class CommandContext {
  readonly io: CliIO;
  readonly flags: GlobalFlags;
  /** The command's path (`audit list`), by which the output contract is looked up. */
  readonly command: string | undefined;
  private profileValues: Partial<Record<ConfigKey, string>> | undefined;
  private clientPromise: Promise<SvcClient> | undefined;
  private sandboxServer: ReferenceServer | undefined;
  private readonly cleanups: Array<() => Promise<void>> = [];

  constructor(io: CliIO, flags: GlobalFlags, command?: string) {
    this.io = io;
    this.flags = flags;
    this.command = command;
  }

  get debug(): boolean {
    return Boolean(this.flags.debug);
  }

  get quiet(): boolean {
    return Boolean(this.flags.quiet);
  }

  get color(): boolean {
    return this.flags.color !== false && !this.io.env.NO_COLOR && this.io.stdoutIsTTY;
  }

  /** The profile name: flag > env `SVC_PROFILE` > `default`. */
  get profileName(): string {
    return this.flags.profile ?? this.io.env.SVC_PROFILE ?? 'default';
  }

  /** Loads the profile from the config file (only when it exists, so a plain run writes nothing). */
  async loadProfile(): Promise<Partial<Record<ConfigKey, string>>> {
    if (this.profileValues) return this.profileValues;
    const file = join(configDir(this.io.env), 'config.json');
    this.profileValues = existsSync(file) ? (await openConfig(this.io.env)).profile(this.profileName) : {};
    return this.profileValues;
  }

  /** The config store, for `svc config`. */
  config(): Promise<ConfigStore> {
    return openConfig(this.io.env);
  }

  /** A setting resolved as flag > env > profile. */
  private pick(flag: string | undefined, envName: string, key: ConfigKey): string | undefined {
    const fromEnv = this.io.env[envName];
    return flag ?? (fromEnv === '' ? undefined : fromEnv) ?? this.profileValues?.[key];
  }

  /** Where {@link pick} finds a setting: 'flag', 'env' (with the variable), 'profile', or undefined. */
  settingSource(flag: string | undefined, envName: string, key: ConfigKey): string | undefined {
    if (flag !== undefined) return 'flag';
    if (this.io.env[envName]) return `env ${envName}`;
    return this.profileValues?.[key] !== undefined ? `profile ${this.profileName}` : undefined;
  }

  /**
   * Output format: flag > env `SVC_OUTPUT` > profile > table on a TTY, json otherwise, held to
   * the command's output contract (output-contract.ts): a flag the command does not honour is a
   * usage error; a preference it does not honour gives way to the command's own default.
   */
  get format(): OutputFormat {
    const preference = this.pick(undefined, 'SVC_OUTPUT', 'output');
    return resolveOutputFormat(this.command, {
      flag: this.flags.output,
      preference: preference === undefined ? undefined : parseOutputFormat(preference),
      stdoutIsTTY: this.io.stdoutIsTTY,
    });
  }

  /** Width a table must fit: the terminal's, when stdout is one (else tables are not cut). */
  get tableWidth(): number | undefined {
    if (!this.io.stdoutIsTTY) return undefined;
    const columns = this.io.columns ?? Number(this.io.env.COLUMNS);
    return Number.isInteger(columns) && columns > 0 ? columns : undefined;
  }

  /** A line for stderr: keys redacted, control characters (from a response or a file) escaped. */
  private safeLine(line: string): string {
    return escapeForTerminal(redact(line, this.secrets));
  }

  /** Every key this run knows, for redaction. */
  get secrets(): string[] {
    const p = this.profileValues ?? {};
    return [
      this.flags.apiKey,
      this.io.env.SVC_API_KEY,
      this.io.env.SVC_AUDIT_API_KEY,
      this.io.env.SVC_CAPTCHA_API_KEY,
      this.io.env.SVC_LEGACY_API_KEY,
      p['api-key'],
      p['audit-api-key'],
      p['captcha-api-key'],
      p['legacy-api-key'],
    ].filter((k): k is string => typeof k === 'string' && k.length > 0);
  }

  /** The reference server of `--sandbox`, started on first use. */
  async sandbox(): Promise<ReferenceServer | undefined> {
    if (!this.flags.sandbox) return undefined;
    if (!this.sandboxServer) {
      const { createSandboxServer } = await import('../server/sandbox.js');
      this.sandboxServer = await createSandboxServer();
      const server = this.sandboxServer;
      this.cleanups.push(() => server.close());
      this.debugLine(`sandbox reference server at ${server.url}`);
    }
    return this.sandboxServer;
  }

  /** Client options resolved from flags, env, profile and the sandbox. */
  async clientOptions(): Promise<SvcClientOptions> {
    await this.loadProfile();
    const sandbox = await this.sandbox();
    const timeout = this.pick(this.flags.timeout, 'SVC_TIMEOUT', 'timeout');
    const retries = this.pick(this.flags.maxRetries, 'SVC_MAX_RETRIES', 'max-retries');
    const options: SvcClientOptions = {
      baseUrl: sandbox ? sandbox.url : this.pick(this.flags.baseUrl, 'SVC_BASE_URL', 'base-url'),
      userAgentSuffix: 'svc-cli',
    };
    if (sandbox) {
      options.apiKey = this.flags.apiKey ?? SANDBOX_KEY;
    } else {
      const key = (k: ConfigKey, env: string) => this.pick(undefined, env, k);
      options.apiKey = this.pick(this.flags.apiKey, 'SVC_API_KEY', 'api-key');
      options.auditApiKey = key('audit-api-key', 'SVC_AUDIT_API_KEY');
      options.captchaApiKey = key('captcha-api-key', 'SVC_CAPTCHA_API_KEY');
      options.legacyApiKey = key('legacy-api-key', 'SVC_LEGACY_API_KEY');
    }
    if (!options.baseUrl) {
      throw new UsageError(
        'no base URL: use --base-url, SVC_BASE_URL, `svc config set base-url URL`, or --sandbox',
      );
    }
    if (timeout !== undefined) options.timeoutMs = parseIntOption(timeout, '--timeout', 1);
    if (retries !== undefined) options.maxRetries = parseIntOption(retries, '--max-retries', 0, 10);
    if (this.debug) {
      const secrets = [...this.secrets, options.apiKey ?? ''];
      options.logger = {
        debug: (line) => this.io.stderr.write(`[debug] ${escapeForTerminal(redact(line, secrets))}\n`),
      };
    }
    return options;
  }

  /** The client, created once per run. */
  client(): Promise<SvcClient> {
    this.clientPromise ??= (async () => {
      const options = await this.clientOptions();
      const { SvcClient } = await import('../client.js');
      const client = new SvcClient(options);
      this.cleanups.push(() => client.close());
      return client;
    })();
    return this.clientPromise;
  }

  /** Prints data to stdout in the chosen format. */
  print(data: unknown, view: () => TableView): Promise<void> {
    return printData(this.io.stdout, this.format, data, view, { color: this.color, width: this.tableWidth });
  }

  /**
   * A line on stderr unless `--quiet`. Like every stderr writer here it redacts keys and shows
   * control characters escaped, so a server or file string cannot drive the terminal.
   */
  info(line: string): void {
    if (!this.quiet) this.io.stderr.write(`${this.safeLine(line)}\n`);
  }

  /** A warning on stderr (shown even with `--quiet`), redacted and escaped as {@link info}. */
  warn(line: string): void {
    this.io.stderr.write(`warning: ${this.safeLine(line)}\n`);
  }

  /** A `--debug` line on stderr, redacted and escaped as {@link info}. */
  debugLine(line: string): void {
    if (this.debug) this.io.stderr.write(`[debug] ${this.safeLine(line)}\n`);
  }

  /** Registers clean-up to run when the command ends. */
  onClose(fn: () => Promise<void>): void {
    this.cleanups.push(fn);
  }

  /** Closes the client and the sandbox. */
  async close(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Clean-up failures must not hide the command's own result.
      }
    }
  }
}
