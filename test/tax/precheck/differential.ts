import fc from 'fast-check';
import { expect } from 'vitest';

/** A known, explained disagreement between an oracle library and our rules. */
export interface Divergence {
  /** What the oracle gets wrong (or does differently) and where the fact comes from. */
  readonly reason: string;
  /** Which way the oracle errs: it accepts what we reject, rejects what we accept, or both. */
  readonly oracle: 'accepts' | 'rejects' | 'either';
  /** Bodies (values without country prefix) for which the divergence is expected. */
  readonly applies: (body: string) => boolean;
  /** A body that shows the divergence today (checked by the canary test). */
  readonly example: string;
}

export interface OracleCase {
  readonly generator: fc.Arbitrary<string[]>;
  readonly ours: (body: string) => boolean;
  readonly oracle: (body: string) => boolean;
  readonly divergences?: readonly Divergence[];
}

export interface DiffStats {
  compared: number;
  bothValid: number;
  allowed: number;
}

/** Compares ours and the oracle on every generated body; a disagreement must be allow-listed. */
export function runDifferential(c: OracleCase, seed: number, numRuns: number): DiffStats {
  const stats: DiffStats = { compared: 0, bothValid: 0, allowed: 0 };
  const divergences = c.divergences ?? [];
  fc.assert(
    fc.property(c.generator, (bodies) => {
      for (const body of bodies) {
        const ours = c.ours(body);
        const theirs = c.oracle(body);
        stats.compared++;
        if (ours && theirs) stats.bothValid++;
        if (ours === theirs) continue;
        const known = divergences.some(
          (d) => (d.oracle === 'either' || (d.oracle === 'accepts') === theirs) && d.applies(body),
        );
        if (!known) {
          expect.fail(`unexplained disagreement on ${JSON.stringify(body)}: ours=${ours} oracle=${theirs}`);
        }
        stats.allowed++;
      }
    }),
    { seed, numRuns },
  );
  return stats;
}

/** The example of each divergence still disagrees in the stated direction. */
export function expectDivergenceExamples(c: OracleCase): void {
  for (const d of c.divergences ?? []) {
    const ours = c.ours(d.example);
    const theirs = c.oracle(d.example);
    expect(ours, `${d.example}: ${d.reason}`).not.toBe(theirs);
    if (d.oracle !== 'either') expect(theirs, `${d.example}: ${d.reason}`).toBe(d.oracle === 'accepts');
    expect(d.applies(d.example), `${d.example} matches its own predicate`).toBe(true);
  }
}

/** Digit `i` of a numeric body. */
export const d = (b: string, i: number): number => b.charCodeAt(i) - 48;

/** Weighted digit sum of `b` from `from`. */
export const sum = (b: string, weights: readonly number[], from = 0): number =>
  weights.reduce((acc, w, k) => acc + w * d(b, from + k), 0);

/** Whether a body starts with 0 (a form several oracles wrongly accept). */
export const leadingZero = (b: string): boolean => b.startsWith('0');
