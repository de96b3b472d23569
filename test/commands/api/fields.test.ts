/** How -f and -F become a JSON body or a query: gh's typing rules and nested keys, table-driven. */
import { describe, expect, it } from 'vitest';
import { bodyOfFields, type FieldFlag, parseField, queryOfFields } from '../../../src/commands/api/fields.js';

const files: Record<string, string> = { 'note.txt': 'line one\nline two\n' };
const parse = (...flags: FieldFlag[]) =>
  flags.map((flag) => parseField(flag, (source) => files[source] ?? `<no ${source}>`));
const raw = (text: string): FieldFlag => ({ typed: false, text });
const typed = (text: string): FieldFlag => ({ typed: true, text });

describe('api fields', () => {
  it.each([
    ['n=12', 12],
    ['n=-1.5e3', -1500],
    ['n=007', '007'],
    ['n=true', true],
    ['n=false', false],
    ['n=null', null],
    ['n=@note.txt', 'line one\nline two\n'],
    ['n=a=b', 'a=b'],
    ['n=', ''],
    ['n=1.50', 1.5],
    ['n=9007199254740991', 9_007_199_254_740_991],
    ['n=123456789012345.0', 123_456_789_012_345],
    ['n=0.000', 0],
  ])('-F %s is %j', (text, value) => {
    expect(bodyOfFields(parse(typed(text)))).toEqual({ n: value });
  });

  it.each([
    // An NF-e access key: as a double it would arrive as 3.5240611222333e+43.
    '35240611222333000181550010000012341000012345',
    // 2^53 + 1, past the integers a double holds one by one.
    '9007199254740993',
    '0.1234567890123456789',
    '1e-400',
    '1e400',
  ])('-F n=%s stays text, with a note, as its digits would not come back from a JSON number', (digits) => {
    const notes: string[] = [];
    const field = parseField(
      typed(`n=${digits}`),
      () => '',
      (note) => notes.push(note),
    );
    expect(field.value).toBe(digits);
    // 1e400 and 1e-400 have few digits: past a double's range, said so (a user test).
    const why = digits.includes('e')
      ? 'is beyond the range of numbers most JSON readers hold (doubles)'
      : 'has more digits than a JSON number holds exactly';
    expect(notes).toEqual([`-F n: ${digits} ${why}; it is sent as text (-f says so without this note).`]);
  });

  it('-f keeps every value as text', () => {
    expect(bodyOfFields(parse(raw('n=12'), raw('b=true'), raw('f=@note.txt')))).toEqual({
      n: '12',
      b: 'true',
      f: '@note.txt',
    });
  });

  it('nested keys build objects and lists, in command-line order', () => {
    const body = bodyOfFields(
      parse(
        raw('address[0][zipcode]=01001-000'),
        typed('address[0][number]=10'),
        raw('address[1][zipcode]=69020-060'),
        raw('tags[]=a'),
        raw('tags[]=b'),
        typed('owner[contact][active]=true'),
      ),
    );
    expect(body).toEqual({
      address: [{ zipcode: '01001-000', number: 10 }, { zipcode: '69020-060' }],
      tags: ['a', 'b'],
      owner: { contact: { active: true } },
    });
  });

  it('a list of objects as gh builds it: items[][name] fills the last object until the name comes again', () => {
    const body = bodyOfFields(
      parse(raw('items[][sku]=A'), typed('items[][quantity]=1'), raw('items[][sku]=B'), typed('items[][quantity]=2')),
    );
    expect(body).toEqual({
      items: [
        { sku: 'A', quantity: 1 },
        { sku: 'B', quantity: 2 },
      ],
    });
  });

  it('a key named as JavaScript names its objects (__proto__, constructor) is a field like any other', () => {
    const body = bodyOfFields(parse(raw('__proto__[x]=1'), raw('constructor[name]=Acme')));
    expect(JSON.stringify(body)).toBe('{"__proto__":{"x":"1"},"constructor":{"name":"Acme"}}');
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('as a query, each key is kept as written and repeated keys repeat', () => {
    expect(queryOfFields(parse(raw('status=PAID'), raw('status=SHIPPED'), typed('limit=5'), typed('x=null')))).toEqual({
      status: ['PAID', 'SHIPPED'],
      limit: ['5'],
      x: [''],
    });
  });
});
