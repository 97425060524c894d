import { describe, expect, it } from 'vitest';
import {
  parseNoProxy,
  parseProxyUrl,
  proxyFor,
  proxyRoutes,
  proxySettingsOf,
} from '../../src/core/proxy-rules.js';

const routes = (noProxy: string) =>
  proxyRoutes({ httpsProxy: 'http://sproxy:3128', httpProxy: 'http://proxy:3128', noProxy });
const via = (url: string, noProxy = '') => proxyFor(url, routes(noProxy))?.host;

describe('the proxy of a request is the one of its scheme', () => {
  it('https URLs go through HTTPS_PROXY, http URLs through HTTP_PROXY', () => {
    expect(via('https://api.example.com/x')).toBe('sproxy:3128');
    expect(via('http://api.example.com/x')).toBe('proxy:3128');
  });
  it('a scheme without a proxy goes direct', () => {
    const only = proxyRoutes({ httpsProxy: 'http://sproxy:3128' });
    expect(proxyFor('http://api.example.com', only)).toBeUndefined();
    expect(proxyFor('https://api.example.com', only)?.host).toBe('sproxy:3128');
  });
  it('a string option is the proxy of both schemes; false and empty are none', () => {
    expect(proxySettingsOf('http://p:1')).toEqual({ httpsProxy: 'http://p:1', httpProxy: 'http://p:1' });
    expect(proxySettingsOf(false)).toBeUndefined();
    expect(proxySettingsOf('')).toBeUndefined();
    expect(proxyRoutes({ noProxy: '*' })).toBeUndefined();
  });
});

describe('NO_PROXY follows curl: suffixes, *, ports, IP literals', () => {
  it('a name matches itself and its subdomains, not a longer name', () => {
    expect(via('https://example.com', 'example.com')).toBeUndefined();
    expect(via('https://www.example.com', 'example.com')).toBeUndefined();
    expect(via('https://notexample.com', 'example.com')).toBe('sproxy:3128');
    expect(via('https://example.com.evil', 'example.com')).toBe('sproxy:3128');
  });
  it('a leading dot or *. means the same as the bare name', () => {
    for (const entry of ['.example.com', '*.example.com']) {
      expect(via('https://a.example.com', entry)).toBeUndefined();
      expect(via('https://example.com', entry)).toBeUndefined();
    }
  });
  it('* alone sends everything direct; inside a list too', () => {
    expect(via('https://anything.test', '*')).toBeUndefined();
    expect(via('https://anything.test', 'a.test, *')).toBeUndefined();
  });
  it('host:port matches that port only (the scheme default when the URL names none)', () => {
    expect(via('https://svc.test:8443', 'svc.test:8443')).toBeUndefined();
    expect(via('https://svc.test:9443', 'svc.test:8443')).toBe('sproxy:3128');
    expect(via('https://svc.test', 'svc.test:443')).toBeUndefined();
    expect(via('http://svc.test', 'svc.test:443')).toBe('proxy:3128');
  });
  it('IPv4 and IPv6 literals, with or without brackets and ports; IPv4 ranges', () => {
    expect(via('http://127.0.0.1:4010', '127.0.0.1')).toBeUndefined();
    expect(via('http://[::1]:4010', '::1')).toBeUndefined();
    expect(via('http://[::1]:4010', '[::1]:4010')).toBeUndefined();
    expect(via('http://[::1]:4011', '[::1]:4010')).toBe('proxy:3128');
    expect(via('http://[0:0::1]/', '0:0:0:0:0:0:0:1')).toBeUndefined();
    expect(via('http://10.1.2.3', '10.0.0.0/8')).toBeUndefined();
    expect(via('http://11.1.2.3', '10.0.0.0/8')).toBe('proxy:3128');
    expect(via('http://10.1.2.3', '10.0.0.0/8:81')).toBe('proxy:3128');
  });
  it('case, spaces, commas and a trailing dot do not matter; unreadable entries are skipped', () => {
    expect(via('https://API.Example.COM.', ' , EXAMPLE.com ,')).toBeUndefined();
    expect(parseNoProxy('a.test,,  b.test x:y [::1')).toHaveLength(2);
  });
});

describe('a proxy URL is checked and its password never shown', () => {
  it('a missing scheme is http://', () => {
    expect(parseProxyUrl('proxy.corp:3128').href).toBe('http://proxy.corp:3128/');
  });
  it('other schemes are refused, naming the value without its password', () => {
    expect(() => parseProxyUrl('socks5://u:hunter2@p:1080')).toThrow(
      /http:\/\/ or https:\/\/.*\*\*\*@p:1080/,
    );
    try {
      parseProxyUrl('socks5://u:hunter2@p:1080');
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('hunter2');
    }
    expect(() => parseProxyUrl('http://')).toThrow(/not a URL|no host/);
  });
});
