import { describe, expect, it } from 'vitest';
import type { DecimalSeparator } from '../../../../src/io/input/cell-values.js';
import {
  type CellReading,
  type FieldCatalogue,
  type FieldType,
  pathSegments,
  planColumns,
  setPath,
  shapeRow,
  typedValue,
} from '../../../../src/io/input/record-shape.js';

const fieldTypes: Record<string, FieldType> = {
  document: 'string',
  name: 'string',
  password: 'string',
  'access.password': 'string',
  active: 'boolean',
  lat: 'number',
  quantity: 'integer',
  customerGroupList: 'list',
  'customerRegistrationAddress.zipcode': 'string',
  'customerRegistrationAddress.number': 'string',
  'addressList.0.zipcode': 'string',
  'addressList.0.principal': 'boolean',
  'addressList.1.zipcode': 'string',
  'addressList.1.lat': 'number',
};

const fieldReadings: Record<string, CellReading> = {
  password: 'exact text',
  'access.password': 'exact text',
  active: 'active state',
};

const catalogue: FieldCatalogue = {
  typeOf: (path) => (Object.hasOwn(fieldTypes, path) ? fieldTypes[path] : undefined),
  readingOf: (path) => (Object.hasOwn(fieldReadings, path) ? fieldReadings[path] : undefined),
  knownPaths: Object.keys(fieldTypes),
  requiredColumns: ['document'],
};

describe('planColumns', () => {
  it('plans known columns with their index, path, split path and type', () => {
    const { columns, problems } = planColumns(['document', 'addressList.1.zipcode', 'active'], catalogue);
    expect(columns).toEqual([
      { index: 0, header: 'document', path: 'document', segments: ['document'], type: 'string' },
      {
        index: 1,
        header: 'addressList.1.zipcode',
        path: 'addressList.1.zipcode',
        segments: ['addressList', 1, 'zipcode'],
        type: 'string',
      },
      { index: 2, header: 'active', path: 'active', segments: ['active'], type: 'boolean', reading: 'active state' },
    ]);
    expect(problems).toEqual({ unknown: [], repeated: [], missing: [], unreadable: [] });
  });

  it.each<
    [
      string,
      string[],
      Record<string, string>,
      { path: string; index: number }[],
      Partial<ReturnType<typeof planColumns>['problems']>,
    ]
  >([
    [
      'headers are trimmed',
      [' document ', '\tname'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 1 },
      ],
      {},
    ],
    [
      'empty headers are skipped',
      ['document', '', '  ', 'name'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 3 },
      ],
      {},
    ],
    [
      '--map renames an ERP header',
      ['CNPJ', 'CEP', 'Razão Social'],
      { CNPJ: 'document', CEP: 'customerRegistrationAddress.zipcode', 'Razão Social': 'name' },
      [
        { path: 'document', index: 0 },
        { path: 'customerRegistrationAddress.zipcode', index: 1 },
        { path: 'name', index: 2 },
      ],
      {},
    ],
    [
      '--map is looked up by the trimmed header and its target is trimmed',
      [' CNPJ '],
      { CNPJ: ' document ' },
      [{ path: 'document', index: 0 }],
      {},
    ],
    [
      'headers not in the map keep their name',
      ['CNPJ', 'name'],
      { CNPJ: 'document' },
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 1 },
      ],
      {},
    ],
    [
      'a repeated header drops both columns',
      ['document', 'name', 'name'],
      {},
      [{ path: 'document', index: 0 }],
      { repeated: [{ path: 'name', columns: [2, 3] }] },
    ],
    [
      'a header mapped onto another column repeats it',
      ['document', 'CNPJ'],
      { CNPJ: 'document' },
      [],
      { repeated: [{ path: 'document', columns: [1, 2] }], missing: [] },
    ],
    [
      'an unknown column with a suggestion',
      ['documnet', 'name'],
      {},
      [{ path: 'name', index: 1 }],
      {
        unknown: [{ header: 'documnet', column: 1, suggestion: 'document' }],
        missing: ['document'],
      },
    ],
    [
      'an unknown column with no near name',
      ['document', 'Observações internas'],
      {},
      [{ path: 'document', index: 0 }],
      { unknown: [{ header: 'Observações internas', column: 2, suggestion: undefined }] },
    ],
    [
      'the unknown column is reported by its own header, the suggestion from the mapped path',
      ['CNPJ', 'Cidade'],
      { CNPJ: 'document', Cidade: 'customerRegistrationAddress.zipcod' },
      [{ path: 'document', index: 0 }],
      {
        unknown: [{ header: 'Cidade', column: 2, suggestion: 'customerRegistrationAddress.zipcode' }],
      },
    ],
    [
      'a missing required column',
      ['name', 'active'],
      {},
      [
        { path: 'name', index: 0 },
        { path: 'active', index: 1 },
      ],
      { missing: ['document'] },
    ],
    [
      'the required column supplied through --map',
      ['CPF/CNPJ'],
      { 'CPF/CNPJ': 'document' },
      [{ path: 'document', index: 0 }],
      { missing: [] },
    ],
    [
      'an errors file fed back: its last column "error" is ignored',
      ['document', 'name', 'error'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 1 },
      ],
      { unknown: [] },
    ],
    [
      'an errors file fed back: its "row" column before the last "error" is ignored too',
      ['document', 'name', 'row', 'error'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 1 },
      ],
      { unknown: [] },
    ],
    [
      'a "row" column not followed by the last "error" is unknown',
      ['document', 'row', 'name'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 2 },
      ],
      {
        unknown: [{ header: 'row', column: 2, suggestion: undefined }],
      },
    ],
    [
      'an "error" column that is not the last is unknown',
      ['document', 'error', 'name'],
      {},
      [
        { path: 'document', index: 0 },
        { path: 'name', index: 2 },
      ],
      {
        unknown: [{ header: 'error', column: 2, suggestion: undefined }],
      },
    ],
  ])('%s', (_name, headers, headerMap, expectedColumns, expectedProblems) => {
    const { columns, problems } = planColumns(headers, catalogue, headerMap);
    expect(columns.map((column) => ({ path: column.path, index: column.index }))).toEqual(expectedColumns);
    expect(problems).toEqual({ unknown: [], repeated: [], missing: [], unreadable: [], ...expectedProblems });
  });

  it('a catalogue without required columns never reports one missing', () => {
    const { problems } = planColumns(['name'], { ...catalogue, requiredColumns: undefined });
    expect(problems.missing).toEqual([]);
  });
});

/** A row shaped under the plan of its header line. */
const shape = (headers: string[], cells: string[], decimal: DecimalSeparator = '.') =>
  shapeRow(cells, planColumns(headers, catalogue).columns, decimal);

describe('shapeRow', () => {
  it.each<[string, string[], string[], DecimalSeparator, Record<string, unknown>]>([
    [
      'flat strings, trimmed',
      ['document', 'name'],
      ['  111.444.777-35 ', ' Ana Souza  '],
      '.',
      { document: '111.444.777-35', name: 'Ana Souza' },
    ],
    [
      'codes keep their leading zeros',
      ['document', 'customerRegistrationAddress.zipcode'],
      ['00000000000191', '01310100'],
      '.',
      { document: '00000000000191', customerRegistrationAddress: { zipcode: '01310100' } },
    ],
    [
      'nested dot paths',
      ['customerRegistrationAddress.zipcode', 'customerRegistrationAddress.number'],
      ['01310-100', '1000'],
      '.',
      { customerRegistrationAddress: { zipcode: '01310-100', number: '1000' } },
    ],
    [
      'array indexes build arrays of objects',
      ['addressList.0.zipcode', 'addressList.1.zipcode', 'addressList.0.principal', 'addressList.1.lat'],
      ['01310-100', '20040-002', 'sim', '-22,9'],
      ',',
      {
        addressList: [
          { zipcode: '01310-100', principal: true },
          { zipcode: '20040-002', lat: -22.9 },
        ],
      },
    ],
    ['an empty cell is absent, not ""', ['document', 'name', 'active'], ['1', '', '   '], '.', { document: '1' }],
    [
      'a row shorter than the header leaves the rest absent',
      ['document', 'name', 'active'],
      ['1'],
      '.',
      { document: '1' },
    ],
    [
      'empty cells under a nested path create no object',
      ['document', 'customerRegistrationAddress.zipcode'],
      ['1', ''],
      '.',
      { document: '1' },
    ],
    ['booleans', ['active'], ['NÃO'], '.', { active: false }],
    ['a boolean that is no boolean keeps its text', ['active'], ['talvez'], '.', { active: 'talvez' }],
    ['a decimal comma number', ['lat'], ['-23,5505'], ',', { lat: -23.5505 }],
    ['a thousands-grouped decimal comma number', ['lat'], ['1.234,56'], ',', { lat: 1234.56 }],
    ['a decimal comma number read with a decimal point stays text', ['lat'], ['1.234,56'], '.', { lat: '1.234,56' }],
    ['a decimal point number', ['lat'], ['-23.5505'], '.', { lat: -23.5505 }],
    ['an unparsable number keeps its text', ['lat'], ['abc'], '.', { lat: 'abc' }],
    ['an unparsable number keeps its text untrimmed', ['lat'], [' 12 graus '], '.', { lat: ' 12 graus ' }],
    ['a whole number', ['quantity'], ['1.500'], ',', { quantity: 1500 }],
    ['a fraction for a whole number keeps its text', ['quantity'], ['1,5'], ',', { quantity: '1,5' }],
    ['a list split on |', ['customerGroupList'], ['Atacado| Sul |'], '.', { customerGroupList: ['Atacado', 'Sul'] }],
    ['a password is not trimmed', ['password'], ['  s3nha com espaço  '], '.', { password: '  s3nha com espaço  ' }],
    ['a nested password is not trimmed either', ['access.password'], [' x '], '.', { access: { password: ' x ' } }],
  ])('%s', (_name, headers, cells, decimal, expected) => {
    expect(shape(headers, cells, decimal)).toEqual(expected);
  });

  it('leaves out unknown and repeated columns', () => {
    expect(shape(['document', 'nope', 'name', 'name'], ['1', 'x', 'a', 'b'])).toEqual({ document: '1' });
  });

  it('an index with no lower index leaves a hole, sent as null in JSON', () => {
    const record = shape(['addressList.1.zipcode'], ['20040-002']);
    expect(JSON.stringify(record)).toBe('{"addressList":[null,{"zipcode":"20040-002"}]}');
  });
});

describe('typedValue', () => {
  it.each<[string, FieldType, DecimalSeparator, CellReading | undefined, unknown]>([
    ['sim', 'boolean', '.', undefined, true],
    ['0', 'boolean', ',', undefined, false],
    ['x', 'boolean', ',', undefined, 'x'],
    ['ativo', 'boolean', '.', undefined, 'ativo'],
    ['ativo', 'boolean', '.', 'active state', true],
    ['bloqueado', 'boolean', '.', 'active state', false],
    ['sim', 'boolean', '.', 'active state', true],
    ['1.234', 'number', ',', undefined, 1234],
    ['1.234', 'number', '.', undefined, 1.234],
    ['7', 'integer', '.', undefined, 7],
    ['7.5', 'integer', '.', undefined, '7.5'],
    ['a|b', 'list', '.', undefined, ['a', 'b']],
    [' text ', 'string', '.', undefined, 'text'],
    [' p ', 'string', '.', 'exact text', ' p '],
    [' p ', 'string', '.', 'active state', 'p'],
  ])('%j as %s with %j read as %j → %j', (text, type, decimal, reading, expected) => {
    expect(typedValue(text, type, decimal, reading)).toEqual(expected);
  });
});

describe('pathSegments', () => {
  it.each<[string, (string | number)[]]>([
    ['document', ['document']],
    ['addressList.0.zipcode', ['addressList', 0, 'zipcode']],
    ['a.10.b.2', ['a', 10, 'b', 2]],
    ['a.1x.b', ['a', '1x', 'b']],
  ])('%j → %j', (path, expected) => {
    expect(pathSegments(path)).toEqual(expected);
  });
});

describe('setPath', () => {
  it.each<[string, Record<string, unknown>, string, unknown, unknown]>([
    ['a top-level key', {}, 'name', 'Ana', { name: 'Ana' }],
    ['a nested key', {}, 'a.b.c', 1, { a: { b: { c: 1 } } }],
    ['an index creates an array', {}, 'list.0', 'x', { list: ['x'] }],
    ['an index then a key', {}, 'addressList.0.zipcode', '01310-100', { addressList: [{ zipcode: '01310-100' }] }],
    ['into an existing object', { a: { keep: true } }, 'a.b', 2, { a: { keep: true, b: 2 } }],
    [
      'into an existing array item',
      { addressList: [{ zipcode: '1' }] },
      'addressList.0.number',
      '10',
      { addressList: [{ zipcode: '1', number: '10' }] },
    ],
    [
      'a second array item',
      { addressList: [{ zipcode: '1' }] },
      'addressList.1.zipcode',
      '2',
      { addressList: [{ zipcode: '1' }, { zipcode: '2' }] },
    ],
    ['a scalar in the way is replaced by an object', { a: 'text' }, 'a.b', 1, { a: { b: 1 } }],
    ['null in the way is replaced', { a: null }, 'a.0', 1, { a: [1] }],
    ['overwrites a value', { a: 1 }, 'a', 2, { a: 2 }],
    ['a numeric first segment is a key of the record', {}, '0', 'x', { 0: 'x' }],
  ])('%s', (_name, target, path, value, expected) => {
    setPath(target, path, value);
    expect(target).toEqual(expected);
  });
});
