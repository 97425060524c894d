import type { SvcClientOptions } from '../client-options.js';
import {
  ConfigFileError,
  type ConfigKey,
  type ConfigStore,
  configFile,
  missingProfileLine,
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
import { knownSecrets } from './known-secrets.js';
import {
  caFileOf,
  type NetworkInputs,
  type ResolvedProxy,
  readCaFile,
  resolveProxy,
} from './network-settings.js';
import { chooseOutputFormat } from './output-contract.js';
import { type OutputFormat, parseOutputFormat } from './output-format.js';
import { parseIntOption, UsageError } from './usage-error.js';

/** The demo key the sandbox uses. */
export const SANDBOX_KEY = 'ak_demo_project';

/**
 * The settings of one run, resolved as flag > env > profile: the one place that reads the
 * environment and the config file. Warnings (a config file too open, broken or skipped) go to
 * `warn`, which the output part writes.
 */
export class Settings {
  readonly flags: GlobalFlags;
  /** The command's path (`audit list`), by which the output contract is looked up. */
  readonly command: string | undefined;
  /** The `-o` formats the command honours (registry.ts); undefined: any. */
  readonly formats: readonly OutputFormat[] | undefined;
  private readonly io: CliIO;
  private readonly warn: (line: string) => void;
  private profileValues: ProfileValues | undefined;
  /** The config file when it is broken and was skipped (flags and env may still suffice). */
  private brokenConfig: ConfigFileError | undefined;
  private brokenConfigWarned = false;
  /** Keys a command read from elsewhere (a projects file's variables), redacted like the others. */
  private readonly extraSecrets: string[] = [];
  /** The certificates of the CA file, read once (`null`: no CA file). */
  private caPems: string[] | null | undefined;

  constructor(
    io: CliIO,
    flags: GlobalFlags,
    command: string | undefined,
    warn: (line: string) => void,
    formats?: readonly OutputFormat[],
  ) {
    this.io = io;
    this.flags = flags;
    this.command = command;
    this.formats = formats;
    this.warn = warn;
  }

  get debug(): boolean {
    return Boolean(this.flags.debug);
  }

  get quiet(): boolean {
    return Boolean(this.flags.quiet);
  }

  /**
   * Whether colour may be used at all: not with `--no-color`, nor with `NO_COLOR` set to any
   * non-empty value (no-color.org). The spinner on stderr follows this; tables also need stdout
   * to be a terminal ({@link color}).
   */
  get colorAllowed(): boolean {
    return this.flags.color !== false && !this.io.env.NO_COLOR;
  }

  /** Colour in tables on stdout: {@link colorAllowed} and stdout is a terminal. */
  get color(): boolean {
    return this.colorAllowed && this.io.stdoutIsTTY;
  }

  /** An environment variable as set (empty counts as unset), for what a command reads by name. */
  env(name: string): string | undefined {
    return this.io.env[name] || undefined;
  }

  /** The config file's path. */
  get configPath(): string {
    return configFile(this.io.env, this.platform);
  }

  /** The operating system the run is on (tests inject `win32`). */
  private get platform(): NodeJS.Platform {
    return this.io.platform ?? process.platform;
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
      securePermissions(this.io.env, (line) => this.warn(line), this.platform);
      profiles = readProfiles(configFile(this.io.env, this.platform));
    } catch (error) {
      // A profile asked for by name cannot come from a broken file: that stops the run.
      if (!(error instanceof ConfigFileError) || this.profileAsked) throw error;
      this.brokenConfig = error;
    }
    const values = profiles ? profileOf(profiles, name) : undefined;
    if (values === undefined && this.profileAsked && !(name === 'default' && profiles === undefined)) {
      throw new UsageError(missingProfileLine(name, profiles, configFile(this.io.env, this.platform)));
    }
    const trimmed: ProfileValues = {};
    for (const [key, value] of Object.entries(values ?? {}) as Array<[ConfigKey, string]>) {
      const kept = trimmedValue(value);
      if (kept !== undefined) trimmed[key] = kept;
    }
    this.profileValues = trimmed;
    return trimmed;
  }

  /** What to add to an error when a broken config file was skipped (its settings might have helped). */
  brokenConfigNote(): string {
    const broken = this.brokenConfig;
    return broken
      ? `; config file ${broken.path} ${broken.reason} and was not read: ${ConfigFileError.fix()}`
      : '';
  }

  /** Says once that a broken config file was skipped, when the run goes on without it. */
  warnBrokenConfig(): void {
    const broken = this.brokenConfig;
    if (!broken || this.brokenConfigWarned) return;
    this.brokenConfigWarned = true;
    this.warn(`ignoring config file ${broken.path}: it ${broken.reason} (${ConfigFileError.fix()})`);
  }

  /** The config store, for `svc config`; permissions tightened with a warning. */
  config(): Promise<ConfigStore> {
    return openConfig(this.io.env, { warn: (line) => this.warn(line), platform: this.platform });
  }

  /**
   * A setting resolved as flag > env > profile. Values lose surrounding white space (a key read
   * from a file or `$(cat key)` with its line break); an empty value counts as unset.
   */
  private pick(flag: string | undefined, envName: string, key: ConfigKey): string | undefined {
    return trimmedValue(flag) ?? trimmedValue(this.io.env[envName]) ?? this.profileValues?.[key];
  }

  /**
   * The credentials of `svc audit ship`'s destination, each env > profile: `SVC_SHIP_API_KEY`
   * (`ship-api-key`), `SVC_SHIP_USERNAME` and `SVC_SHIP_PASSWORD` (`ship-username`,
   * `ship-password`), `SVC_SHIP_TOKEN` (`ship-token`). Never flags: a flag's value shows in `ps`
   * and the shell's history. Redacted from every line like the API keys.
   */
  async shipCredentials(): Promise<{
    apiKey?: string;
    username?: string;
    password?: string;
    token?: string;
  }> {
    await this.loadProfile();
    const found = {
      apiKey: this.pick(undefined, 'SVC_SHIP_API_KEY', 'ship-api-key'),
      username: this.pick(undefined, 'SVC_SHIP_USERNAME', 'ship-username'),
      password: this.pick(undefined, 'SVC_SHIP_PASSWORD', 'ship-password'),
      token: this.pick(undefined, 'SVC_SHIP_TOKEN', 'ship-token'),
    };
    // Only the ones set: an unset credential is an absent member, not `undefined`.
    return Object.fromEntries(Object.entries(found).filter(([, value]) => value !== undefined));
  }

  /**
   * The secrets `svc audit receive` checks pushes with, each env > profile: `SVC_PUSH_SECRET`
   * (`push-secret`), Standard Webhooks secrets, and `SVC_PUSH_BEARER` (`push-bearer`), bearer
   * secrets. Several (a rotation) are separated by spaces or commas. Never flags; each one is
   * redacted from every line.
   */
  async pushSecrets(): Promise<{ secrets: string[]; bearer: string[] }> {
    await this.loadProfile();
    const list = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter((part) => part !== '');
    const secrets = list(this.pick(undefined, 'SVC_PUSH_SECRET', 'push-secret'));
    const bearer = list(this.pick(undefined, 'SVC_PUSH_BEARER', 'push-bearer'));
    for (const secret of [...secrets, ...bearer]) this.addSecret(secret);
    return { secrets, bearer };
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

  /** What the proxy and CA settings are resolved from (network-settings.ts holds the rules). */
  private get networkInputs(): NetworkInputs {
    return {
      proxyFlag: this.flags.proxy,
      caFileFlag: this.flags.caFile,
      env: this.io.env,
      profile: this.profileValues,
      profileName: this.profileName,
    };
  }

  /**
   * The proxies of this run and where they came from in words (`--proxy`, `HTTPS_PROXY`,
   * `profile 'default'`, `none`): flag > env (`https_proxy`/`HTTPS_PROXY`, `http_proxy`/
   * `HTTP_PROXY`, lower case first; `NO_PROXY` applies to each source) > profile `proxy` > none.
   * Reads the profile {@link loadProfile} loaded (none before).
   *
   * @throws {UsageError} for a value that is not an http:// or https:// proxy URL.
   */
  proxySettings(): ResolvedProxy {
    return resolveProxy(this.networkInputs);
  }

  /** Where the CA file comes from (`--ca-file`, `SVC_CA_FILE`, `ca-file (profile 'x')`) and its path, or undefined. */
  caFile(): { path: string; source: string } | undefined {
    return caFileOf(this.networkInputs);
  }

  /**
   * The PEM certificates of `--ca-file` / `SVC_CA_FILE` / profile `ca-file`, read once, to add
   * to Node's roots; undefined without a CA file.
   *
   * @throws {UsageError} when the file cannot be read or holds no PEM certificate.
   */
  caCertificates(): string[] | undefined {
    if (this.caPems === undefined) {
      const file = this.caFile();
      this.caPems = file ? readCaFile(file.path, file.source) : null;
    }
    return this.caPems ?? undefined;
  }

  /**
   * Output format: flag > env `SVC_OUTPUT` > profile > table on a TTY, json otherwise, held to
   * the command's output contract (registry.ts): a flag the command does not honour is a
   * usage error; a preference it does not honour gives way to the command's own default.
   */
  get format(): OutputFormat {
    const preference = this.pick(undefined, 'SVC_OUTPUT', 'output');
    return chooseOutputFormat(this.command, this.formats, {
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

  /** Adds a key to {@link secrets}, so no output line shows it. */
  addSecret(key: string): void {
    this.extraSecrets.push(key);
  }

  /** Every key this run knows, for redaction (as sent: trimmed). */
  get secrets(): string[] {
    return knownSecrets(this.extraSecrets, this.flags.apiKey, this.networkInputs);
  }

  /**
   * Client options from flags, env and profile (the profile is loaded first); with `sandboxUrl`,
   * that server and its demo key unless `--api-key` is given. No key is required here: the client
   * part checks the key of each API before its first use.
   */
  async clientOptions(sandboxUrl: string | undefined): Promise<SvcClientOptions> {
    await this.loadProfile();
    const options: SvcClientOptions = {
      baseUrl: sandboxUrl ?? this.pick(this.flags.baseUrl, 'SVC_BASE_URL', 'base-url'),
      userAgentSuffix: 'svc-cli',
    };
    if (sandboxUrl) options.apiKey = trimmedValue(this.flags.apiKey) ?? SANDBOX_KEY;
    else Object.assign(options, this.keys());
    if (!options.baseUrl) {
      throw new UsageError(
        `no base URL: use --base-url, SVC_BASE_URL, \`svc config set base-url URL\`, or --sandbox${this.brokenConfigNote()}`,
      );
    }
    return { ...options, ...this.limits(), ...this.network(sandboxUrl !== undefined) };
  }

  /**
   * The proxy and extra CA certificates of the client: none for `--sandbox` (its server is in
   * this process); else {@link proxySettings} (`false` when none, so nothing else reads the
   * environment) and {@link caCertificates}.
   */
  private network(sandbox: boolean): Pick<SvcClientOptions, 'proxy' | 'ca'> {
    if (sandbox) return { proxy: false };
    const ca = this.caCertificates();
    return { proxy: this.proxySettings().settings ?? false, ...(ca && { ca }) };
  }

  /** The key of each API: `--api-key` or the shared key, and each API's own key. */
  private keys(): Pick<SvcClientOptions, 'apiKey' | 'auditApiKey' | 'captchaApiKey' | 'legacyApiKey'> {
    const key = (k: ConfigKey, env: string) => this.pick(undefined, env, k);
    return {
      apiKey: this.pick(this.flags.apiKey, 'SVC_API_KEY', 'api-key'),
      auditApiKey: key('audit-api-key', 'SVC_AUDIT_API_KEY'),
      captchaApiKey: key('captcha-api-key', 'SVC_CAPTCHA_API_KEY'),
      legacyApiKey: key('legacy-api-key', 'SVC_LEGACY_API_KEY'),
    };
  }

  /** `--timeout` (or `SVC_TIMEOUT`, profile `timeout`), checked; undefined when not set. */
  timeoutMs(): number | undefined {
    return this.limits().timeoutMs;
  }

  /** `--timeout`, `--deadline` and `--max-retries` (or their env and profile settings), checked. */
  private limits(): Pick<SvcClientOptions, 'timeoutMs' | 'maxRetries' | 'deadlineMs'> {
    const deadlineMs = this.intSetting(this.flags.deadline, 'SVC_DEADLINE', 'deadline', 1);
    const timeoutMs = this.intSetting(this.flags.timeout, 'SVC_TIMEOUT', 'timeout', 1);
    const maxRetries = this.intSetting(this.flags.maxRetries, 'SVC_MAX_RETRIES', 'max-retries', 0, 10);
    return {
      ...(deadlineMs !== undefined && { deadlineMs }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(maxRetries !== undefined && { maxRetries }),
    };
  }

  /** An integer setting ({@link pick}) checked against `min`..`max`, named as the user wrote it; undefined when unset. */
  private intSetting(
    flag: string | undefined,
    envName: string,
    key: ConfigKey,
    min: number,
    max?: number,
  ): number | undefined {
    const value = this.pick(flag, envName, key);
    return value === undefined
      ? undefined
      : parseIntOption(value, this.settingLabel(flag, envName, key), min, max);
  }
}
