import { describe, expect, it } from 'vitest';
import { tokenNeedsRenewal } from '../../../src/domain/token-expiry.js';

const obtainedAtMs = Date.parse('2026-11-02T08:00:00Z');
const hours12 = 12 * 3_600_000;
const seconds10 = 10_000;

describe('tokenNeedsRenewal', () => {
  it.each([
    {
      name: '12 h token, just issued',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs,
      expected: false,
    },
    {
      name: '12 h token, 60.001 s before expiry',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 - 60_001,
      expected: false,
    },
    {
      name: '12 h token, 60 s before expiry',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 - 60_000,
      expected: true,
    },
    {
      name: '12 h token, expired',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 + 1,
      expected: true,
    },
    {
      name: '10 s token, 1.001 s before expiry',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + seconds10 },
      nowMs: obtainedAtMs + seconds10 - 1_001,
      expected: false,
    },
    {
      name: '10 s token, 1 s before expiry',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + seconds10 },
      nowMs: obtainedAtMs + seconds10 - 1_000,
      expected: true,
    },
    {
      name: '5 min token renewed 30 s early (a tenth)',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + 300_000 },
      nowMs: obtainedAtMs + 270_000,
      expected: true,
    },
    {
      name: '5 min token, 30.001 s before expiry',
      token: { obtainedAtMs, expiresAtMs: obtainedAtMs + 300_000 },
      nowMs: obtainedAtMs + 269_999,
      expected: false,
    },
    {
      name: 'unknown issue time: a minute early',
      token: { expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 - 60_000,
      expected: true,
    },
    {
      name: 'unknown issue time: not 61 s early',
      token: { expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 - 61_000,
      expected: false,
    },
    {
      name: 'NaN issue time counts as unknown',
      token: { obtainedAtMs: Number.NaN, expiresAtMs: obtainedAtMs + hours12 },
      nowMs: obtainedAtMs + hours12 - 60_000,
      expected: true,
    },
    {
      name: 'issued after expiry (clock skew): renewed only at expiry',
      token: { obtainedAtMs: obtainedAtMs + 5_000, expiresAtMs: obtainedAtMs },
      nowMs: obtainedAtMs - 1,
      expected: false,
    },
    { name: 'no expiry known', token: { obtainedAtMs }, nowMs: obtainedAtMs + 100 * hours12, expected: false },
    { name: 'nothing known', token: {}, nowMs: obtainedAtMs, expected: false },
    {
      name: 'NaN expiry (unreadable date)',
      token: { obtainedAtMs, expiresAtMs: Number.NaN },
      nowMs: obtainedAtMs,
      expected: false,
    },
  ])('$name -> $expected', ({ token, nowMs, expected }) => {
    expect(tokenNeedsRenewal(token, nowMs)).toBe(expected);
  });
});
