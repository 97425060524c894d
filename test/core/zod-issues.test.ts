import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toIssues } from '../../src/core/zod-issues.js';

describe('zod issues become {path, message} with dotted paths', () => {
  const Schema = z.strictObject({
    items: z.array(z.strictObject({ rawValue: z.string().max(3, 'too long') })),
  });

  it('joins nested paths with dots and keeps every issue', () => {
    const parsed = Schema.safeParse({ items: [{ rawValue: 'ok' }, { rawValue: 'long' }, { rawValue: 7 }] });
    expect(parsed.success).toBe(false);
    const issues = toIssues(parsed.error as z.ZodError);
    expect(issues.map((i) => i.path)).toEqual(['items.1.rawValue', 'items.2.rawValue']);
    expect(issues[0]?.message).toBe('too long');
  });

  it('puts a prefix before each path', () => {
    const parsed = Schema.safeParse({ items: [{ rawValue: 'long' }] });
    expect(toIssues(parsed.error as z.ZodError, 'batch.')).toEqual([
      { path: 'batch.items.0.rawValue', message: 'too long' },
    ]);
  });
});

describe('a failed union names the field of the alternative the value was meant for', () => {
  // The shape of the reference server's POST /__admin/clock body.
  const Clock = z.union([
    z.strictObject({ advanceMs: z.number().int().min(0), frozen: z.boolean().optional() }),
    z.strictObject({ now: z.union([z.number().int(), z.iso.datetime()]), frozen: z.boolean().optional() }),
    z.strictObject({ frozen: z.boolean() }),
  ]);
  const issuesOf = (value: unknown, prefix = '') => {
    const parsed = Clock.safeParse(value);
    expect(parsed.success).toBe(false);
    return toIssues(parsed.error as z.ZodError, prefix);
  };

  it('the one alternative with no unknown key explains the failure, under the prefix', () => {
    expect(issuesOf({ advanceMs: 'x' })).toEqual([
      { path: 'advanceMs', message: 'Invalid input: expected number, received string' },
    ]);
    expect(issuesOf({ frozen: 'yes' }, 'body.').map((i) => i.path)).toEqual(['body.frozen']);
  });

  it('nested unions are followed to the field', () => {
    const Outer = z.strictObject({ clock: Clock });
    const parsed = Outer.safeParse({ clock: { advanceMs: -1 } });
    expect(toIssues(parsed.error as z.ZodError).map((i) => i.path)).toEqual(['clock.advanceMs']);
  });

  it('when no single alternative stands out, the union itself is named', () => {
    expect(issuesOf({})).toEqual([{ path: '', message: 'Invalid input' }]);
    expect(issuesOf('soon')).toEqual([{ path: '', message: 'Invalid input' }]);
    expect(issuesOf({ advanceMs: 1, now: 2 })).toEqual([{ path: '', message: 'Invalid input' }]);
  });
});
