import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { maskKey } from '../core/redact.js';
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
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

const SECRET_KEYS = new Set<ConfigKey>(['api-key', 'audit-api-key', 'captcha-api-key', 'legacy-api-key']);

/** Whether a setting is a secret (shown masked, read from stdin when no value is given). */
export function isSecretKey(key: ConfigKey): boolean {
  return SECRET_KEYS.has(key);
}

/** Checks a setting name, or throws a usage error listing the valid ones. */
export function asConfigKey(name: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(name)) return name as ConfigKey;
  throw new UsageError(`unknown setting '${name}'; valid settings: ${CONFIG_KEYS.join(', ')}`);
}

/** A value as it may be shown: secrets masked. */
export function shownValue(key: ConfigKey, value: string): string {
  return isSecretKey(key) ? maskKey(value) : value;
}

/** The config folder: `$XDG_CONFIG_HOME/svc`, else `~/.config/svc`. */
export function configDir(env: Record<string, string | undefined>): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'svc');
}

type Profiles = Record<string, Partial<Record<ConfigKey, string>>>;

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

/** Profiles in a 0600 file inside a 0700 folder, on conf. */
export async function openConfig(env: Record<string, string | undefined>) {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const Conf = await importConf();
  const store = new Conf<{ profiles: Profiles }>({
    cwd: dir,
    configName: 'config',
    projectName: 'svc',
    projectSuffix: '',
    configFileMode: 0o600,
    defaults: { profiles: {} },
  });
  return {
    path: store.path,
    get(profile: string, key: ConfigKey): string | undefined {
      return store.get('profiles')[profile]?.[key];
    },
    set(profile: string, key: ConfigKey, value: string): void {
      const profiles = store.get('profiles');
      store.set('profiles', { ...profiles, [profile]: { ...profiles[profile], [key]: value } });
      chmodSync(store.path, 0o600);
    },
    unset(profile: string, key: ConfigKey): boolean {
      const profiles = store.get('profiles');
      const current = profiles[profile];
      if (!current || current[key] === undefined) return false;
      const { [key]: _removed, ...rest } = current;
      store.set('profiles', { ...profiles, [profile]: rest });
      return true;
    },
    profile(profile: string): Partial<Record<ConfigKey, string>> {
      return store.get('profiles')[profile] ?? {};
    },
    profiles(): Profiles {
      return store.get('profiles');
    },
  };
}

export type ConfigStore = Awaited<ReturnType<typeof openConfig>>;
