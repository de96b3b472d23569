import { describe, expect, it } from 'vitest';
import { asClause } from '../../../src/lib/clause.js';

describe('asClause', () => {
  it.each([
    ['PUT kept failing with HTTP 503 after 4 attempts.', 'PUT kept failing with HTTP 503 after 4 attempts'],
    ['no stop', 'no stop'],
    ['an ellipsis...', 'an ellipsis...'],
    ['', ''],
  ])('%j → %j', (sentence, clause) => {
    expect(asClause(sentence)).toBe(clause);
  });
});
