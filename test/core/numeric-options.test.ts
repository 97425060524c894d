import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { LocalValidationError } from '../../src/core/errors/error-classes.js';
import { checkNumericOptions, MAX_TIMER_MS } from '../../src/core/numeric-options.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

const BASE = { baseUrl: 'http://127.0.0.1:9' };

function refused(options: ConstructorParameters<typeof SvcClient>[0]): LocalValidationError {
  try {
    new SvcClient(options).close();
  } catch (error) {
    if (error instanceof LocalValidationError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('the client refuses numeric options that cannot work, when it is created', () => {
  it.each([
    ['timeoutMs', -5],
    ['timeoutMs', 0],
    ['timeoutMs', Number.NaN],
    ['timeoutMs', MAX_TIMER_MS + 1],
    ['deadlineMs', -1],
    ['deadlineMs', Number.POSITIVE_INFINITY],
    ['maxRetries', -1],
    ['maxRetries', 1.5],
    ['connections', 0],
  ] as const)('%s: %s', (name, value) => {
    const error = refused({ ...BASE, [name]: value });
    expect(error.issues).toEqual([{ path: name, message: expect.stringContaining(String(value)) }]);
    expect(error.message).toMatch(new RegExp(`^Invalid client options: ${name}: `));
  });

  it('lists every bad option at once', () => {
    const error = refused({ ...BASE, timeoutMs: -5, maxRetries: -1 });
    expect(error.issues.map((i) => i.path)).toEqual(['timeoutMs', 'maxRetries']);
  });

  it('accepts sound values and leaves unset ones alone', () => {
    expect(() =>
      checkNumericOptions({ timeoutMs: 1, deadlineMs: MAX_TIMER_MS, maxRetries: 0, connections: 1 }),
    ).not.toThrow();
    expect(() => checkNumericOptions({})).not.toThrow();
    const client = new SvcClient({ ...BASE, timeoutMs: 250, maxRetries: 3 });
    client.close();
  });
});

describe('the built svc: a --timeout no timer can hold is a usage error (exit 2)', () => {
  it('svc --sandbox --timeout 3000000000 validate', async () => {
    ensureBuilt();
    const child = spawnSvc(['--sandbox', '--timeout', '3000000000', 'validate', 'DE', '136695976'], {});
    expect(await exited(child)).toBe(2);
    expect(child.output().stderr).toMatch(/^svc: invalid input: timeoutMs: must be a number of milliseconds/);
  }, 180_000);
});
