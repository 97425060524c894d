import type { SvcClientOptions } from './client-options.js';
import { processEnv } from './core/process-env.js';
import type { ProxySettings } from './core/proxy-rules.js';

/** Environment variables {@link SvcClient.fromEnv} and the `env` option read, by the option they fill. */
const CLIENT_ENV_VARS = {
  baseUrl: 'SVC_BASE_URL',
  apiKey: 'SVC_API_KEY',
  auditApiKey: 'SVC_AUDIT_API_KEY',
  captchaApiKey: 'SVC_CAPTCHA_API_KEY',
  legacyApiKey: 'SVC_LEGACY_API_KEY',
} as const;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The client options an environment supplies; an empty variable counts as unset. The proxy
 * variables give `proxy` (see {@link proxyFromEnv}).
 */
export function optionsFromEnv(env: Env): SvcClientOptions {
  const options: Record<string, unknown> = {};
  for (const [option, name] of Object.entries(CLIENT_ENV_VARS)) {
    const value = env[name];
    if (value !== undefined && value !== '') options[option] = value;
  }
  const proxy = proxyFromEnv(env);
  if (proxy) options.proxy = proxy.settings;
  return options as SvcClientOptions;
}

/** `options` without the keys whose value is `undefined`, so they do not hide an environment default. */
function defined(options: SvcClientOptions): SvcClientOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** The options a client is built with: with `env`, the environment's defaults under the options given. */
export function resolvedOptions(input: SvcClientOptions): SvcClientOptions {
  return input.env ? { ...optionsFromEnv(input.env), ...defined(input) } : input;
}

/**
 * A variable as curl reads it: the lower-case name first, then the upper-case one; empty counts
 * as unset. The value (trimmed) and the name it was found under. The CLI reads the proxy
 * variables through this too.
 */
export function curlVariable(env: Env, upper: string): { value: string; name: string } | undefined {
  for (const name of [upper.toLowerCase(), upper]) {
    const value = env[name]?.trim();
    if (value) return { value, name };
  }
  return undefined;
}

/**
 * The proxies an environment names, as curl, gh and Node read them: `https_proxy`/`HTTPS_PROXY`
 * for https URLs, `http_proxy`/`HTTP_PROXY` for http URLs (the lower-case name wins; neither
 * stands in for the other; `ALL_PROXY` is not read), `no_proxy`/`NO_PROXY` for hosts reached
 * directly. `names` lists the variables the proxies came from; undefined when no proxy is set.
 */
export function proxyFromEnv(env: Env): { settings: ProxySettings; names: string[] } | undefined {
  const https = curlVariable(env, 'HTTPS_PROXY');
  const http = curlVariable(env, 'HTTP_PROXY');
  if (!https && !http) return undefined;
  const settings: ProxySettings = {};
  if (https) settings.httpsProxy = https.value;
  if (http) settings.httpProxy = http.value;
  const noProxy = noProxyFromEnv(env);
  if (noProxy !== undefined) settings.noProxy = noProxy;
  return { settings, names: [https?.name, http?.name].filter((n): n is string => n !== undefined) };
}

/** `no_proxy`/`NO_PROXY` of an environment (the lower-case name wins), or undefined. */
export function noProxyFromEnv(env: Env): string | undefined {
  return curlVariable(env, 'NO_PROXY')?.value;
}

/**
 * Node's own switch for proxies (`NODE_USE_ENV_PROXY=1` or `--use-env-proxy`, with which newer
 * Node makes `fetch` and `http` honour the proxy variables): a client built without `proxy` in
 * such a process takes the process's proxy variables, as Node's own clients do.
 */
export function envProxyOfNode(): ProxySettings | undefined {
  const env = processEnv();
  const execArgv = (globalThis as { process?: { execArgv?: string[] } }).process?.execArgv ?? [];
  const on = env.NODE_USE_ENV_PROXY?.trim() === '1' || execArgv.includes('--use-env-proxy');
  return on ? proxyFromEnv(env)?.settings : undefined;
}
