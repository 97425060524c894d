import type { ApiDiagnosis } from '../../doctor.js';
import type { ConfigKey } from '../config-store.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
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

function view(settingsList: Setting[], apis: ApiDiagnosis[]): TableView {
  return {
    head: ['check', 'result', 'detail'],
    rows: [
      ...apis.map((a) => [
        `${a.api} API`,
        a.ok ? 'ok' : 'FAIL',
        `${a.reachable ? `base URL answers (${a.status})` : 'base URL does not answer'}; ${a.explanation}`,
      ]),
      ...settingsList.map((s) => [s.name, s.value, `from ${s.source}`]),
    ],
  };
}

/**
 * `svc doctor`: per API whether the base URL answers and the key is accepted (reads only), and where
 * each setting came from. Exit 0 when every API is fine, 1 otherwise.
 */
export async function doctor(ctx: CommandContext): Promise<number> {
  const options = await ctx.client.options();
  const list = await settings(ctx, options.baseUrl === undefined ? undefined : String(options.baseUrl));
  const { diagnose } = await import('../../doctor.js');
  const report = await diagnose({ ...options, ...ctx.signals.abortable });
  await ctx.out.print({ ok: report.ok, apis: report.apis, settings: list }, () => view(list, report.apis));
  return report.ok ? EXIT.OK : EXIT.FAILURE;
}
