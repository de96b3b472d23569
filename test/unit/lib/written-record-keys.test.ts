import { describe, expect, it } from 'vitest';
import { forgottenRecordsLine, recordKey, WrittenRecordKeys } from '../../../src/lib/written-record-keys.js';

describe('WrittenRecordKeys', () => {
  it('remembers every record written, however many pages back (a user test: a window of pages missed a longer shift)', () => {
    const keys = new WrittenRecordKeys();
    for (let index = 0; index < 10_000; index++) keys.note(recordKey(`s:${index}`, { id: index }));
    expect(keys.has(recordKey('s:0', { id: 0 }))).toBe(true);
    expect(keys.has(recordKey('s:9999', { id: 9999 }))).toBe(true);
    expect(keys.size).toBe(10_000);
    expect(keys.forgotten).toBe(0);
  });

  it('tells a record from another sharing its id, by the digest of the whole record', () => {
    const keys = new WrittenRecordKeys();
    keys.note(recordKey('s:7', { id: '7', name: 'Ana' }));
    expect(keys.has(recordKey('s:7', { id: '7', name: 'Ana' }))).toBe(true);
    expect(keys.has(recordKey('s:7', { id: '7', name: 'Bia' }))).toBe(false);
  });

  it('holds at most its bound, forgetting the oldest first and counting them for the warning', () => {
    const keys = new WrittenRecordKeys(3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) keys.note(key);
    expect(keys.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((key) => keys.has(key))).toEqual([false, false, true, true, true]);
    expect(keys.forgotten).toBe(2);
    expect(forgottenRecordsLine(keys, 'items')).toBe(
      'warning: the read wrote more items than b2bctl remembers (3); a copy of one of the first 2, answered again by a listing that moved, would have been written again.',
    );
  });

  it('a key noted again is no new record: nothing forgotten', () => {
    const keys = new WrittenRecordKeys(2);
    for (const key of ['a', 'b', 'a', 'b']) keys.note(key);
    expect(keys.forgotten).toBe(0);
  });
});

describe('recordKey', () => {
  it('is 16 characters (the digest’s 128 bits, one byte each), not a 22-character slice of a longer string kept alive', () => {
    const key = recordKey('n:1', { id: 1 });
    expect(key).toHaveLength(16);
    expect(recordKey('n:1', { id: 1 })).toBe(key);
    expect(recordKey('n:1', { id: 1, name: 'Ana' })).not.toBe(key);
  });
});
