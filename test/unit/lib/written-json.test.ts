import { describe, expect, it } from 'vitest';
import {
  deepestNesting,
  isNestedTooDeep,
  JsonNestedTooDeep,
  parseJsonKeepingDigits,
  parseJsonKeepingNumbers,
  parseWrittenJson,
  WrittenNumber,
} from '../../../src/lib/written-json.js';

describe('JSON read with whole numbers past 2^53 as written', () => {
  it('keeps the digits JSON.parse would change, and writes them back as numbers', () => {
    const text = '{"id":9007199254740993,"items":[{"id":-12345678901234567890}],"n":[18446744073709551615]}';
    const parsed = parseWrittenJson(text) as { id: unknown; items: { id: unknown }[]; n: unknown[] };
    expect(parsed.id).toBeInstanceOf(WrittenNumber);
    expect(String(parsed.id)).toBe('9007199254740993');
    expect(`${parsed.items[0]?.id as string}`).toBe('-12345678901234567890');
    expect(JSON.stringify(parsed)).toBe(text);
    expect(JSON.stringify(parsed, null, 2)).toContain('"id": 9007199254740993,');
  });

  it('leaves every other value as JSON.parse gives it: safe whole numbers, decimals, exponents, digits in text', () => {
    const text =
      '{"a":9007199254740991,"b":1.5,"c":1e300,"d":12345678901234567.5,"e":"35261112345678000190550010000012341000012345","f":[1,2]}';
    expect(parseWrittenJson(text)).toEqual(JSON.parse(text));
    // Nothing long: the plain JSON.parse, its errors as they are.
    expect(parseWrittenJson('{"id":42}')).toEqual({ id: 42 });
    expect(() => parseWrittenJson('{"id":90071992547409930,')).toThrow(SyntaxError);
  });
});

describe('JSON read for b2bctl api: every number JSON.parse would change, as written', () => {
  it('keeps long decimals, numbers past a double, and whole numbers past 2^53', () => {
    const text =
      '{"price":0.10000000000000000001,"rate":123456789.123456789,"huge":1e400,"tiny":-2.5e-400,"id":9007199254740993}';
    const parsed = parseJsonKeepingNumbers(text) as Record<string, unknown>;
    for (const value of Object.values(parsed)) expect(value).toBeInstanceOf(WrittenNumber);
    expect(JSON.stringify(parsed)).toBe(text);
  });

  it('leaves a number that only reads differently as JSON.parse gives it', () => {
    const text = '{"a":12.50,"b":1E5,"c":-0,"d":0.1000000000000000,"e":9007199254740992,"f":1.7976931348623157e308}';
    expect(parseJsonKeepingNumbers(text)).toEqual(JSON.parse(text));
    expect(JSON.stringify(parseJsonKeepingNumbers(text))).toBe(
      '{"a":12.5,"b":100000,"c":0,"d":0.1,"e":9007199254740992,"f":1.7976931348623157e+308}',
    );
    // Digits in a string: read by the slower path, the same values.
    const key = '{"key":"35261112345678000190550010000012341000012345","n":1.5}';
    expect(parseJsonKeepingNumbers(key)).toEqual(JSON.parse(key));
  });
});

describe('isNestedTooDeep (a user test)', () => {
  it('takes 1,000 levels and refuses 1,001; brackets inside strings, escaped quotes too, do not count', () => {
    expect(isNestedTooDeep(`${'['.repeat(deepestNesting)}${']'.repeat(deepestNesting)}`)).toBe(false);
    expect(isNestedTooDeep(`${'['.repeat(deepestNesting + 1)}${']'.repeat(deepestNesting + 1)}`)).toBe(true);
    expect(isNestedTooDeep(`{"a":"${'['.repeat(5000)}\\"${'{'.repeat(5000)}"}`)).toBe(false);
  });

  it('the parsers refuse a text nested too deep with JsonNestedTooDeep, not the engine stack error later', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(() => parseJsonKeepingNumbers(deep)).toThrow(JsonNestedTooDeep);
    expect(() => parseWrittenJson(deep)).toThrow(JsonNestedTooDeep);
  });
});

describe('parseJsonKeepingDigits (a user test)', () => {
  it('keeps every number JSON.stringify would write with other digits, and leaves the others numbers', () => {
    const text = '{"a":12.50,"b":1E2,"c":-0,"d":0.10000000000000000001,"e":7,"f":-0.5,"g":"1.50"}';
    expect(JSON.stringify(parseJsonKeepingDigits(text))).toBe(text);
    const read = parseJsonKeepingDigits(text) as Record<string, unknown>;
    expect([read.e, read.f, read.g]).toEqual([7, -0.5, '1.50']);
  });
});
