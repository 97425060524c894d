import { CONFIG_KEYS, type ConfigKey, isSecretKey, shownValue } from '../config-store.js';
import type { CommandContext } from '../context.js';
import { readAll } from '../io.js';
import { OUTPUT_FORMATS } from '../output-format.js';
import { parseIntOption, UsageError } from '../usage-error.js';

function checkValue(key: ConfigKey, value: string): string {
  if (value === '') throw new UsageError(`${key} must not be empty`);
  if (key === 'base-url') {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`base-url is not a valid URL: ${value}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError('base-url must use http or https');
  }
  if (key === 'output' && !(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  if (key === 'timeout') parseIntOption(value, 'timeout', 1);
  if (key === 'max-retries') parseIntOption(value, 'max-retries', 0, 10);
  if (isSecretKey(key) && /\s/.test(value)) throw new UsageError(`${key} must not contain white space`);
  return value;
}

/** `svc config set <key> [value]`: secrets may come from stdin so they never sit in shell history. */
export async function configSet(
  ctx: CommandContext,
  key: ConfigKey,
  value: string | undefined,
): Promise<number> {
  let text = value;
  if (text === undefined) {
    if (!isSecretKey(key)) throw new UsageError(`a value is required for ${key}`);
    if (ctx.io.stdinIsTTY) ctx.info(`Paste the ${key} and press Ctrl-D:`);
    text = (await readAll(ctx.io.stdin)).trim();
  } else if (isSecretKey(key)) {
    ctx.warn(
      `a key given on the command line may stay in shell history; pipe it instead: svc config set ${key}`,
    );
  }
  const store = await ctx.config();
  store.set(ctx.profileName, key, checkValue(key, text));
  ctx.info(`Saved ${key} = ${shownValue(key, text)} in profile '${ctx.profileName}' (${store.path})`);
  return 0;
}

/** `svc config get <key>`: one value; keys masked. */
export async function configGet(ctx: CommandContext, key: ConfigKey): Promise<number> {
  const value = (await ctx.config()).get(ctx.profileName, key);
  if (value === undefined) {
    ctx.info(`${key} is not set in profile '${ctx.profileName}'`);
    return 1;
  }
  ctx.io.stdout.write(`${shownValue(key, value)}\n`);
  return 0;
}

/** `svc config unset <key>`. */
export async function configUnset(ctx: CommandContext, key: ConfigKey): Promise<number> {
  const removed = (await ctx.config()).unset(ctx.profileName, key);
  ctx.info(removed ? `Removed ${key} from profile '${ctx.profileName}'` : `${key} was not set`);
  return 0;
}

/** `svc config list`: every profile, keys masked. */
export async function configList(ctx: CommandContext): Promise<number> {
  const profiles = (await ctx.config()).profiles();
  const rows: Array<{ profile: string; key: string; value: string }> = [];
  for (const [profile, values] of Object.entries(profiles)) {
    for (const key of CONFIG_KEYS) {
      const value = values[key];
      if (value !== undefined) rows.push({ profile, key, value: shownValue(key, value) });
    }
  }
  await ctx.print(rows, () => ({
    head: ['profile', 'setting', 'value'],
    rows: rows.map((r) => [r.profile, r.key, r.value]),
  }));
  return 0;
}

/** `svc config path`. */
export async function configPath(ctx: CommandContext): Promise<number> {
  ctx.io.stdout.write(`${(await ctx.config()).path}\n`);
  return 0;
}
