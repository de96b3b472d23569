import iconv from 'iconv-lite';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ExitCode, InputError, UsageError } from '../../../../src/base/errors.js';
import {
  type InputOptions,
  type InputRecord,
  type OpenedInput,
  parseHeaderMap,
} from '../../../../src/io/input/open-input.js';
import type { FieldCatalogue, FieldType } from '../../../../src/io/input/record-shape.js';
import { openAnyInput } from '../../../../src/io/input/workbook-or-text.js';
import { canListOpenFiles, openFiles } from '../../../support/open-files.js';
import { temporaryFolder } from '../../../support/temporary.js';

const fieldTypes: Record<string, FieldType> = {
  document: 'string',
  name: 'string',
  password: 'string',
  active: 'boolean',
  lat: 'number',
  quantity: 'integer',
  customerGroupList: 'list',
  'customerRegistrationAddress.zipcode': 'string',
  'customerRegistrationAddress.number': 'string',
  'addressList.0.zipcode': 'string',
  'addressList.0.principal': 'boolean',
};

const catalogue: FieldCatalogue = {
  typeOf: (path) => (Object.hasOwn(fieldTypes, path) ? fieldTypes[path] : undefined),
  knownPaths: Object.keys(fieldTypes),
  requiredColumns: ['document'],
};

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-open-input-');
});

let fileCount = 0;
function writeInput(name: string, content: string | Buffer): string {
  const path = join(folder, `${++fileCount}-${name}`);
  writeFileSync(path, content);
  return path;
}

/** A stdin that delivers the bytes in several chunks, as a pipe does. */
function stdinOf(content: Buffer, chunkSize = 7): Readable {
  const chunks: Buffer[] = [];
  for (let index = 0; index < content.length; index += chunkSize)
    chunks.push(content.subarray(index, index + chunkSize));
  return Readable.from(chunks, { objectMode: false });
}

const noStdin = Readable.from([]);

async function open(
  path: string,
  options: Partial<InputOptions> = {},
): Promise<{ opened: OpenedInput; warnings: string[] }> {
  const warnings: string[] = [];
  const opened = await openAnyInput({
    path,
    stdin: noStdin,
    catalogue,
    warn: (message) => warnings.push(message),
    // Notes (a column left out on purpose) in the order said, among the warnings.
    note: (message) => warnings.push(message),
    ...options,
  });
  return { opened, warnings };
}

async function recordsOf(opened: OpenedInput): Promise<InputRecord[]> {
  const records: InputRecord[] = [];
  for await (const record of opened.records) records.push(record);
  return records;
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('openInput: a CSV from pt-BR Excel (Windows-1252, ";", CRLF, decimal comma)', () => {
  const text = [
    'document;name;lat;active;quantity;customerGroupList;customerRegistrationAddress.zipcode',
    '111.444.777-35;João da Conceição;-23,5505;Sim;1.500;Atacado|Sul;01310100',
    '',
    '11.222.333/0001-81;"Açaí & Cia; Ltda";1.234,56;NÃO;2;;',
    '00000000000191;"Preço € ""especial""\r\nsegunda linha";12.5;talvez;1,5;Região Sul;',
    '',
  ].join('\r\n');
  const bytes = iconv.encode(text, 'win1252');

  it('the bytes really are Windows-1252 (ã is 0xE3, € is 0x80)', () => {
    expect(bytes.includes(0xe3)).toBe(true);
    expect(bytes.includes(0x80)).toBe(true);
    expect(bytes.includes(Buffer.from('ã', 'utf8'))).toBe(false);
  });

  it.each([
    ['a file', false],
    ['stdin', true],
  ])('from %s: sniffs encoding, delimiter and decimal, and types the cells', async (_name, fromStdin) => {
    const { opened, warnings } = fromStdin
      ? await open('-', { stdin: stdinOf(bytes) })
      : await open(writeInput('clientes.csv', bytes));
    expect(opened.file).toBe(fromStdin ? 'stdin' : opened.file);
    expect(opened.format).toBe('csv');
    expect(opened.encoding).toBe('windows-1252');
    expect(opened.csv).toEqual({
      delimiter: ';',
      decimal: ',',
      headers: [
        'document',
        'name',
        'lat',
        'active',
        'quantity',
        'customerGroupList',
        'customerRegistrationAddress.zipcode',
      ],
      // The text fields' columns, whose codes an errors file keeps as text: not lat, active or quantity.
      textColumns: [0, 1, 5, 6],
    });
    const records = await recordsOf(opened);
    expect(records.map((record) => ({ line: record.line, values: record.values, problems: record.problems }))).toEqual([
      {
        line: 2,
        values: {
          document: '111.444.777-35',
          name: 'João da Conceição',
          lat: -23.5505,
          active: true,
          quantity: 1500,
          customerGroupList: ['Atacado', 'Sul'],
          customerRegistrationAddress: { zipcode: '01310100' },
        },
        problems: [],
      },
      {
        line: 4,
        values: { document: '11.222.333/0001-81', name: 'Açaí & Cia; Ltda', lat: 1234.56, active: false, quantity: 2 },
        problems: [],
      },
      {
        line: 5,
        values: {
          document: '00000000000191',
          name: 'Preço € "especial"\nsegunda linha',
          lat: '12.5',
          active: 'talvez',
          quantity: '1,5',
          customerGroupList: ['Região Sul'],
        },
        problems: [],
      },
    ]);
    expect(records[1]?.original).toEqual(['11.222.333/0001-81', 'Açaí & Cia; Ltda', '1.234,56', 'NÃO', '2', '', '']);
    expect(warnings).toEqual([]);
  });

  it('--decimal . overrides the decimal comma that ";" implies', async () => {
    const { opened } = await open(writeInput('clientes.csv', bytes), { decimal: '.' });
    expect(opened.csv?.decimal).toBe('.');
    const records = await recordsOf(opened);
    expect(records.map((record) => record.values.lat)).toEqual(['-23,5505', '1.234,56', 12.5]);
  });
});

describe('openInput: UTF-8', () => {
  it('with a BOM: the first header is clean and the BOM is gone from the data', async () => {
    const path = writeInput('customers.csv', Buffer.from('\uFEFFdocument,name,lat\r\n1,José,-23.5\r\n', 'utf8'));
    const { opened, warnings } = await open(path);
    expect(opened.encoding).toBe('utf-8');
    expect(opened.csv).toEqual({
      delimiter: ',',
      decimal: '.',
      headers: ['document', 'name', 'lat'],
      textColumns: [0, 1],
    });
    expect((await recordsOf(opened)).map((record) => [record.line, record.values])).toEqual([
      [2, { document: '1', name: 'José', lat: -23.5 }],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a tab-separated .tsv', async () => {
    const { opened } = await open(writeInput('stock.tsv', 'document\tquantity\n1\t5\n'));
    expect(opened.csv?.delimiter).toBe('\t');
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1', quantity: 5 }]);
  });

  it('--delimiter overrides the sniffing', async () => {
    const { opened } = await open(writeInput('odd.txt', 'document|name\n1|a,b\n'), { delimiter: '|' });
    expect(opened.csv?.delimiter).toBe('|');
    expect(opened.csv?.decimal).toBe('.');
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1', name: 'a,b' }]);
  });

  it('--encoding windows-1252 overrides the sniffing', async () => {
    const path = writeInput('utf8.csv', Buffer.from('document,name\n1,José\n', 'utf8'));
    expect((await recordsOf((await open(path)).opened)).map((record) => record.values.name)).toEqual(['José']);
    const ascii = writeInput('ascii.csv', 'document,name\n1,Jose\n');
    expect((await open(ascii, { encoding: 'windows-1252' })).opened.encoding).toBe('windows-1252');
    // Never read as "JosÃ©": UTF-8 accents under a single-byte encoding stop the reading at their line.
    const error = await rejectionOf(open(path, { encoding: 'windows-1252' }));
    expect(error.message).toBe(
      `${path}:2: "JosÃ©" is UTF-8 text read as windows-1252 (as UTF-8 it reads "José"); nothing was sent. Drop --encoding windows-1252 if the whole file is UTF-8 (b2bctl reads UTF-8 by itself), else re-export it as "CSV UTF-8".`,
    );
  });

  it('a Windows-1252 byte past the sniffed sample stops the reading with the fix', async () => {
    const rows = Array.from({ length: 3000 }, (_, index) => `${index},Cliente número ${index}`).join('\n');
    expect(Buffer.byteLength(rows)).toBeGreaterThan(64 * 1024);
    const path = writeInput(
      'late.csv',
      Buffer.concat([Buffer.from(`document,name\n${rows}\n`), Buffer.from([0x39, 0x2c, 0x4a, 0x6f, 0xe3, 0x6f, 0x0a])]),
    );
    const { opened } = await open(path);
    expect(opened.encoding).toBe('utf-8');
    const error = await rejectionOf(recordsOf(opened));
    expect(error).toBeInstanceOf(InputError);
    const badByte = Buffer.byteLength(`document,name\n${rows}\n`) + 4;
    expect(error.message).toBe(
      `${path}:3002: mixed encodings: line 3002 is not UTF-8 (bytes 0xE3 0x6F 0x0A after byte ${badByte}) but line 2 holds UTF-8 ("número"); no single encoding reads the file whole, so nothing was sent. Re-export the whole file as "CSV UTF-8", or retype line 3002 in UTF-8.`,
    );
    expect((error as InputError).line).toBe(3002);
  });

  it('a row with more cells than the header carries a problem, its extra cells empty or not (decision 0031)', async () => {
    const { opened } = await open(writeInput('wide.csv', 'document,name\n1,Ana,extra\n2,Bia,\n3,Caio\n'));
    const records = await recordsOf(opened);
    const split =
      'in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes';
    expect(records.map((record) => record.problems)).toEqual([
      [`the row has 3 cells but the header has 2 columns: ${split}`],
      [
        `the row has 3 cells but the header has 2 columns: ${split}; if every row of the file ends with a delimiter, end the header with one too`,
      ],
      [],
    ]);
  });

  it('a comma row with whole numbers side by side past the header: not told to end the header with a delimiter', async () => {
    const { opened } = await open(writeInput('wide-pair.csv', 'document,name\n6,5,\n'));
    expect((await recordsOf(opened)).map((record) => record.problems)).toEqual([
      [
        'the row has 3 cells but the header has 2 columns: in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes',
      ],
    ]);
  });

  // Decision 0031, Later: the header's spare unnamed column took a split row's last, empty, cell and the row loaded.
  it('a comma header ending with a delimiter: a row filling its last named column with whole numbers side by side is refused', async () => {
    const { opened } = await open(writeInput('spare.csv', 'document,name,\n6,5,\n7,,\n8,Ana,\n9,5.5,\n'));
    expect((await recordsOf(opened)).map((record) => record.problems)).toEqual([
      [
        'the row fills column 2, the header\'s last named one, leaves its unnamed column 3 empty and holds whole numbers side by side, as a row does whose decimal comma split a number into two cells (6,5 is 6 and 5) and moved every later value one column right; quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself (in a comma-separated file whose header ends with a delimiter, such a row cannot be told from a right one)',
      ],
      [],
      [],
      [],
    ]);
  });

  // A user test: the errors file of the row above, fed back unchanged, ended its header in `,,row,error` and sent 6.
  it('an errors file fed back: its rows meet the checks of the header without its row and error columns', async () => {
    const spare = 'document,name,,row,error\n6,5,,2,refused\n7,,,3,refused\n';
    const { opened } = await open(writeInput('spare.errors.csv', spare));
    const records = await recordsOf(opened);
    expect(records.map((record) => record.problems)).toEqual([
      [
        expect.stringMatching(
          /^the row fills column 2, the header's last named one, leaves its unnamed column 3 empty/,
        ),
      ],
      [],
    ]);
    expect(records.map((record) => record.original)).toEqual([
      ['6', '5', ''],
      ['7', '', ''],
    ]);
  });

  it('an errors file fed back: a row kept longer than its header is refused as it was, its own cells kept', async () => {
    const { opened } = await open(
      writeInput('wide.errors.csv', 'document,name,row,error\n1,6,5,2,refused\n2,Ana,3,x\n'),
    );
    const records = await recordsOf(opened);
    expect(records.map((record) => record.problems)).toEqual([
      [
        'the row has 3 cells but the header has 2 columns: in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes',
      ],
      [],
    ]);
    expect(records.map((record) => [record.values, record.original])).toEqual([
      [{ document: '1', name: '6' }, ['1', '6', '5']],
      [{ document: '2', name: 'Ana' }, ['2', 'Ana']],
    ]);
  });

  it('a ";" row with an empty cell past the header: no decimal comma to blame, the header to end with ";"', async () => {
    const { opened } = await open(writeInput('wide-semicolon.csv', 'document;name\n1;Ana;\n'));
    expect((await recordsOf(opened)).map((record) => record.problems)).toEqual([
      [
        'the row has 3 cells but the header has 2 columns; check the delimiter and quotes; if every row of the file ends with a delimiter, end the header with one too',
      ],
    ]);
  });

  it.each([
    'clientes-corrigido.win1252.csv',
    'clientes-digitado.win1252.csv',
    'estoque.win1252.csv',
    'estoque.tab.txt',
    'estoque.sep.csv',
    'clientes.utf8-bom.csv',
  ])('the real export %s, whose rows and header end in empty cells alike, has no row too long', async (name) => {
    const { opened } = await open(join(__dirname, '../../../fixtures/real-exports', name), {
      catalogue: { ...catalogue, typeOf: () => 'string', knownPaths: [], requiredColumns: [] },
    });
    const records = await recordsOf(opened);
    expect(records.length).toBeGreaterThan(0);
    expect(
      records.flatMap((record) => record.problems).filter((problem) => String(problem).includes('cells but')),
    ).toEqual([]);
  });
});

describe('openInput: stdin (-), format sniffed', () => {
  it.each<[string, string, 'csv' | 'json' | 'ndjson', { line: number; values: Record<string, unknown> }[]]>([
    ['CSV', 'document;lat\n1;2,5\n', 'csv', [{ line: 2, values: { document: '1', lat: 2.5 } }]],
    [
      'a JSON array',
      '[\n {"document": "1"},\n {"document": "2"}\n]',
      'json',
      [
        { line: 2, values: { document: '1' } },
        { line: 3, values: { document: '2' } },
      ],
    ],
    [
      'NDJSON',
      '{"document":"1"}\n\n{"document":"2"}\n',
      'ndjson',
      [
        { line: 1, values: { document: '1' } },
        { line: 3, values: { document: '2' } },
      ],
    ],
    [
      'one JSON object',
      '{\n  "document": "1",\n  "active": true\n}\n',
      'json',
      [{ line: 1, values: { document: '1', active: true } }],
    ],
    ['a JSON array after a BOM', '\uFEFF[{"document":"1"}]', 'json', [{ line: 1, values: { document: '1' } }]],
  ])('%s', async (_name, content, format, expected) => {
    const { opened } = await open('-', { stdin: stdinOf(Buffer.from(content, 'utf8'), 3) });
    expect(opened.file).toBe('stdin');
    expect(opened.format).toBe(format);
    expect((await recordsOf(opened)).map((record) => ({ line: record.line, values: record.values }))).toEqual(expected);
  });

  it('a stdin larger than the sniffed sample loses no byte at the seam', async () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => `{"document":"${index}","name":"Clienté ${index}"}`);
    const { opened } = await open('-', { stdin: stdinOf(Buffer.from(rows.join('\n'), 'utf8'), 1000) });
    const records = await recordsOf(opened);
    expect(records.length).toBe(10_000);
    expect(
      records.every(
        (record, index) =>
          record.line === index + 1 &&
          record.values.document === String(index) &&
          record.values.name === `Clienté ${index}`,
      ),
    ).toBe(true);
  });
});

describe('openInput: JSON', () => {
  it('types quoted numbers and booleans by their field, keeps strings and nested values', async () => {
    const content = JSON.stringify([
      {
        document: '00000000000191',
        lat: '-23.5',
        active: 'sim',
        quantity: '5',
        name: '123',
        customerGroupList: ['Atacado', 'Sul'],
        customerRegistrationAddress: { zipcode: '01310100', number: '10' },
        'addressList.0.zipcode': '20040-002',
      },
      { document: '2', lat: '1.234,56', active: 'talvez', quantity: '2.5', name: null, password: '' },
      { document: '3', lat: 4.5, active: false, quantity: 7 },
    ]);
    const { opened, warnings } = await open(writeInput('customers.json', content));
    expect(opened.format).toBe('json');
    expect(opened.csv).toBeUndefined();
    const records = await recordsOf(opened);
    expect(records.map((record) => record.values)).toEqual([
      {
        document: '00000000000191',
        lat: -23.5,
        active: true,
        quantity: 5,
        name: '123',
        customerGroupList: ['Atacado', 'Sul'],
        customerRegistrationAddress: { zipcode: '01310100', number: '10' },
        addressList: [{ zipcode: '20040-002' }],
      },
      { document: '2', lat: '1.234,56', active: 'talvez', quantity: '2.5' },
      { document: '3', lat: 4.5, active: false, quantity: 7 },
    ]);
    expect(warnings).toEqual([]);
  });

  it('an unknown key that holds no data warns once, not once per record, as an empty CSV column does', async () => {
    const { opened, warnings } = await open(
      writeInput(
        'customers.ndjson',
        '{"document":"1","fax":null}\n{"document":"2","fax":"  "}\n{"document":"3","fax":{"a":[null,""]}}\n',
      ),
    );
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([
      { document: '1' },
      { document: '2' },
      { document: '3' },
    ]);
    expect(warnings).toEqual([
      `warning: ${opened.file}:1: unknown key "fax": no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).`,
    ]);
  });

  it('an unknown key that holds data stops the reading at its record, naming it, its value and the fix', async () => {
    const path = writeInput(
      'customers.json',
      '[\n{"document":"1","obs":null},\n{"document":"2","obs":"cliente antigo"}\n]',
    );
    const { opened } = await open(path);
    const read: InputRecord[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const record of opened.records) read.push(record);
      })(),
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.dataInvalid);
    expect(error.message).toBe(
      `${path}:3: key "obs" holds "cliente antigo" but no field reads it, so it would not be sent; nothing was sent. Map it with {"obs":"FIELD"} in a --map file, or leave it out with --ignore-column obs.`,
    );
    // The record holding the data is never handed out.
    expect(read.map((record) => record.values)).toEqual([{ document: '1' }]);
  });

  it('every key of the record that holds data is listed, nested ones by their path, numbers and lists quoted', async () => {
    const path = writeInput(
      'customers.json',
      JSON.stringify([
        {
          document: '1',
          customerRegistrationAddress: { zipcode: '01310100', zipcod: '01310-100', bloco: 'B apto 12' },
          addressList: [{ zipcode: '1', referencia: 'portão azul' }],
          codigo: 4501,
          tags: ['a', null],
        },
      ]),
    );
    const { opened } = await open(path);
    const error = await rejectionOf(recordsOf(opened));
    expect(error.message).toBe(
      `${path}:1: 5 keys hold data no field reads, so it would not be sent; nothing was sent. Map each in a --map file, or leave it out with --ignore-column: key "customerRegistrationAddress.zipcod" holds "01310-100" on line 1 ({"customerRegistrationAddress.zipcod":"customerRegistrationAddress.zipcode"}, or --ignore-column customerRegistrationAddress.zipcod); key "customerRegistrationAddress.bloco" holds "B apto 12" on line 1 ({"customerRegistrationAddress.bloco":"FIELD"}, or --ignore-column customerRegistrationAddress.bloco); key "addressList.0.referencia" holds "portão azul" on line 1 ({"addressList.0.referencia":"FIELD"}, or --ignore-column addressList.0.referencia); key "codigo" holds "4501" on line 1 ({"codigo":"FIELD"}, or --ignore-column codigo); key "tags" holds "["a",null]" on line 1 ({"tags":"FIELD"}, or --ignore-column tags).`,
    );
  });

  it('--ignore-column and null in the map leave keys out, nested ones too; --map moves a nested key to its field', async () => {
    const record = {
      document: '1',
      Observações: 'cliente antigo',
      fax: '11 5555-0000',
      customerRegistrationAddress: { zipcode: '01310100', bloco: 'B apto 12', numero: '10' },
    };
    const path = writeInput('customers.json', JSON.stringify([record]));
    const { opened, warnings } = await open(path, {
      ignoredColumns: ['observacoes', 'customerRegistrationAddress.bloco', 'Obs'],
      headerMap: { fax: null, 'customerRegistrationAddress.numero': 'customerRegistrationAddress.number' },
    });
    const [read] = await recordsOf(opened);
    expect(read?.values).toEqual({
      document: '1',
      customerRegistrationAddress: { zipcode: '01310100', number: '10' },
    });
    // The file's own record, kept for the errors file, is untouched.
    expect(read?.original).toEqual(record);
    expect(warnings).toEqual([
      `${path}:1: key "Observações" is left out (--ignore-column).`,
      `${path}:1: key "customerRegistrationAddress.bloco" is left out (--ignore-column).`,
      'warning: --ignore-column "Obs": no key has that name.',
    ]);
  });

  it('a key that is a field name in another case is that field, as a CSV header is', async () => {
    const { opened, warnings } = await open(writeInput('customers.json', '[{"DOCUMENT":"1","Name":"Ana"}]'));
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1', name: 'Ana' }]);
    expect(warnings).toEqual([]);
  });

  it('--write-map or a terminal: the keys that hold data are offered once, and the map adopted is read', async () => {
    const offers: { map: unknown; mapped: unknown; unmapped: unknown; sample: unknown; noun: unknown }[] = [];
    const path = writeInput(
      'customers.json',
      '[{"document":"1","CNPJ":"11.222.333/0001-81","apelido":"Loja"},{"document":"2","apelido":"Bar","extra":"x"}]',
    );
    const { opened } = await open(path, {
      adoptHeaderMap: async (map, proposal, sampleOf, noun) => {
        offers.push({
          map,
          mapped: proposal.mapped,
          unmapped: proposal.unmapped,
          sample: sampleOf('apelido'),
          noun,
        });
        return { ...map, apelido: 'name', CNPJ: null };
      },
    });
    const error = await rejectionOf(recordsOf(opened));
    // Asked once, at the first record; a key first holding data further down is named by the error.
    expect(offers).toEqual([{ map: {}, mapped: [], unmapped: ['CNPJ', 'apelido'], sample: 'Loja', noun: 'key' }]);
    expect(error.message).toBe(
      `${path}:1:64 (element 1): key "extra" holds "x" but no field reads it, so it would not be sent; nothing was sent. Map it with {"extra":"FIELD"} in a --map file, or leave it out with --ignore-column extra.`,
    );
  });

  it('--map renames JSON keys', async () => {
    const { opened } = await open(writeInput('erp.json', '{"CNPJ":"11.222.333/0001-81","Ativo":"não"}'), {
      headerMap: { CNPJ: 'document', Ativo: 'active' },
    });
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([
      { document: '11.222.333/0001-81', active: false },
    ]);
  });

  it('an errors file fed back: the last "error" field is dropped silently', async () => {
    const { opened, warnings } = await open(writeInput('customers.errors.ndjson', '{"document":"1","error":"bad"}\n'));
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1' }]);
    expect(warnings).toEqual([]);
  });

  it('a value that is not an object becomes a record with a problem', async () => {
    const { opened } = await open(writeInput('mixed.json', '[{"document":"1"}, 5, [1], "x", null]'));
    expect((await recordsOf(opened)).map((record) => [record.values, record.problems])).toEqual([
      [{ document: '1' }, []],
      [{}, ['expected a JSON object, found 5']],
      [{}, ['expected a JSON object, found an array']],
      [{}, ['expected a JSON object, found "x"']],
      [{}, ['expected a JSON object, found null']],
    ]);
  });
});

describe('openInput: empty inputs are nothing to do, not an error', () => {
  it.each<[string, string, string | Buffer, 'csv' | 'json' | 'ndjson']>([
    ['an empty .csv', 'empty.csv', '', 'csv'],
    ['an empty .json', 'empty.json', '', 'json'],
    ['an empty .ndjson', 'empty.ndjson', '', 'ndjson'],
    ['an empty file with no telling extension', 'empty.dat', '', 'csv'],
    ['a CSV of empty lines', 'blank.csv', '\r\n\r\n\r\n', 'csv'],
    [
      'a CSV that is only a BOM (Excel "CSV UTF-8" of an empty sheet)',
      'bom.csv',
      Buffer.from([0xef, 0xbb, 0xbf]),
      'csv',
    ],
  ])('%s has no records', async (_name, fileName, content, format) => {
    const { opened, warnings } = await open(writeInput(fileName, content));
    expect(opened.format).toBe(format);
    expect(opened.csv).toBeUndefined();
    expect(await recordsOf(opened)).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('an empty stdin has no records', async () => {
    const { opened } = await open('-', { stdin: Readable.from([]) });
    expect(opened.file).toBe('stdin');
    expect(await recordsOf(opened)).toEqual([]);
  });

  it('a header-only CSV has its columns checked and no records', async () => {
    const { opened } = await open(writeInput('header.csv', 'document;name\r\n'));
    expect(opened.csv?.headers).toEqual(['document', 'name']);
    expect(await recordsOf(opened)).toEqual([]);
  });
});

describe('openInput: refusals', () => {
  it.each<[string, () => string | Buffer, RegExp, number]>([
    [
      'an .xlsx workbook cut short',
      () => Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00]),
      /: cannot read the workbook \(end of central directory record signature not found\); the file is damaged or cut short\. Open it in the spreadsheet program and save it again\.$/,
      ExitCode.dataInvalid,
    ],
    [
      'a binary file',
      () => Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
      /: looks like a binary file, not CSV or JSON text\. Export the data as CSV or JSON\.$/,
      ExitCode.dataInvalid,
    ],
  ])('%s', async (_name, content, message, exitCode) => {
    const path = writeInput('input.csv', content());
    const error = await rejectionOf(open(path));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${path}: `)).toBe(true);
    expect((error as InputError).exitCode).toBe(exitCode);
  });

  it('an .xlsx on stdin is named stdin', async () => {
    const error = await rejectionOf(open('-', { stdin: stdinOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0])) }));
    expect(error.message).toMatch(/^stdin: cannot read the workbook/);
  });

  it('a missing file is exit 66 with the fix', async () => {
    const path = join(folder, 'nope.csv');
    const error = await rejectionOf(open(path));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`${path}: no such file; check the path.`);
    expect((error as InputError).exitCode).toBe(ExitCode.inputMissing);
  });

  it('a folder is exit 66', async () => {
    const error = await rejectionOf(open(folder));
    expect(error.message).toBe(`${folder}: it is a folder, not a file.`);
    expect((error as InputError).exitCode).toBe(ExitCode.inputMissing);
  });

  it.each<[string, string, Partial<InputOptions>, string]>([
    [
      'a repeated column',
      'document,name,name\n1,a,b\n',
      {},
      ':1: column "name" appears 2 times (columns 2, 3). Keep one, or rename the other with --map.',
    ],
    [
      'a missing required column',
      'name,lat\na,1\n',
      {},
      ':1: no "document" column (the columns are name, lat). Name the column "document", or map yours to it with --map.',
    ],
    [
      'a header line after empty lines',
      '\n\nname\na\n',
      {},
      ':3: no "document" column (the columns are name). Name the column "document", or map yours to it with --map.',
    ],
    [
      '--strict and an unknown column',
      'document,nmae\n1,a\n',
      { strict: true },
      ':1: unknown column "nmae" (did you mean "name"?). Rename it with --map, or drop --strict to ignore it.',
    ],
    [
      '--strict and an unknown column with no suggestion',
      'document,Observações\n1,a\n',
      { strict: true },
      ':1: unknown column "Observações". Rename it with --map, or drop --strict to ignore it.',
    ],
  ])('%s', async (_name, content, options, suffix) => {
    const path = writeInput('input.csv', content);
    const error = await rejectionOf(open(path, options));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(`${path}${suffix}`);
    expect((error as InputError).exitCode).toBe(ExitCode.dataInvalid);
  });

  it('without --strict an unknown column is a warning; empty, it is left out', async () => {
    const path = writeInput('input.csv', 'document,nmae\n1,\n');
    const { opened, warnings } = await open(path);
    expect(warnings).toEqual([
      `warning: ${path}:1: unknown column "nmae" (did you mean "name"?): no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).`,
    ]);
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1' }]);
  });

  it('an unknown column that holds data stops the reading, naming it, its value and the fix', async () => {
    const path = writeInput('input.csv', 'document,nmae\n1,\n2,Ana\n');
    const { opened } = await open(path);
    const error = await rejectionOf(recordsOf(opened));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `${path}:3: column 2 (B) "nmae" holds "Ana" but no field reads it, so it would not be sent; nothing was sent. Map it with {"nmae":"name"} in a --map file, or leave it out with --ignore-column nmae.`,
    );
  });

  it('--ignore-column leaves an unknown column out, its data unread; a name no header has is warned about', async () => {
    const path = writeInput('input.csv', 'document,Data de cadastro\n1,05/03/2024\n');
    const { opened, warnings } = await open(path, { ignoredColumns: ['DATA DE CADASTRO', 'Obs'] });
    expect(warnings).toEqual([
      `${path}:1: column "Data de cadastro" is left out (--ignore-column).`,
      'warning: --ignore-column "Obs": no column has that header.',
    ]);
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([{ document: '1' }]);
  });

  it('--strict and an unknown JSON field', async () => {
    const path = writeInput('input.json', '[{"document":"1"},{"document":"2","fax":"x"}]');
    const { opened } = await open(path, { strict: true });
    const error = await rejectionOf(recordsOf(opened));
    expect(error.message).toBe(
      `${path}:1:19 (element 1): unknown key "fax". Rename it with --map, or drop --strict to ignore it.`,
    );
  });

  it('a JSON syntax error names file:line:column', async () => {
    const path = writeInput('input.json', '[\n  {"document": "1"},\n  {"document": "2",}\n]');
    const { opened } = await open(path);
    const error = await rejectionOf(recordsOf(opened));
    expect(error.message).toBe(
      `${path}:3:20: invalid JSON: Expected double-quoted property name (near: {"document": "2",}).`,
    );
  });
});

describe('parseHeaderMap', () => {
  it('returns the mapping', () => {
    expect(parseHeaderMap({ CNPJ: 'document', CEP: 'customerRegistrationAddress.zipcode' }, 'map.json')).toEqual({
      CNPJ: 'document',
      CEP: 'customerRegistrationAddress.zipcode',
    });
    expect(parseHeaderMap({}, 'map.json')).toEqual({});
  });

  it.each<[string, unknown, string]>([
    ['an array', [['CNPJ', 'document']], 'map.json: a --map file holds one JSON object such as {"CNPJ":"document"}.'],
    ['null', null, 'map.json: a --map file holds one JSON object such as {"CNPJ":"document"}.'],
    ['a string', 'document', 'map.json: a --map file holds one JSON object such as {"CNPJ":"document"}.'],
    [
      'a number value',
      { CNPJ: 1 },
      'map.json: the mapping of "CNPJ" must be a field name such as "document", or null to leave the column out.',
    ],
    [
      'an empty value',
      { CEP: 'customerRegistrationAddress.zipcode', CNPJ: '' },
      'map.json: the mapping of "CNPJ" must be a field name such as "document", or null to leave the column out.',
    ],
    [
      'a nested object',
      { CNPJ: { to: 'document' } },
      'map.json: the mapping of "CNPJ" must be a field name such as "document", or null to leave the column out.',
    ],
  ])('%s is a usage error', (_name, json, message) => {
    const error = (() => {
      try {
        parseHeaderMap(json, 'map.json');
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(message);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
  });
});

describe('a JSON file that wraps its records (issue 10, item 15)', () => {
  it('{"customers":[...]} stops with a hint to pass the list itself', async () => {
    const path = writeInput('wrapped.json', JSON.stringify({ customers: [{ document: '1', name: 'Ana' }] }));
    const error = await rejectionOf(recordsOf((await open(path)).opened));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `${path}:1: the records are inside "customers" ({"customers": [...]}); pass a file whose top level is the list itself: [{...}, {...}].`,
    );
  });

  it('a record whose one field is a known list of objects is a record, not a wrapper', async () => {
    const known: FieldCatalogue = {
      typeOf: (path) => (path === 'addressList.0.zipcode' ? 'string' : undefined),
      knownPaths: ['addressList.0.zipcode'],
    };
    const path = writeInput('one-field.json', JSON.stringify([{ addressList: [{ zipcode: '01310-100' }] }]));
    const { opened } = await open(path, { catalogue: known });
    expect((await recordsOf(opened)).map((record) => record.values)).toEqual([
      { addressList: [{ zipcode: '01310-100' }] },
    ]);
  });
});

describe('estimatedRecords', () => {
  it('extrapolates the lines of a large CSV from its first 64 KB, within a few percent', async () => {
    // ERP codes of one width, names of varying length.
    const rows = Array.from(
      { length: 200_000 },
      (_, n) => `${String(n).padStart(8, '0')},Cliente ${n % 7 === 0 ? 'com nome longo' : 'X'}`,
    );
    const { opened } = await open(writeInput('large.csv', `document,name\n${rows.join('\n')}\n`));
    opened.close();
    expect(opened.estimatedRecords).toBeGreaterThan(190_000);
    expect(opened.estimatedRecords).toBeLessThan(210_000);
  });

  it('is the line count of a file shorter than 64 KB, and nothing for stdin or JSON', async () => {
    expect((await open(writeInput('small.csv', 'document,name\n1,a\n2,b\n'))).opened.estimatedRecords).toBe(3);
    const piped = await open('-', { stdin: stdinOf(Buffer.from('document,name\n1,a\n', 'utf8')) });
    expect(piped.opened.estimatedRecords).toBeUndefined();
    const json = await open(writeInput('list.json', '[{"document":"1"},\n{"document":"2"}]\n'));
    expect(json.opened.estimatedRecords).toBeUndefined();
  });
});

/*
 * A file longer than the 64 KB sniffed at opening stays open until its records are read. One given up earlier must be
 * let go of explicitly: Node 26 turns a file handle left to the garbage collector into an uncaught error (it ended a
 * CI run), and a long-lived process would run out of descriptors.
 */
/** A CSV of 20,000 rows, well past the 64 KB read at opening. */
const longCsv = (name: string, header = 'document,name') =>
  writeInput(name, `${header}\n${Array.from({ length: 20_000 }, (_, n) => `${n},Cliente ${n}`).join('\n')}\n`);

describe.skipIf(!canListOpenFiles)('letting go of the file (no /proc: skipped)', () => {
  it('close() lets go of an input whose records were never read', async () => {
    const path = longCsv('unread.csv');
    const { opened } = await open(path);
    expect(openFiles()).toContain(path);
    opened.close();
    await vi.waitFor(() => expect(openFiles()).not.toContain(path));
    opened.close();
  });

  it('an input refused after opening is let go of without a close()', async () => {
    const path = longCsv('refused.csv', 'document,name,surprise');
    await expect(
      open(path, { strict: true, catalogue: { ...catalogue, requiredColumns: ['document', 'password'] } }),
    ).rejects.toThrow(InputError);
    await vi.waitFor(() => expect(openFiles()).not.toContain(path));
  });

  it('reading every record lets go of it, and a close() after that does nothing', async () => {
    const path = longCsv('read.csv');
    const { opened } = await open(path);
    expect(await recordsOf(opened)).toHaveLength(20_000);
    await vi.waitFor(() => expect(openFiles()).not.toContain(path));
    opened.close();
  });
});
