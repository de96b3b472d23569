/** "Did you mean": a typo's field offered, never any short name's nearest field. */
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../src/lib/suggest.js';

const taxColumns = ['ncm', 'from', 'to', 'buyer', 'icmsRate', 'ipiRate'];

describe('closestName', () => {
  it.each([
    ['usrname', ['username', 'phone'], 'username'],
    ['Usernmae', ['username', 'phone'], 'username'],
    ['ncn', taxColumns, 'ncm'],
    ['buyr', taxColumns, 'buyer'],
    // Two neighbouring letters swapped are one slip, as commander counts it: `docs mna` is `docs man`.
    ['mna', ['man'], 'man'],
  ])('offers a typo of %s its field', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  // Any name of one to three characters is two edits from a two-letter field: `id` was offered as `to`, the
  // destination state, and a table so mapped loads and answers wrong taxes.
  it.each(['x', 'a', 'id', 'foo', 'fax'])('offers nothing for the short name %s two edits away', (name) => {
    expect(closestName(name, [...taxColumns, 'lat'])).toBeUndefined();
  });
});

describe('editDistance', () => {
  it.each([
    ['man', 'man', 0],
    ['mna', 'man', 1],
    ['stokc', 'stock', 1],
    ['abc', 'cab', 2],
    ['', 'man', 3],
    ['id', 'to', 2],
  ])('%s to %s: %i edits', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
    expect(editDistance(b, a)).toBe(expected);
  });
});
