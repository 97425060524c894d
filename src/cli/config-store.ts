import { accessSync, chmodSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileFault } from '../core/file-faults.js';
import { maskKey, redact } from '../core/redact.js';
import { makeDirsSync } from '../node/fs/make-dirs.js';
import { UsageError } from './usage-error.js';

/** Settings a profile can hold. */
export const CONFIG_KEYS = [
  'base-url',
  'api-key',
  'audit-api-key',
  'captcha-api-key',
  'legacy-api-key',
  'output',
  'timeout',
  'max-retries',
  'deadline',
  'proxy',
  'ca-file',
  'ship-api-key',
  'ship-username',
  'ship-password',
  'ship-token',
  'push-secret',
  'push-bearer',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const SECRET_KEYS = new Set<ConfigKey>([
  'api-key',
  'audit-api-key',
  'captcha-api-key',
  'legacy-api-key',
  'ship-api-key',
  'ship-password',
  'ship-token',
  'push-secret',
  'push-bearer',
]);

/** Whether a setting is a secret (shown masked, read from stdin when no value is given). */
export function isSecretKey(key: ConfigKey): boolean {
  return SECRET_KEYS.has(key);
}

/** Checks a setting name, or throws a usage error listing the valid ones. */
export function asConfigKey(name: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(name)) return name as ConfigKey;
  throw new UsageError(`unknown setting '${name}'; valid settings: ${CONFIG_KEYS.join(', ')}`);
}

/** A value as it may be shown: keys masked, credentials in a base URL hidden. */
export function shownValue(key: ConfigKey, value: string): string {
  // A base URL with credentials (a file written before they were refused) shows them as `***@`.
  // A proxy URL's password (`http://user:pass@proxy`) is a secret: shown as `***@`.
  if (key === 'base-url' || key === 'proxy') return redact(value);
  return isSecretKey(key) ? maskKey(value) : value;
}

/** The folder used on Linux and macOS: `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
function unixConfigDir(env: Record<string, string | undefined>): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'svc');
}

/**
 * The config folder. Linux and macOS: `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. Windows:
 * `%APPDATA%\svc`, where Windows programs keep their settings (in the user's profile, roaming
 * with it); but a config file that an earlier version wrote to the Unix place
 * (`%USERPROFILE%\.config\svc`, or `XDG_CONFIG_HOME`) is still used while `%APPDATA%\svc` holds
 * none, so an upgrade loses no profile. When both exist, `%APPDATA%` wins.
 * `platform` defaults to `process.platform`.
 */
export function configDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  const unix = unixConfigDir(env);
  if (platform !== 'win32' || !env.APPDATA) return unix;
  const windows = join(env.APPDATA, 'svc');
  if (!existsSync(join(windows, 'config.json')) && existsSync(join(unix, 'config.json'))) return unix;
  return windows;
}

/** The config file: `config.json` in {@link configDir}. */
export function configFile(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): string {
  return join(configDir(env, platform), 'config.json');
}

/** The settings of one profile. */
export type ProfileValues = Partial<Record<ConfigKey, string>>;
/** Every profile by name (own properties only: a profile may be called `constructor`). */
export type Profiles = Record<string, ProfileValues>;

/**
 * The config file exists but cannot be used: not JSON, or not the `{"profiles": {...}}` that
 * `svc config` writes. The message names the file and how to fix it, never its content (it may
 * hold keys).
 */
export class ConfigFileError extends UsageError {
  override name = 'ConfigFileError';
  /** The file. */
  readonly path: string;
  /** What is wrong, e.g. `is not valid JSON`. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(`config file ${path} ${reason}: ${ConfigFileError.fix()}`);
    this.path = path;
    this.reason = reason;
  }

  /** How to get past a broken file: the same words in the error and in the warning. */
  static fix(): string {
    return 'fix it, or move it away (`svc config path` prints where it is)';
  }
}

/**
 * The config folder cannot be made or written (a home under /proc, a path through a regular
 * file, a read-only folder): one line naming the folder, the cause and the variable that moves
 * it; `svc` exits 1 (an I/O failure, not a usage error).
 */
export class ConfigFolderError extends Error {
  override name = 'ConfigFolderError';
  /** The config folder. */
  readonly path: string;

  constructor(path: string, what: string, cause: unknown, platform: NodeJS.Platform) {
    const where = (cause as NodeJS.ErrnoException)?.path;
    const at = where && where !== path ? ` at ${where}` : '';
    const fix = platform === 'win32' ? 'APPDATA' : 'XDG_CONFIG_HOME (or HOME)';
    super(`config folder ${path} ${what}: ${fileFault(cause)}${at}; point ${fix} at a folder you can write`, {
      cause,
    });
    this.path = path;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the profiles of the config file; undefined when there is none. Throws
 * {@link ConfigFileError} when the file is not JSON, or not objects of strings. Settings this
 * version does not know are skipped; values keep their surrounding white space (see
 * {@link trimmedValue}).
 */
export function readProfiles(file: string): Profiles | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // JSON.parse quotes the text in its message: never repeated here, the file may hold keys.
    throw new ConfigFileError(file, 'is not valid JSON');
  }
  const shape = 'does not hold {"profiles": {NAME: {SETTING: "value"}}}';
  if (!isRecord(data)) throw new ConfigFileError(file, shape);
  if (data.profiles === undefined) return {};
  if (!isRecord(data.profiles)) throw new ConfigFileError(file, shape);
  const profiles: Profiles = {};
  for (const [name, values] of Object.entries(data.profiles)) {
    if (!isRecord(values)) throw new ConfigFileError(file, `${shape} (profile '${name}')`);
    const kept: ProfileValues = {};
    for (const key of CONFIG_KEYS) {
      if (!Object.hasOwn(values, key)) continue;
      const value = values[key];
      if (typeof value !== 'string')
        throw new ConfigFileError(file, `${shape} (profile '${name}', setting '${key}' is not a string)`);
      kept[key] = value;
    }
    Object.defineProperty(profiles, name, { value: kept, enumerable: true, writable: true });
  }
  return profiles;
}

/** A profile by name, own properties only (`--profile __proto__` is not Object.prototype). */
export function profileOf(profiles: Profiles, name: string): ProfileValues | undefined {
  return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

/**
 * A value from the environment or a file without surrounding white space (a key pasted with its
 * line break, a file saved with CR/LF); undefined when nothing is left. White space inside stays,
 * so a broken key is still refused, not silently changed.
 */
export function trimmedValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Makes the config folder (mode 0700) when it is missing, without Node's recursive mkdir, which
 * never returns under /proc ({@link makeDirsSync}); a folder that cannot be made is a
 * {@link ConfigFolderError}.
 */
function ensureConfigFolder(dir: string, platform: NodeJS.Platform): void {
  try {
    makeDirsSync(dir, DIR_MODE);
  } catch (error) {
    throw new ConfigFolderError(dir, 'cannot be created', error, platform);
  }
}

/** A config folder the user cannot write: a {@link ConfigFolderError} before conf tries (and retries) the write. */
function ensureWritable(dir: string, platform: NodeJS.Platform): void {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ConfigFolderError(dir, 'cannot be written', error, platform);
  }
}

function tighten(path: string, mode: number, allowed: number, what: string, warn: (line: string) => void) {
  const current = statSync(path).mode & 0o777;
  if ((current & ~allowed) === 0) return;
  const octal = (m: number) => `0${m.toString(8).padStart(3, '0')}`;
  try {
    chmodSync(path, mode);
    warn(`${what} ${path} was open to other users (mode ${octal(current)}); changed to ${octal(mode)}`);
  } catch {
    warn(
      `${what} ${path} is open to other users (mode ${octal(current)}) and could not be changed: chmod ${mode.toString(8)} '${path}'`,
    );
  }
}

/**
 * Keys live in the config file, so it must be the owner's alone: a file more open than 0600 is
 * set to 0600, its folder to 0700, each with a one-line warning. A missing file or folder is left
 * alone. Not on Windows (`platform` win32, default `process.platform`), where modes do not apply:
 * every file reads back as 0666 there, and the folder in the user's profile is what keeps other
 * users out.
 */
export function securePermissions(
  env: Record<string, string | undefined>,
  warn: (line: string) => void,
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === 'win32') return;
  const file = configFile(env, platform);
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return;
  }
  // Not a regular file (a folder by mistake): reading it reports that; its mode is left alone.
  if (!isFile) return;
  tighten(configDir(env, platform), DIR_MODE, DIR_MODE, 'config folder', warn);
  tighten(file, FILE_MODE, FILE_MODE, 'config file', warn);
}

/** The signals `svc` handles itself (see main.ts). */
const OWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Imports conf without the signal hooks its file writer (atomically, through when-exit)
 * installs on first import: they re-send every SIGINT/SIGTERM to the process, which `svc`
 * counted as a second Ctrl-C and exited 130 instead of saving state and exiting 75. Its `exit`
 * hook stays, so temp files are still removed when the process exits (main exits on every
 * signal). Listeners are compared just before and after the import, so nothing else is touched;
 * later imports find the module cached and add nothing.
 */
async function importConf() {
  const before = new Map(OWN_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const module = await import('conf');
  for (const signal of OWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return module.default;
}

/** Options of {@link openConfig}. */
export interface OpenConfigOptions {
  /** Where warnings go (permissions tightened). Default: dropped. */
  warn?: (line: string) => void;
  /** The platform, which places the file and decides whether modes apply. Default `process.platform`. */
  platform?: NodeJS.Platform;
}

/**
 * Profiles in a 0600 file inside a 0700 folder, on conf (on Windows, in the user's profile:
 * modes do not apply there). Permissions more open than that are tightened with a warning; a
 * file that is not a config file throws {@link ConfigFileError} before conf reads (or rewrites) it.
 */
export async function openConfig(env: Record<string, string | undefined>, options: OpenConfigOptions = {}) {
  const platform = options.platform ?? process.platform;
  const dir = configDir(env, platform);
  const warn = options.warn ?? (() => {});
  ensureConfigFolder(dir, platform);
  if (platform !== 'win32') tighten(dir, DIR_MODE, DIR_MODE, 'config folder', warn);
  securePermissions(env, warn, platform);
  readProfiles(configFile(env, platform));
  const Conf = await importConf();
  const store = new Conf<{ profiles: Profiles }>({
    cwd: dir,
    configName: 'config',
    projectName: 'svc',
    projectSuffix: '',
    configFileMode: FILE_MODE,
    defaults: { profiles: {} },
  });
  return {
    path: store.path,
    get(profile: string, key: ConfigKey): string | undefined {
      return profileOf(store.get('profiles'), profile)?.[key];
    },
    set(profile: string, key: ConfigKey, value: string): void {
      ensureWritable(dir, platform);
      const profiles = store.get('profiles');
      const next = { ...profileOf(profiles, profile), [key]: value };
      const all = { ...profiles };
      Object.defineProperty(all, profile, { value: next, enumerable: true, writable: true });
      store.set('profiles', all);
      chmodSync(store.path, FILE_MODE);
    },
    unset(profile: string, key: ConfigKey): boolean {
      const profiles = store.get('profiles');
      const current = profileOf(profiles, profile);
      if (!current || current[key] === undefined) return false;
      ensureWritable(dir, platform);
      const { [key]: _removed, ...rest } = current;
      const all = { ...profiles };
      Object.defineProperty(all, profile, { value: rest, enumerable: true, writable: true });
      store.set('profiles', all);
      return true;
    },
    /** Whether the profile exists in the file. */
    has(profile: string): boolean {
      return profileOf(store.get('profiles'), profile) !== undefined;
    },
    profile(profile: string): Partial<Record<ConfigKey, string>> {
      return profileOf(store.get('profiles'), profile) ?? {};
    },
    profiles(): Profiles {
      return store.get('profiles');
    },
  };
}

export type ConfigStore = Awaited<ReturnType<typeof openConfig>>;

/**
 * The error line for a profile asked for (`--profile`, `SVC_PROFILE`) that `file` does not hold:
 * how to create it when there is no file, else the profiles there (the first 20).
 */
export function missingProfileLine(name: string, profiles: Profiles | undefined, file: string): string {
  if (profiles === undefined)
    return `profile '${name}' does not exist: there is no config file (${file}); create it with \`svc --profile ${name} config set api-key\``;
  const names = Object.keys(profiles).sort();
  if (names.length === 0) return `profile '${name}' does not exist: ${file} holds no profiles`;
  const shown = names.slice(0, 20).map((n) => `'${n}'`);
  const more = names.length > shown.length ? ` and ${names.length - shown.length} more` : '';
  return `profile '${name}' does not exist; profiles in ${file}: ${shown.join(', ')}${more}`;
}
