import { describe, expect, it } from 'vitest';
import {
  compareUpdateInstants,
  isUnsetStamp,
  readUpdateInstant,
  updateStampOf,
} from '../../../src/domain/update-instants.js';

const order = (left: unknown, right: unknown) =>
  Math.sign(compareUpdateInstants(readUpdateInstant(left)!, readUpdateInstant(right)!));

describe('update instants', () => {
  it('keeps the digits past the millisecond, in any zone', () => {
    expect(order('2026-11-30T12:00:00.000999Z', '2026-11-30T12:00:00.000001Z')).toBe(1);
    expect(order('2026-11-30T12:00:00.000Z', '2026-11-30T12:00:00.000100Z')).toBe(-1);
    expect(order('2026-11-30T09:00:00.000200-03:00', '2026-11-30T12:00:00.000100Z')).toBe(1);
    expect(order('2026-11-30T12:00:00.123456000Z', '2026-11-30T12:00:00.123456Z')).toBe(0);
    expect(order('2026-11-30T12:00:00.123456789Z', '2026-11-30T12:00:00.123456788Z')).toBe(1);
    expect(order('2026-11-30T12:00:00Z', '2026-11-30T12:00:00.000Z')).toBe(0);
  });

  it('reads a space between date and time, an offset in hours and a decimal comma at full precision (a user test)', () => {
    expect(order('2026-11-30 12:00:00.000999Z', '2026-11-30 12:00:00.000001Z')).toBe(1);
    expect(order('2026-11-30 12:00:00.780308+00', '2026-11-30 12:00:00.780001+00')).toBe(1);
    expect(order('2026-11-30T12:00:00.000999+00', '2026-11-30T12:00:00.000999Z')).toBe(0);
    expect(order('2026-11-30 09:00:00.000200-0300', '2026-11-30T12:00:00.000100Z')).toBe(1);
    expect(order('2026-11-30T12:00:00,000999Z', '2026-11-30T12:00:00.000999Z')).toBe(0);
    expect(readUpdateInstant('2026-11-30 12:00:00.780308+00')).toEqual({
      ms: Date.UTC(2026, 10, 30, 12, 0, 0, 780),
      nanos: 308000,
    });
    expect(readUpdateInstant('2026-11-30t12:00:00.1z')).toEqual({
      ms: Date.UTC(2026, 10, 30, 12, 0, 0, 100),
      nanos: 0,
    });
  });

  it('reads epoch milliseconds, and seconds below 10^11, as the rest of b2bctl does', () => {
    expect(readUpdateInstant(1796050000000)).toEqual({ ms: 1796050000000, nanos: 0 });
    expect(readUpdateInstant(1796050000)).toEqual({ ms: 1796050000000, nanos: 0 });
    expect(order(1796050000000, '2026-11-30T12:00:00Z')).toBe(1);
  });

  it('reads epoch milliseconds written as a JSON string of 13 digits (a 64-bit number from Java or protobuf)', () => {
    expect(readUpdateInstant('1796050000000')).toEqual({ ms: 1796050000000, nanos: 0 });
    expect(readUpdateInstant(' 1796050000000 ')).toEqual({ ms: 1796050000000, nanos: 0 });
    expect(order('1796050000000', '1796040000000')).toBe(1);
    // Shorter or longer strings of digits are as likely ids or days as instants.
    for (const stamp of ['1796050000', '20261130', '42', '17960500000000', '179605000000', '1796050000000.5'])
      expect(readUpdateInstant(stamp)).toBeUndefined();
  });

  it('reads no other form: dd/mm/yyyy, an empty or missing stamp, a number that is no instant', () => {
    for (const stamp of ['30/11/2026 12:00:00', '', 'yesterday', undefined, null, 0, -5, Number.NaN, true])
      expect(readUpdateInstant(stamp)).toBeUndefined();
  });

  it('reads no placeholder of an unset date as an instant (a user test)', () => {
    for (const stamp of [
      '0000-00-00 00:00:00',
      '0001-01-01T00:00:00',
      '1970-01-01T00:00:00Z',
      'null',
      'undefined',
      '0',
    ])
      expect(readUpdateInstant(stamp)).toBeUndefined();
  });

  it('tells a placeholder for a date never set from any other stamp', () => {
    for (const stamp of [null, '', ' ', 0, '0', 'null', 'NULL', 'undefined', '0000-00-00', '0000-00-00 00:00:00'])
      expect(isUnsetStamp(stamp)).toBe(true);
    for (const stamp of ['0001-01-01T00:00:00', '0001-01-01T00:00:00.0000000Z', '1970-01-01T00:00:00Z'])
      expect(isUnsetStamp(stamp)).toBe(true);
    for (const stamp of ['30/11/2026 14:22:18', '2026-11-30T12:00:00Z', '0001-01-01T00:00:01', 'none', undefined, 5])
      expect(isUnsetStamp(stamp)).toBe(false);
  });

  it('finds the stamp where an order writes it, the order itself first', () => {
    expect(updateStampOf([{ updatedAt: 'b' }, { lastUpdated: 'a' }])).toBe('b');
    expect(updateStampOf([undefined, { lastUpdated: 'a' }])).toBe('a');
    expect(updateStampOf([[], null, { status: 'x' }])).toBeUndefined();
  });
});
