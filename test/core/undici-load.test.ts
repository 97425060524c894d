import { describe, expect, it } from 'vitest';
import { loadUndiciParts } from '../../src/core/transport/undici-load.js';

describe('undici loads as its agent and request modules, else through its public entry', () => {
  it('takes the two modules of the installed undici', async () => {
    const parts = await loadUndiciParts();
    expect(parts.modules).toBe(true);
    const undici = await import('undici');
    // The same class and function the public entry hands out.
    expect(parts.Agent).toBe(undici.Agent);
    expect(parts.request).toBe(undici.Agent.prototype.request);
  });

  it.each([
    ['a module that is not there', () => Promise.reject(new Error('Cannot find module'))],
    [
      'modules of another shape',
      () => Promise.resolve([{ default: {} }, { default: 42 }] as [unknown, unknown]),
    ],
  ])('%s: the public entry', async (_, modules) => {
    const parts = await loadUndiciParts({ modules, entry: () => import('undici') });
    expect(parts.modules).toBe(false);
    expect(parts.Agent).toBe((await import('undici')).Agent);
  });

  it('no undici at all rejects (the transport makes it a configuration error)', async () => {
    const missing = () => Promise.reject(new Error('Cannot find package undici'));
    await expect(loadUndiciParts({ modules: missing, entry: missing })).rejects.toThrow(/undici/);
  });
});
