import { describe, expect, it } from 'vitest';
import { valueAtPath } from '../../../../src/domain/validation.js';
import { cellText, csvLine, escapeCsvCell } from '../../../../src/io/output/csv-format.js';

describe('valueAtPath', () => {
  const record = {
    username: 'ana@example.com',
    profile: { id: 7, code: 'SUP', name: 'Supervisor' },
    noProfile: null,
    addressList: [{ zipcode: '01310-100' }, { zipcode: '20040-020' }],
    active: false,
  };
  it.each([
    { path: 'username', expected: 'ana@example.com' },
    { path: 'profile.name', expected: 'Supervisor' },
    { path: 'profile.id', expected: 7 },
    { path: 'addressList.1.zipcode', expected: '20040-020' },
    { path: 'addressList.5.zipcode', expected: undefined },
    { path: 'active', expected: false },
    { path: 'noProfile', expected: null },
    { path: 'noProfile.name', expected: undefined },
    { path: 'username.length', expected: undefined },
    { path: 'missing.deeper', expected: undefined },
  ])('$path -> $expected', ({ path, expected }) => {
    expect(valueAtPath(record, path)).toEqual(expected);
  });

  it('reads a key the record holds whole before a path; skips an empty step; reads own keys only', () => {
    const answer = { '@odata.etag': 'W/"3"', 'a.b': 'whole', a: { b: 'path', c: 'deep' }, data: { items: [1] } };
    expect(valueAtPath(answer, '@odata.etag')).toBe('W/"3"');
    expect(valueAtPath(answer, 'a.b')).toBe('whole');
    expect(valueAtPath(answer, 'a.c')).toBe('deep');
    expect(valueAtPath(answer, 'data..items')).toEqual([1]);
    expect(valueAtPath(answer, '.data.items.0')).toBe(1);
    expect(valueAtPath(answer, 'constructor')).toBeUndefined();
    expect(valueAtPath(answer, 'a.__proto__')).toBeUndefined();
    expect(valueAtPath(answer, 'data.items.length')).toBe(1);
  });

  it('returns undefined for a record that is not an object', () => {
    expect(valueAtPath(null, 'a')).toBeUndefined();
    expect(valueAtPath('text', 'a')).toBeUndefined();
  });
});

describe('cellText', () => {
  it.each([
    { name: 'null', value: null, expected: '' },
    { name: 'undefined', value: undefined, expected: '' },
    { name: 'string', value: 'abc', expected: 'abc' },
    { name: 'number', value: 12.5, expected: '12.5' },
    { name: 'zero', value: 0, expected: '0' },
    { name: 'boolean', value: false, expected: 'false' },
    { name: 'empty list', value: [], expected: '' },
    { name: 'list of strings joined with |', value: ['a1', 'b2', 'c3'], expected: 'a1|b2|c3' },
    { name: 'list with null and numbers', value: [1, null, 'x'], expected: '1||x' },
    { name: 'list of objects as JSON', value: [{ id: 1 }], expected: '[{"id":1}]' },
    { name: 'object as JSON', value: { id: 1, name: 'Sup' }, expected: '{"id":1,"name":"Sup"}' },
  ])('$name -> "$expected"', ({ value, expected }) => {
    expect(cellText(value)).toBe(expected);
  });
});

describe('escapeCsvCell', () => {
  it.each([
    { name: 'plain', text: 'abc', delimiter: ',', expected: 'abc' },
    { name: 'empty', text: '', delimiter: ',', expected: '' },
    { name: 'comma', text: 'São Paulo, SP', delimiter: ',', expected: '"São Paulo, SP"' },
    { name: 'quote doubled', text: 'say "hi"', delimiter: ',', expected: '"say ""hi"""' },
    { name: 'newline', text: 'line1\nline2', delimiter: ',', expected: '"line1\nline2"' },
    { name: 'carriage return', text: 'a\rb', delimiter: ',', expected: '"a\rb"' },
    { name: 'leading space', text: ' a', delimiter: ',', expected: '" a"' },
    { name: 'trailing space', text: 'a ', delimiter: ',', expected: '"a "' },
    { name: 'inner space only', text: 'a b', delimiter: ',', expected: 'a b' },
    { name: 'comma with ; as delimiter', text: '1,5', delimiter: ';', expected: '1,5' },
    { name: 'semicolon with ; as delimiter', text: 'a;b', delimiter: ';', expected: '"a;b"' },
  ])('$name', ({ text, delimiter, expected }) => {
    expect(escapeCsvCell(text, delimiter)).toBe(expected);
  });
});

describe('csvLine', () => {
  it.each([
    { cells: ['a', 'b,c', ''], delimiter: ',', expected: 'a,"b,c",\r\n' },
    { cells: ['a', 'b,c'], delimiter: ';', expected: 'a;b,c\r\n' },
    { cells: [], delimiter: ',', expected: '\r\n' },
  ])('$cells with "$delimiter"', ({ cells, delimiter, expected }) => {
    expect(csvLine(cells, delimiter)).toBe(expected);
  });
});
