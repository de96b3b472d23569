import { describe, expect, it } from 'vitest';
import { duplicateKeyOf, jsonShapeProblem } from '../../../src/lib/json-shape.js';

const limits = { maxDepth: 3, maxKeys: 4 };

describe('jsonShapeProblem', () => {
  it.each([
    ['{"a":{"b":[1]}}', undefined],
    ['{"a":{"b":[[1]]}}', 'nested deeper than 3 levels'],
    ['[[["x"]],[["y"]]]', undefined],
    ['{"a":"[[[[{{{{","b":"\\"[[[["}', undefined],
    ['{"a":"x\\\\","b":[[[1]]]}', 'nested deeper than 3 levels'],
    ['{"a":1,"b":2,"c":3,"d":4}', undefined],
    ['{"a":1,"b":2,"c":3,"d":4,"e":5}', 'more than 4 keys'],
    ['{"a:b:c:d:e":1}', undefined],
    ['not json [[[[', 'nested deeper than 3 levels'],
  ])('%s', (text, problem) => expect(jsonShapeProblem(text, limits)).toBe(problem));

  it('reads a megabyte of nesting without parsing it', () => {
    const text = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    expect(jsonShapeProblem(text, { maxDepth: 64, maxKeys: 50_000 })).toBe('nested deeper than 64 levels');
  });
});

describe('duplicateKeyOf', () => {
  it.each([
    ['{"a":1,"b":2}', undefined],
    ['{"a":1,"a":2}', 'a'],
    ['{"a":{"b":1},"c":{"b":2}}', undefined],
    ['[{"a":1},{"a":1}]', undefined],
    ['{"a":[{"b":1,"b":2}]}', 'b'],
    ['{"a":"\\"a\\"","b":"a"}', undefined],
    ['{"a\\\\":1,"a":2}', undefined],
    ['{"\\u0061":1,"a":2}', 'a'],
    ['{"x":"{\\"a\\":1,\\"a\\":2}"}', undefined],
  ])('%s: %j', (text, key) => {
    expect(duplicateKeyOf(text)).toBe(key);
  });
});
