import { CONFIG_KEYS, type ConfigKey, isSecretKey, shownValue } from '../config-store.js';
import type { CommandContext } from '../context.js';
import { readHidden } from '../hidden-prompt.js';
import { readAll } from '../io.js';
import { OUTPUT_FORMATS } from '../output-format.js';
import { parseIntOption, UsageError } from '../usage-error.js';

function checkValue(key: ConfigKey, value: string): string {
  if (value === '') throw new UsageError(`${key} must not be empty`);
  if (key === 'base-url') {
    let url: URL;
    // The value is not repeated in these errors: it may hold a password.
    try {
      url = new URL(value);
    } catch {
      throw new UsageError('base-url is not a valid URL (e.g. https://api.example.com)');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError('base-url must use http or https');
    if (url.username || url.password)
      throw new UsageError(
        'base-url must not contain a user name or password; nothing was saved (keys go in `svc config set api-key`)',
      );
  }
  if (key === 'output' && !(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  if (key === 'timeout') parseIntOption(value, 'timeout', 1);
  if (key === 'deadline') parseIntOption(value, 'deadline', 1);
  if (key === 'max-retries') parseIntOption(value, 'max-retries', 0, 10);
  if (isSecretKey(key) && /\s/.test(value)) throw new UsageError(`${key} must not contain white space`);
  return value;
}

/** A key typed at a hidden prompt on a terminal, else read whole from piped stdin; trimmed. */
async function readSecret(ctx: CommandContext, key: ConfigKey): Promise<string> {
  const { io } = ctx;
  const text = io.stdinIsTTY
    ? await readHidden({
        input: io.stdin,
        output: io.stderr,
        prompt: `${key} for profile '${ctx.settings.profileName}' (input hidden, Enter to save): `,
        signal: ctx.signals.signal,
      })
    : await readAll(io.stdin, ctx.signals.signal);
  return text.trim();
}

/**
 * `svc config set <key> [value]`: keys may come from a hidden prompt (on a terminal) or piped
 * stdin, so they never sit in shell history.
 */
export async function configSet(
  ctx: CommandContext,
  key: ConfigKey,
  value: string | undefined,
): Promise<number> {
  if (value === undefined && !isSecretKey(key)) throw new UsageError(`a value is required for ${key}`);
  if (value !== undefined && isSecretKey(key)) {
    ctx.out.warn(
      `a key given on the command line may stay in shell history; pipe it instead: svc config set ${key}`,
    );
  }
  // Opened first: a broken config file is reported before a key is typed in vain.
  const store = await ctx.settings.config();
  const text = value ?? (await readSecret(ctx, key));
  store.set(ctx.settings.profileName, key, checkValue(key, text));
  ctx.out.info(
    `Saved ${key} = ${shownValue(key, text)} in profile '${ctx.settings.profileName}' (${store.path})`,
  );
  return 0;
}

/** `svc config get <key>`: one value; keys masked. */
export async function configGet(ctx: CommandContext, key: ConfigKey): Promise<number> {
  const store = await ctx.settings.config();
  const value = store.get(ctx.settings.profileName, key);
  if (value === undefined) {
    ctx.out.info(
      store.has(ctx.settings.profileName)
        ? `${key} is not set in profile '${ctx.settings.profileName}'`
        : `profile '${ctx.settings.profileName}' does not exist (svc config list shows the profiles)`,
    );
    return 1;
  }
  ctx.out.line(shownValue(key, value));
  return 0;
}

/** `svc config unset <key>`. */
export async function configUnset(ctx: CommandContext, key: ConfigKey): Promise<number> {
  const removed = (await ctx.settings.config()).unset(ctx.settings.profileName, key);
  ctx.out.info(removed ? `Removed ${key} from profile '${ctx.settings.profileName}'` : `${key} was not set`);
  return 0;
}

/** `svc config list`: every profile, keys masked. */
export async function configList(ctx: CommandContext): Promise<number> {
  const profiles = (await ctx.settings.config()).profiles();
  const rows: Array<{ profile: string; key: string; value: string }> = [];
  for (const [profile, values] of Object.entries(profiles)) {
    for (const key of CONFIG_KEYS) {
      const value = values[key];
      if (value !== undefined) rows.push({ profile, key, value: shownValue(key, value) });
    }
  }
  await ctx.out.print(rows, () => ({
    head: ['profile', 'setting', 'value'],
    rows: rows.map((r) => [r.profile, r.key, r.value]),
  }));
  return 0;
}

/** `svc config path`: works even when the file is broken (the fix for that starts here). */
export async function configPath(ctx: CommandContext): Promise<number> {
  ctx.out.line(ctx.settings.configPath);
  return 0;
}
