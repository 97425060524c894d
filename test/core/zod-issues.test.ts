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
