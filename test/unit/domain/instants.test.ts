import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../../src/domain/instants.js';

describe('parseInstant: an ISO-8601 date or date-time as typed on a command line', () => {
  it.each<[string, number]>([
    ['2026-11-20T14:30:00Z', Date.UTC(2026, 10, 20, 14, 30)],
    ['2026-11-20T14:30:00.250Z', Date.UTC(2026, 10, 20, 14, 30, 0, 250)],
    ['2026-11-20T14:30-03:00', Date.UTC(2026, 10, 20, 17, 30)],
    ['2026-11-20T14:30:05+0530', Date.UTC(2026, 10, 20, 9, 0, 5)],
    ['2026-11-20 14:30z', Date.UTC(2026, 10, 20, 14, 30)],
  ])('%s, with its zone, is that instant', (text, expected) => {
    expect(parseInstant(text)).toBe(expected);
  });

  it.each<[string, number]>([
    ['2026-11-20', new Date(2026, 10, 20).getTime()],
    ['2026-11-20T00:00', new Date(2026, 10, 20).getTime()],
    ['2026-11-20 14:30:05', new Date(2026, 10, 20, 14, 30, 5).getTime()],
    [' 2026-02-28T23:59:59.999 ', new Date(2026, 1, 28, 23, 59, 59, 999).getTime()],
  ])('%s, without a zone, is local time; a date alone its local midnight', (text, expected) => {
    expect(parseInstant(text)).toBe(expected);
  });

  it.each([
    '2026-02-30',
    '2026-13-01',
    '2026-11-20T24:00',
    '2026-11-20T12:60',
    'yesterday',
    '20/11/2026',
    '2026-11-20 junk',
    '2026-11-20T14',
  ])('%s is none', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});
