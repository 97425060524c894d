import { describe, expect, it } from 'vitest';
import { streamsAuditPages } from '../../src/cli/bulk-memory.js';

describe('only audit export and audit sync keep the young generation small', () => {
  it.each([
    [['audit', 'export', '--out', 'a.ndjson'], true],
    [['--profile', 'ci', 'audit', 'sync', '--dir', 'archive'], true],
    [['-q', 'audit', 'export'], true],
    [['audit', 'list'], false],
    [['audit', 'verify', 'archive'], false],
    [['batch', 'in.csv', '--out', 'out.ndjson'], false],
    [['export'], false],
    [[], false],
  ])('%j -> %s', (args, expected) => {
    expect(streamsAuditPages(args)).toBe(expected);
  });
});
