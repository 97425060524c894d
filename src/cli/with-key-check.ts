import type { SvcClient } from '../client.js';
import type { ApiInterface } from '../core/credentials.js';

/** The sub-client of each API, by property name. */
const API_OF: Readonly<Record<string, ApiInterface>> = {
  tax: 'tax',
  audit: 'audit',
  botCheck: 'captcha',
  legacyBotCheck: 'legacy',
};

/** Called before an API is used: `hasKey` says whether a key is configured for it; may throw. */
export type KeyCheck = (api: ApiInterface, hasKey: boolean) => void;

/** Whether a call passes a (deprecated) legacy access token instead of a key. */
const hasAccessToken = (args: unknown[]) => {
  const last = args.at(-1);
  return (
    typeof last === 'object' && last !== null && (last as { accessToken?: unknown }).accessToken !== undefined
  );
};

/**
 * The client with a local key check in front of each API: reading `client.tax`, `client.audit`
 * or `client.botCheck` first calls `check(api, hasKey)`, so a command that uses an API without its
 * key stops before anything is sent, whichever command it is. The legacy API may instead be called
 * with an access token (oldest widgets), so there the check runs per call and a call that passes
 * `accessToken` counts as keyed. Methods of the client itself run on the client, not the proxy
 * (its credentials are a private field).
 */
export function withKeyCheck(client: SvcClient, check: KeyCheck): SvcClient {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      const api =
        typeof property === 'string' && Object.hasOwn(API_OF, property) ? API_OF[property] : undefined;
      if (api === undefined) return typeof value === 'function' ? value.bind(target) : value;
      const hasKey = target.hasKey(api);
      if (api !== 'legacy' || hasKey) {
        check(api, hasKey);
        return value;
      }
      const legacy = value as object;
      return new Proxy(legacy, {
        get(sub, name) {
          const member: unknown = Reflect.get(sub, name, sub);
          if (typeof member !== 'function') return member;
          return (...args: unknown[]) => {
            check(api, hasAccessToken(args));
            return member.apply(sub, args);
          };
        },
      });
    },
  });
}
