import type { ValidateParams } from '../../tax/client.js';
import type { PrecheckMode } from '../../tax/precheck-mode.js';
import type { MatchingOptions } from '../options/matching-options.js';
import { UsageError } from '../usage-error.js';

/** `--metadata k=v` pairs as an object; a pair without `=` or a repeated key is a usage error. */
export function parseMetadata(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--metadata takes key=value, got '${pair}'`);
    const key = pair.slice(0, eq);
    if (key in out) throw new UsageError(`--metadata key '${key}' given twice`);
    out[key] = pair.slice(eq + 1);
  }
  return out;
}

/** The matching fields of a request from CLI flags (absent flags stay absent). */
export function matchingFields(flags: MatchingOptions): Partial<ValidateParams> {
  const address = {
    ...(flags.street !== undefined && { street: flags.street }),
    ...(flags.postalCode !== undefined && { postalCode: flags.postalCode }),
    ...(flags.city !== undefined && { city: flags.city }),
    ...(flags.region !== undefined && { region: flags.region }),
    ...(flags.addressCountry !== undefined && { countryCode: flags.addressCountry.toUpperCase() }),
  };
  return {
    ...(flags.companyName !== undefined && { companyName: flags.companyName }),
    ...(Object.keys(address).length > 0 && { address }),
    ...(flags.requesterVatId !== undefined && { requesterVatId: flags.requesterVatId }),
    ...(flags.provider !== undefined && { preferredProvider: flags.provider }),
  };
}

/** `--precheck MODE` / `--no-precheck`. */
export function precheckMode(value: PrecheckMode | false | undefined): PrecheckMode {
  if (value === false) return 'off';
  const mode = String(value ?? 'structural');
  if (mode !== 'off' && mode !== 'structural' && mode !== 'strict') {
    throw new UsageError(`--precheck must be off, structural or strict, got '${mode}'`);
  }
  return mode;
}

/** A country code argument, upper-cased; anything but two letters is a usage error. */
export function countryArg(value: string): string {
  const cc = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(cc))
    throw new UsageError(`countryCode must be a 2-letter country code, got '${value}'`);
  return cc;
}

/** `--wait-timeout` in seconds (decimals allowed, 0 = do not wait) as milliseconds. */
export function waitTimeoutMs(value: string | undefined): number {
  const text = String(value ?? '60').trim();
  if (!/^\d+(\.\d+)?$/.test(text))
    throw new UsageError(`--wait-timeout takes seconds, e.g. 60 or 0.5, got '${String(value)}'`);
  return Math.round(Number(text) * 1000);
}

/** `--listen HOST:PORT` (IPv6 hosts in brackets); an empty host means 127.0.0.1. */
export function listenArg(value: string | undefined): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(String(value ?? '127.0.0.1:0'));
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new UsageError(`--listen takes HOST:PORT, got '${String(value)}'`);
  return { host: (match[1] as string).replace(/^\[|\]$/g, '') || '127.0.0.1', port };
}
