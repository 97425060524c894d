import { readFileSync } from 'node:fs';
import { curlVariable } from '../client-env.js';
import { SvcError } from '../core/errors/error-classes.js';
import { type ProxySettings, parseProxyUrl } from '../core/proxy-rules.js';
import { redact } from '../core/redact.js';
import { pemCertificates } from '../core/transport/pem.js';
import { type ProfileValues, trimmedValue } from './config-store.js';
import { UsageError } from './usage-error.js';

/** What the network settings are resolved from: the run's flags, environment and profile. */
export interface NetworkInputs {
  /** `--proxy` as given (an empty value means: no proxy, not even the environment's). */
  proxyFlag: string | undefined;
  /** `--ca-file` as given. */
  caFileFlag: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  profile: ProfileValues | undefined;
  profileName: string;
}

/** The proxy of a run and where it came from, in words (`--proxy`, `HTTPS_PROXY`, `profile 'work'`, `none`). */
export interface ResolvedProxy {
  settings: ProxySettings | undefined;
  source: string;
}

/** Checks a proxy URL now, so a bad one is a usage error (exit 2) naming where it came from. */
function checked(value: string, label: string): string {
  try {
    parseProxyUrl(value, label);
  } catch (error) {
    if (error instanceof SvcError) throw new UsageError(error.message);
    throw error;
  }
  return value;
}

/**
 * The proxy of a run, as flag > env > profile > none (the rule of every setting):
 * - `--proxy URL`: that proxy for http and https; `--proxy ''` turns proxies off.
 * - env: `https_proxy`/`HTTPS_PROXY` for https URLs, `http_proxy`/`HTTP_PROXY` for http URLs
 *   (lower case wins, as in curl; neither stands in for the other; `ALL_PROXY` is not read).
 * - profile key `proxy`: that proxy for both schemes.
 * `no_proxy`/`NO_PROXY` applies whichever source named the proxy, as curl honours it with `--proxy`.
 */
export function resolveProxy(inputs: NetworkInputs): ResolvedProxy {
  const { env } = inputs;
  const noProxy = curlVariable(env, 'NO_PROXY');
  const withNoProxy = (settings: ProxySettings, source: string): ResolvedProxy => ({
    settings: noProxy ? { ...settings, noProxy: noProxy.value } : settings,
    source,
  });
  if (inputs.proxyFlag !== undefined) {
    const flag = trimmedValue(inputs.proxyFlag);
    if (flag === undefined) return { settings: undefined, source: "none (--proxy '')" };
    checked(flag, '--proxy');
    return withNoProxy({ httpsProxy: flag, httpProxy: flag }, '--proxy');
  }
  const https = curlVariable(env, 'HTTPS_PROXY');
  const http = curlVariable(env, 'HTTP_PROXY');
  if (https || http) {
    const settings: ProxySettings = {};
    if (https) settings.httpsProxy = checked(https.value, https.name);
    if (http) settings.httpProxy = checked(http.value, http.name);
    const names = [https?.name, http?.name].filter((n): n is string => n !== undefined);
    return withNoProxy(settings, names.join(', '));
  }
  const profile = inputs.profile?.proxy;
  if (profile !== undefined) {
    const label = `proxy (profile '${inputs.profileName}')`;
    checked(profile, label);
    return withNoProxy({ httpsProxy: profile, httpProxy: profile }, `profile '${inputs.profileName}'`);
  }
  return { settings: undefined, source: 'none' };
}

/** The CA file of a run, as flag > env `SVC_CA_FILE` > profile `ca-file`, and where it came from. */
export function caFileOf(inputs: NetworkInputs): { path: string; source: string } | undefined {
  const flag = trimmedValue(inputs.caFileFlag);
  if (flag !== undefined) return { path: flag, source: '--ca-file' };
  const env = trimmedValue(inputs.env.SVC_CA_FILE);
  if (env !== undefined) return { path: env, source: 'SVC_CA_FILE' };
  const profile = inputs.profile?.['ca-file'];
  if (profile !== undefined) return { path: profile, source: `ca-file (profile '${inputs.profileName}')` };
  return undefined;
}

/**
 * The certificates of a PEM file, one PEM text each.
 *
 * @throws {UsageError} naming the file and its source when it cannot be read or holds no PEM certificate.
 */
export function readCaFile(path: string, source: string): string[] {
  const label = source === '--ca-file' ? `--ca-file ${path}` : `${source} ${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`;
    throw new UsageError(`${redact(label)}: the file ${why}`);
  }
  const certificates = pemCertificates(text);
  if (certificates.length === 0) {
    throw new UsageError(`${redact(label)}: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return certificates;
}

/**
 * The passwords of every proxy URL the run could use, as written and decoded,
 * for redaction: a line that shows one without its URL still hides it. Never throws.
 */
export function proxySecrets(inputs: NetworkInputs): string[] {
  const values = [
    inputs.proxyFlag,
    ...['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'].map((name) => inputs.env[name]),
    inputs.profile?.proxy,
  ];
  const out: string[] = [];
  for (const value of values) {
    const text = trimmedValue(value);
    if (text === undefined || !text.includes('@')) continue;
    try {
      const url = parseProxyUrl(text);
      if (url.password === '') continue;
      out.push(url.password);
      const decoded = safeDecode(url.password);
      if (decoded !== url.password) out.push(decoded);
    } catch {
      // Not a URL: nothing to take apart (its error line is redacted as a whole).
    }
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
