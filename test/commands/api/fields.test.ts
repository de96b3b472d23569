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
  ])('-F %s is %j', (text, value) => {
    expect(bodyOfFields(parse(typed(text)))).toEqual({ n: value });
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

  it('as a query, each key is kept as written and repeated keys repeat', () => {
    expect(queryOfFields(parse(raw('status=PAID'), raw('status=SHIPPED'), typed('limit=5'), typed('x=null')))).toEqual({
      status: ['PAID', 'SHIPPED'],
      limit: ['5'],
      x: [''],
    });
  });
});
