import { describe, expect, it } from 'vitest';
import { believedTokenExpiry, tokenNeedsRenewal, tokenSavedByAnotherRun } from '../../../src/domain/token-expiry.js';

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

/** An `expires_at` of `text`, as the token answer reader hands it over. */
function at(text: string) {
  return { path: 'expires_at', written: text, ms: Date.parse(text) };
}

describe('believedTokenExpiry: what a token answer says of its end, and what b2bctl believes', () => {
  const nowMs = Date.parse('2026-11-30T08:00:00Z');

  it.each([
    { name: 'nothing said: the document 12 hours', stated: {}, expiresAt: '2026-11-30T20:00:00.000Z' },
    {
      name: 'seconds',
      stated: { lifetime: { path: 'expires_in', value: 3600 } },
      expiresAt: '2026-11-30T09:00:00.000Z',
    },
    {
      name: 'just under 1,000 × 12 h is still seconds (a week at most)',
      stated: { lifetime: { path: 'expires_in', value: 604_800 } },
      expiresAt: '2026-12-07T08:00:00.000Z',
    },
    { name: 'an instant', stated: { expiresAt: at('2026-11-30T10:00:00Z') }, expiresAt: '2026-11-30T10:00:00.000Z' },
    {
      name: 'both: the instant is earlier',
      stated: { lifetime: { path: 'expires_in', value: 43_200 }, expiresAt: at('2026-11-30T10:00:00Z') },
      expiresAt: '2026-11-30T10:00:00.000Z',
    },
    {
      name: 'both: the lifetime is earlier',
      stated: { lifetime: { path: 'expires_in', value: 600 }, expiresAt: at('2026-11-30T10:00:00Z') },
      expiresAt: '2026-11-30T08:10:00.000Z',
    },
  ])('$name, no warning', ({ stated, expiresAt }) => {
    const believed = believedTokenExpiry(stated, nowMs);
    expect(new Date(believed.expiresAtMs).toISOString()).toBe(expiresAt);
    expect(believed.warning).toBeUndefined();
  });

  it.each([
    {
      name: 'milliseconds from 1,000 × 12 h on',
      stated: { lifetime: { path: 'data.expiresIn', value: 43_200_000 } },
      expiresAt: '2026-11-30T20:00:00.000Z',
      warning:
        'warning: the token route\'s answer "data.expiresIn": 43200000 would be 500 days as seconds, so b2bctl reads it as milliseconds: 12 h.',
    },
    {
      name: 'past a week: counted for a week',
      stated: { lifetime: { path: 'expires_in', value: 2_592_000 } },
      expiresAt: '2026-12-07T08:00:00.000Z',
      warning:
        'warning: the token route\'s answer "expires_in": 2592000 says the token lasts 30 days, far past the document\'s 12 hours; b2bctl counts it valid for 7 days at most, then logs in again as for an expired one.',
    },
    {
      name: 'epoch seconds given as a lifetime: milliseconds, then a week at most',
      stated: { lifetime: { path: 'expires_in', value: 1_795_000_000 } },
      expiresAt: '2026-12-07T08:00:00.000Z',
      warning:
        'warning: the token route\'s answer "expires_in": 1795000000 would be 20775.5 days as seconds, so b2bctl reads it as milliseconds: 20.8 days; "expires_in": 1795000000 says the token lasts 20.8 days, far past the document\'s 12 hours; b2bctl counts it valid for 7 days at most, then logs in again as for an expired one.',
    },
    {
      name: 'under a minute: used as said',
      stated: { lifetime: { path: 'expires_in', value: 30 } },
      expiresAt: '2026-11-30T08:00:30.000Z',
      warning:
        'warning: the token route\'s answer "expires_in": 30 says the token lasts 30 s, far less than the document\'s 12 hours; b2bctl uses it as said, so each command may have to log in again.',
    },
    {
      name: 'an instant already past: ignored, the lifetime or 12 hours kept',
      stated: { expiresAt: at('2026-11-30T06:00:00Z') },
      expiresAt: '2026-11-30T20:00:00.000Z',
      warning:
        'warning: the token route\'s answer "expires_at": "2026-11-30T06:00:00Z" is already past by this machine\'s clock (2026-11-30T08:00:00.000Z), so b2bctl ignores it: check this machine\'s clock (b2bctl doctor compares it with the platform\'s).',
    },
  ])('$name, one warning line', ({ stated, expiresAt, warning }) => {
    const believed = believedTokenExpiry(stated, nowMs);
    expect(new Date(believed.expiresAtMs).toISOString()).toBe(expiresAt);
    expect(believed.warning).toBe(warning);
  });
});

describe('tokenSavedByAnotherRun', () => {
  const saved = (token: string | undefined, expiresAtMs: number | undefined = obtainedAtMs + hours12) => ({
    token,
    tokenObtainedAt: new Date(obtainedAtMs).toISOString(),
    tokenExpiresAt: expiresAtMs === undefined ? undefined : new Date(expiresAtMs).toISOString(),
  });
  const nowMs = obtainedAtMs + 3_600_000;

  it.each([
    { name: 'a fresh token nobody set aside', profile: saved('NEW'), setAside: [], expected: 'NEW' },
    { name: 'the line end an older b2bctl kept dropped', profile: saved('NEW\n'), setAside: [], expected: 'NEW' },
    {
      name: 'no expiry known (a pre-issued token), as the cached one',
      profile: saved('NEW', undefined),
      setAside: [],
      expected: 'NEW',
    },
    { name: 'the token this run saw refused', profile: saved('OLD'), setAside: ['OLD'], expected: undefined },
    { name: 'set aside, spelled with a line end', profile: saved('OLD\r\n'), setAside: ['OLD'], expected: undefined },
    { name: 'expired by the renewal rule', profile: saved('NEW', nowMs + 60_000), setAside: [], expected: undefined },
    { name: 'a minute and a millisecond left', profile: saved('NEW', nowMs + 60_001), setAside: [], expected: 'NEW' },
    { name: 'no token', profile: saved(undefined), setAside: [], expected: undefined },
    { name: 'an empty token', profile: saved('  '), setAside: [], expected: undefined },
    { name: 'a line break inside', profile: saved('NE\nW'), setAside: [], expected: undefined },
  ])('$name', ({ profile, setAside, expected }) => {
    expect(tokenSavedByAnotherRun(profile, new Set(setAside), nowMs)).toBe(expected);
  });
});
