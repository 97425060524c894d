import { proxyFor, proxyRoutes } from '../../core/proxy-rules.js';
import { redact } from '../../core/redact.js';
import type { ApiDiagnosis } from '../../doctor.js';
import type { ConfigKey } from '../config-store.js';
import type { CommandContext } from '../context.js';
import { inCliWords } from '../error-line.js';
import { EXIT } from '../exit-codes.js';
import type { ResolvedProxy } from '../network-settings.js';
import type { TableView } from '../output-format.js';
import { SANDBOX_KEY } from '../settings.js';

/** One resolved setting: its value as shown (never a key) and where it came from. */
interface Setting {
  name: string;
  value: string;
  source: string;
}

const KEY_SETTINGS: ReadonlyArray<[ConfigKey, string]> = [
  ['api-key', 'SVC_API_KEY'],
  ['audit-api-key', 'SVC_AUDIT_API_KEY'],
  ['captcha-api-key', 'SVC_CAPTCHA_API_KEY'],
  ['legacy-api-key', 'SVC_LEGACY_API_KEY'],
];

/** The settings doctor reports, each with its origin: flag, env, profile, sandbox or default. */
async function settings(ctx: CommandContext, baseUrl: string | undefined): Promise<Setting[]> {
  const profile = await ctx.settings.loadProfile();
  const sandbox = Boolean(ctx.settings.flags.sandbox);
  const out: Setting[] = [
    {
      name: 'base-url',
      value: baseUrl ?? 'not set',
      source: sandbox
        ? 'sandbox'
        : (ctx.settings.settingSource(ctx.settings.flags.baseUrl, 'SVC_BASE_URL', 'base-url') ?? '-'),
    },
  ];
  for (const [key, env] of KEY_SETTINGS) {
    const flag = key === 'api-key' ? ctx.settings.flags.apiKey : undefined;
    let source =
      sandbox && key === 'api-key' && flag === undefined
        ? 'sandbox'
        : ctx.settings.settingSource(flag, env, key);
    if (sandbox && key !== 'api-key') source = undefined;
    const isSet = source !== undefined;
    out.push({
      name: key,
      value: isSet
        ? source === 'sandbox'
          ? `set (${SANDBOX_KEY})`
          : 'set'
        : key === 'api-key'
          ? 'not set'
          : 'not set (uses api-key)',
      source: source ?? '-',
    });
  }
  for (const [key, env, flag, fallback] of [
    ['timeout', 'SVC_TIMEOUT', ctx.settings.flags.timeout, 'client default'],
    ['max-retries', 'SVC_MAX_RETRIES', ctx.settings.flags.maxRetries, 'client default'],
    ['deadline', 'SVC_DEADLINE', ctx.settings.flags.deadline, 'none'],
  ] as const) {
    const source = ctx.settings.settingSource(flag, env, key);
    const value = flag ?? ctx.settings.env(env) ?? profile[key];
    out.push({ name: key, value: source && value ? value : fallback, source: source ?? 'default' });
  }
  out.push(...networkSettings(ctx, sandbox));
  out.push({
    name: 'profile',
    value: ctx.settings.profileName,
    source:
      ctx.settings.flags.profile !== undefined
        ? 'flag'
        : ctx.settings.env('SVC_PROFILE')
          ? 'env SVC_PROFILE'
          : 'default',
  });
  return out;
}

/** The proxy, no-proxy and CA file settings, passwords hidden (`***@`). */
function networkSettings(ctx: CommandContext, sandbox: boolean): Setting[] {
  if (sandbox) return [{ name: 'proxy', value: 'none (the sandbox is in this process)', source: 'sandbox' }];
  const { settings, source } = ctx.settings.proxySettings();
  const https = settings?.httpsProxy;
  const http = settings?.httpProxy;
  const value =
    https === undefined && http === undefined
      ? 'none (direct)'
      : https === http
        ? redact(https ?? '')
        : [https && `https: ${redact(https)}`, http && `http: ${redact(http)}`].filter(Boolean).join(', ');
  const out: Setting[] = [{ name: 'proxy', value, source }];
  if (settings?.noProxy) out.push({ name: 'no-proxy', value: settings.noProxy, source: 'NO_PROXY' });
  const ca = ctx.settings.caFile();
  out.push(
    ca
      ? { name: 'ca-file', value: ca.path, source: ca.source }
      : { name: 'ca-file', value: "none (Node's roots)", source: 'default' },
  );
  return out;
}

/** How the probes went: through which proxy (from where, whether it answered), or direct and why. */
function route(a: ApiDiagnosis, proxy: ResolvedProxy, baseUrl: string | undefined): string {
  if (a.proxy !== null) {
    const answered = a.proxyAnswered === false ? 'the proxy does not answer' : 'the proxy answers';
    return `through proxy ${a.proxy} (from ${proxy.source}; ${answered})`;
  }
  const settings = proxy.settings;
  if (!settings || baseUrl === undefined) return 'direct';
  const url = new URL(baseUrl);
  if (proxyFor(url, proxyRoutes({ ...settings, noProxy: undefined })))
    return 'direct (NO_PROXY lists its host)';
  const variable = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  return `direct (${proxy.source} names no proxy for ${url.protocol}// URLs, which take ${variable})`;
}

/** Whether the base URL answered; not reached when the proxy failed first. */
function reach(a: ApiDiagnosis): string {
  if (a.reachable) return `base URL answers (${a.status})`;
  return a.proxy !== null && a.explanation.startsWith('the proxy ')
    ? 'base URL not reached'
    : 'base URL does not answer';
}

function view(
  settingsList: Setting[],
  apis: ApiDiagnosis[],
  proxy: ResolvedProxy,
  baseUrl: string | undefined,
): TableView {
  return {
    head: ['check', 'result', 'detail'],
    rows: [
      ...apis.map((a) => [
        `${a.api} API`,
        a.ok ? 'ok' : 'FAIL',
        `${route(a, proxy, baseUrl)}; ${reach(a)}; ${a.explanation}`,
      ]),
      ...settingsList.map((s) => [s.name, s.value, `from ${s.source}`]),
    ],
  };
}

/**
 * `svc doctor`: per API whether the base URL answers and the key is accepted (reads only), through
 * which proxy (and whether it answered), and where each setting came from. Exit 0 when every API
 * is fine, 1 otherwise.
 */
export async function doctor(ctx: CommandContext): Promise<number> {
  const options = await ctx.client.options();
  const list = await settings(ctx, options.baseUrl === undefined ? undefined : String(options.baseUrl));
  const { diagnose } = await import('../../doctor.js');
  const diagnosed = await diagnose({ ...options, ...ctx.signals.abortable });
  // The explanations in the CLI's words (an untrusted certificate's fix is --ca-file here).
  const report = {
    ...diagnosed,
    apis: diagnosed.apis.map((a) => ({ ...a, explanation: inCliWords(a.explanation) })),
  };
  const proxy: ResolvedProxy = ctx.settings.flags.sandbox
    ? { settings: undefined, source: 'none' }
    : ctx.settings.proxySettings();
  const baseUrl = options.baseUrl === undefined ? undefined : String(options.baseUrl);
  await ctx.out.print({ ok: report.ok, apis: report.apis, settings: list }, () =>
    view(list, report.apis, proxy, baseUrl),
  );
  return report.ok ? EXIT.OK : EXIT.FAILURE;
}
