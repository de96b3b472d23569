import { describe, expect, it } from 'vitest';
import { wordWrap } from '../../../src/lib/word-wrap.js';

describe('wordWrap', () => {
  it('cuts at spaces, each line within the width', () => {
    expect(wordWrap('PERMISSIONS: F change freight, I insert freight.', 20)).toEqual([
      'PERMISSIONS: F',
      'change freight, I',
      'insert freight.',
    ]);
  });
  it('leaves text alone without a width or when it fits', () => {
    expect(wordWrap('a b c', undefined)).toEqual(['a b c']);
    expect(wordWrap('a b c', 5)).toEqual(['a b c']);
  });
  it('keeps a word longer than the width whole on its own line', () => {
    expect(wordWrap('see https://example.com/very/long now', 10)).toEqual([
      'see',
      'https://example.com/very/long',
      'now',
    ]);
  });
});
