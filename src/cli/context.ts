import type { Writable } from 'node:stream';
import type { SvcClient } from '../client.js';
import type { SvcClientOptions } from '../client-options.js';
import type { ApiInterface } from '../core/credentials.js';
import { redact } from '../core/redact.js';
import type { ReferenceServer } from '../server/reference-server.js';
import {
  ConfigFileError,
  type ConfigKey,
  type ConfigStore,
  configFile,
  openConfig,
  type Profiles,
  type ProfileValues,
  profileOf,
  readProfiles,
  securePermissions,
  trimmedValue,
} from './config-store.js';
import type { GlobalFlags } from './global-options.js';
import type { CliIO } from './io.js';
import { printData } from './output.js';
import { resolveOutputFormat } from './output-contract.js';
import { type OutputFormat, parseOutputFormat, type TableView } from './output-format.js';
import { writeHumanLine } from './terminal-safe.js';
import { parseIntOption, UsageError } from './usage-error.js';
import { withKeyCheck } from './with-key-check.js';

/** The demo key the sandbox uses. */
export const SANDBOX_KEY = 'ak_demo_project';

/** The settings of an API's own key, which wins over `api-key` for that API. */
const OWN_KEY: Record<ApiInterface, { label: string; setting: ConfigKey; env: string } | undefined> = {
  tax: undefined,
  audit: { label: 'audit', setting: 'audit-api-key', env: 'SVC_AUDIT_API_KEY' },
  captcha: { label: 'bot-check', setting: 'captcha-api-key', env: 'SVC_CAPTCHA_API_KEY' },
  legacy: { label: 'legacy bot-check', setting: 'legacy-api-key', env: 'SVC_LEGACY_API_KEY' },
};

/** What every command handler gets: resolved settings, the client, output and messages. */
export class CommandContext {
  readonly io: CliIO;
  readonly flags: GlobalFlags;
  /** The command's path (`audit list`), by which the output contract is looked up. */
  readonly command: string | undefined;
  private profileValues: ProfileValues | undefined;
  /** The config file when it is broken and was skipped (flags and env may still suffice). */
  private brokenConfig: ConfigFileError | undefined;
  private brokenConfigWarned = false;
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
    return this.flags.profile ?? (this.io.env.SVC_PROFILE || undefined) ?? 'default';
  }

  /** Whether the profile was asked for (flag or `SVC_PROFILE`) rather than the implicit default. */
  private get profileAsked(): boolean {
    return this.flags.profile !== undefined || Boolean(this.io.env.SVC_PROFILE);
  }

  /**
   * Loads the profile from the config file, read only (a plain run writes nothing). A file more
   * open than 0600 is tightened with a warning. A broken file is kept aside: it is named in a
   * warning when flags and env suffice, and in the error when they do not. A profile asked for
   * that does not exist is an error listing those that do; `default` needs no file.
   */
  async loadProfile(): Promise<ProfileValues> {
    if (this.profileValues) return this.profileValues;
    const name = this.profileName;
    let profiles: Profiles | undefined;
    try {
      securePermissions(this.io.env, (line) => this.warn(line));
      profiles = readProfiles(configFile(this.io.env));
    } catch (error) {
      // A profile asked for by name cannot come from a broken file: that stops the run.
      if (!(error instanceof ConfigFileError) || this.profileAsked) throw error;
      this.brokenConfig = error;
    }
    const values = profiles ? profileOf(profiles, name) : undefined;
    if (values === undefined && this.profileAsked && !(name === 'default' && profiles === undefined)) {
      throw new UsageError(this.missingProfileLine(name, profiles));
    }
    const trimmed: ProfileValues = {};
    for (const [key, value] of Object.entries(values ?? {}) as Array<[ConfigKey, string]>) {
      const kept = trimmedValue(value);
      if (kept !== undefined) trimmed[key] = kept;
    }
    this.profileValues = trimmed;
    return trimmed;
  }

  private missingProfileLine(name: string, profiles: Profiles | undefined): string {
    const file = configFile(this.io.env);
    if (profiles === undefined)
      return `profile '${name}' does not exist: there is no config file (${file}); create it with \`svc --profile ${name} config set api-key\``;
    const names = Object.keys(profiles).sort();
    if (names.length === 0) return `profile '${name}' does not exist: ${file} holds no profiles`;
    const shown = names.slice(0, 20).map((n) => `'${n}'`);
    const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
    return `profile '${name}' does not exist; profiles in ${file}: ${shown.join(', ')}${more}`;
  }

  /** What to add to an error when a broken config file was skipped (its settings might have helped). */
  private brokenConfigNote(): string {
    const broken = this.brokenConfig;
    return broken
      ? `; config file ${broken.path} ${broken.reason} and was not read: ${ConfigFileError.fix()}`
      : '';
  }

  /** Says once that a broken config file was skipped, when the run goes on without it. */
  private warnBrokenConfig(): void {
    const broken = this.brokenConfig;
    if (!broken || this.brokenConfigWarned) return;
    this.brokenConfigWarned = true;
    this.warn(`ignoring config file ${broken.path}: it ${broken.reason} (${ConfigFileError.fix()})`);
  }

  /** The config store, for `svc config`; permissions tightened with a warning. */
  config(): Promise<ConfigStore> {
    return openConfig(this.io.env, { warn: (line) => this.warn(line) });
  }

  /**
   * A setting resolved as flag > env > profile. Values lose surrounding white space (a key read
   * from a file or `$(cat key)` with its line break); an empty value counts as unset.
   */
  private pick(flag: string | undefined, envName: string, key: ConfigKey): string | undefined {
    return trimmedValue(flag) ?? trimmedValue(this.io.env[envName]) ?? this.profileValues?.[key];
  }

  /** Where {@link pick} finds a setting: 'flag', 'env' (with the variable), 'profile', or undefined. */
  settingSource(flag: string | undefined, envName: string, key: ConfigKey): string | undefined {
    if (flag !== undefined) return 'flag';
    if (trimmedValue(this.io.env[envName])) return `env ${envName}`;
    return this.profileValues?.[key] !== undefined ? `profile ${this.profileName}` : undefined;
  }

  /** A setting as the user wrote it, for an error about its value: `--timeout`, `SVC_TIMEOUT` or `timeout (profile work)`. */
  private settingLabel(flag: string | undefined, envName: string, key: ConfigKey): string {
    const source = this.settingSource(flag, envName, key);
    if (source === `env ${envName}`) return envName;
    if (source?.startsWith('profile ')) return `${key} (${source})`;
    return `--${key}`;
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

  /** Keys a command read from elsewhere (a projects file's variables), redacted like the others. */
  private readonly extraSecrets: string[] = [];

  /** Adds a key to {@link secrets}, so no output line shows it. */
  addSecret(key: string): void {
    this.extraSecrets.push(key);
  }

  /** Every key this run knows, for redaction (as sent: trimmed). */
  get secrets(): string[] {
    const p = this.profileValues ?? {};
    return [
      ...this.extraSecrets,
      this.flags.apiKey,
      this.io.env.SVC_API_KEY,
      this.io.env.SVC_AUDIT_API_KEY,
      this.io.env.SVC_CAPTCHA_API_KEY,
      this.io.env.SVC_LEGACY_API_KEY,
      p['api-key'],
      p['audit-api-key'],
      p['captcha-api-key'],
      p['legacy-api-key'],
    ]
      .map(trimmedValue)
      .filter((k): k is string => typeof k === 'string' && k.length > 0);
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

  /**
   * Client options resolved from flags, env, profile and the sandbox. No key is required here
   * (`doctor` reports a missing key per API itself); {@link client} checks the key of each API
   * before its first use.
   */
  async clientOptions(): Promise<SvcClientOptions> {
    const options = await this.resolveOptions();
    this.warnBrokenConfig();
    return options;
  }

  private async resolveOptions(): Promise<SvcClientOptions> {
    await this.loadProfile();
    const sandbox = await this.sandbox();
    const timeout = this.pick(this.flags.timeout, 'SVC_TIMEOUT', 'timeout');
    const retries = this.pick(this.flags.maxRetries, 'SVC_MAX_RETRIES', 'max-retries');
    const options: SvcClientOptions = {
      baseUrl: sandbox ? sandbox.url : this.pick(this.flags.baseUrl, 'SVC_BASE_URL', 'base-url'),
      userAgentSuffix: 'svc-cli',
    };
    if (sandbox) {
      options.apiKey = trimmedValue(this.flags.apiKey) ?? SANDBOX_KEY;
    } else {
      const key = (k: ConfigKey, env: string) => this.pick(undefined, env, k);
      options.apiKey = this.pick(this.flags.apiKey, 'SVC_API_KEY', 'api-key');
      options.auditApiKey = key('audit-api-key', 'SVC_AUDIT_API_KEY');
      options.captchaApiKey = key('captcha-api-key', 'SVC_CAPTCHA_API_KEY');
      options.legacyApiKey = key('legacy-api-key', 'SVC_LEGACY_API_KEY');
    }
    if (!options.baseUrl) {
      throw new UsageError(
        `no base URL: use --base-url, SVC_BASE_URL, \`svc config set base-url URL\`, or --sandbox${this.brokenConfigNote()}`,
      );
    }
    if (timeout !== undefined)
      options.timeoutMs = parseIntOption(
        timeout,
        this.settingLabel(this.flags.timeout, 'SVC_TIMEOUT', 'timeout'),
        1,
      );
    if (retries !== undefined)
      options.maxRetries = parseIntOption(
        retries,
        this.settingLabel(this.flags.maxRetries, 'SVC_MAX_RETRIES', 'max-retries'),
        0,
        10,
      );
    if (this.debug) {
      const secrets = [...this.secrets, options.apiKey ?? ''];
      options.logger = {
        debug: (line) => writeHumanLine(this.io.stderr, `[debug] ${redact(line, secrets)}`),
      };
    }
    return options;
  }

  /**
   * The client, created once per run. Each API checks its key before its first use (see
   * {@link withKeyCheck}): with none, the run stops with exit 2 and a hint, and nothing is sent.
   * With `api`, that API's key is checked now, for a command that uses the API only later (e.g.
   * `webhooks listen --confirm`, when an event comes in).
   */
  async client(api?: ApiInterface): Promise<SvcClient> {
    this.clientPromise ??= (async () => {
      const options = await this.resolveOptions();
      const { SvcClient } = await import('../client.js');
      const client = new SvcClient(options);
      this.cleanups.push(() => client.close());
      return withKeyCheck(client, (used, hasKey) => this.checkKey(used, hasKey));
    })();
    const client = await this.clientPromise;
    if (api) this.checkKey(api, client.hasKey(api));
    return client;
  }

  /** Stops the run when an API is about to be used without a key; else goes on (saying once if a broken config file was skipped). */
  private checkKey(api: ApiInterface, hasKey: boolean): void {
    if (!hasKey) throw new UsageError(this.missingKeyLine(api));
    this.warnBrokenConfig();
  }

  /** The one line for an API used without a key: where a key can come from. */
  private missingKeyLine(api: ApiInterface): string {
    const own = OWN_KEY[api];
    const where = this.profileName === 'default' ? '' : ` in profile '${this.profileName}'`;
    const alternative = own ? `, or ${own.setting} / ${own.env} for this API only` : '';
    return `no API key for the ${own?.label ?? 'tax-validation'} API${where}, so nothing was sent: run \`svc config set api-key\` or set SVC_API_KEY (or use --api-key${alternative})${this.brokenConfigNote()}`;
  }

  /** Prints data to stdout in the chosen format. */
  print(data: unknown, view: () => TableView): Promise<void> {
    return printData(this.io.stdout, this.format, data, view, { color: this.color, width: this.tableWidth });
  }

  /**
   * A human line on stdout (a verdict, a problem, a head, a token for `$(...)`): control
   * characters escaped by {@link writeHumanLine}, like every line on stderr, so a string from an
   * archive, a response or a file cannot drive the terminal. Not redacted: stdout carries what
   * was asked for (a token may contain `ak_`). Data formats use {@link data} instead.
   */
  line(text: string): void {
    writeHumanLine(this.io.stdout, text);
  }

  /**
   * Data on stdout written exactly as given (JSON built with `jsonForTerminal`, NDJSON, a script):
   * the bytes a program reads. Waits for the stream to drain when it is full.
   */
  async data(text: string): Promise<void> {
    if (!this.io.stdout.write(text)) await new Promise((resolve) => this.io.stdout.once('drain', resolve));
  }

  /** stdout as a stream, for a command that streams data (CSV, NDJSON) through a writer of its own. */
  get dataOut(): Writable {
    return this.io.stdout;
  }

  /**
   * A line on stderr unless `--quiet`. Like every human line it redacts keys and shows control
   * characters escaped, so a server or file string cannot drive the terminal.
   */
  info(line: string): void {
    if (!this.quiet) writeHumanLine(this.io.stderr, redact(line, this.secrets));
  }

  /** A line on stderr shown even with `--quiet` (what a running command listens on), redacted and escaped as {@link info}. */
  notice(line: string): void {
    writeHumanLine(this.io.stderr, redact(line, this.secrets));
  }

  /** A warning on stderr (shown even with `--quiet`), redacted and escaped as {@link info}. */
  warn(line: string): void {
    writeHumanLine(this.io.stderr, `warning: ${redact(line, this.secrets)}`);
  }

  /** A `--debug` line on stderr, redacted and escaped as {@link info}. */
  debugLine(line: string): void {
    if (this.debug) writeHumanLine(this.io.stderr, `[debug] ${redact(line, this.secrets)}`);
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
