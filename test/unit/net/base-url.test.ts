import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl, sameBaseUrl } from '../../../src/net/base-url.js';

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://Store.Example.COM/', 'https://store.example.com'],
    ['HTTPS://store.example.com:443/api/', 'https://store.example.com/api'],
    ['http://127.0.0.1:80//', 'http://127.0.0.1'],
    ['http://127.0.0.1:8080/api', 'http://127.0.0.1:8080/api'],
    ['  https://store.example.com  ', 'https://store.example.com'],
  ])('%s → %s', (given, expected) => {
    expect(normalizeBaseUrl(given)).toBe(expected);
  });

  it('leaves text that is no URL for the caller to report', () => {
    expect(normalizeBaseUrl('store.example.com')).toBe('store.example.com');
  });
});

describe('sameBaseUrl', () => {
  it('treats a trailing slash, host case, default port and loopback names as one platform', () => {
    expect(sameBaseUrl('https://store.example.com/', 'https://STORE.example.com:443')).toBe(true);
    expect(sameBaseUrl('http://localhost:4010/', 'http://127.0.0.1:4010')).toBe(true);
    expect(sameBaseUrl('http://LOCALHOST:4010/', 'http://[::1]:4010')).toBe(true);
  });

  it('keeps another loopback address apart: another listener, which any local user may run', () => {
    expect(sameBaseUrl('http://127.0.0.1:4010', 'http://127.0.0.2:4010')).toBe(false);
    expect(sameBaseUrl('http://localhost:4010', 'http://127.1.2.3:4010')).toBe(false);
  });

  it('keeps other ports, paths and hosts apart', () => {
    expect(sameBaseUrl('http://127.0.0.1:4010', 'http://127.0.0.1:4011')).toBe(false);
    expect(sameBaseUrl('https://store.example.com/a', 'https://store.example.com/b')).toBe(false);
    expect(sameBaseUrl('https://lat.example.com', 'https://br.example.com')).toBe(false);
  });
});
