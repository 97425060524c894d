import { describe, expect, it } from 'vitest';
import { allowedHostHeaders, isAllowedHost, isLoopbackOrigin } from '../../src/core/host-guard.js';

describe('a local listener answers only the Host names it was bound under, with its port', () => {
  it('loopback names and the bound host, any case; nothing else', () => {
    const allowed = allowedHostHeaders('0.0.0.0', 4010);
    for (const host of [
      '127.0.0.1:4010',
      'LOCALHOST:4010',
      '[::1]:4010',
      '0.0.0.0:4010',
      ' localhost:4010 ',
    ]) {
      expect(isAllowedHost(host, allowed), host).toBe(true);
    }
    for (const host of [
      undefined,
      '',
      'localhost',
      'localhost:4011',
      'localhost.:4010',
      'evil.example:4010',
      '127.0.0.2:4010',
      '192.168.1.5:4010',
      'localhost:4010, evil.example',
    ]) {
      expect(isAllowedHost(host, allowed), String(host)).toBe(false);
    }
  });

  it('an IPv6 host is bracketed; port 80 may be left out', () => {
    expect(isAllowedHost('[::1]:8080', allowedHostHeaders('::1', 8080))).toBe(true);
    expect(isAllowedHost('localhost', allowedHostHeaders('127.0.0.1', 80))).toBe(true);
    expect(isAllowedHost('localhost', allowedHostHeaders('127.0.0.1', 8080))).toBe(false);
  });
});

describe('loopback origins: http on localhost, 127.0.0.1 or [::1] with a port', () => {
  it('accepts those and nothing that only looks like them', () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      expect(isLoopbackOrigin(origin), origin).toBe(true);
    }
    for (const origin of [
      undefined,
      'null',
      'https://localhost:5173',
      'http://localhost',
      'http://localhost.evil.example:80',
      'http://127.0.0.1.evil.example:80',
      'http://evil.example',
      'http://localhost:5173/',
    ]) {
      expect(isLoopbackOrigin(origin), String(origin)).toBe(false);
    }
  });
});
