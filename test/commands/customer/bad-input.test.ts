/**
 * Bad customer input, each command line run in process (moved from test/e2e/customer/bad-input.test.ts): each
 * case checks the exact message, the exit code, and that the sandbox received no request at all (the token is
 * cached, so not even a token request).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { createHeader, createRoute, generateCustomers, storedCustomers } from '../../support/customers.js';
import { expectLines, timed } from '../../support/run-files.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { ndjsonOf } from '../../support/ndjson.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

function folderWith(name: string, contents: string | Buffer): string {
  const folder = freshWorkDir();
  writeFileSync(join(folder, name), contents);
  return folder;
}

/** What a `customer create` run left behind: its outcome, the sandbox's request counts, and the files it added. */
interface RunTrace {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: Record<string, number>;
  filesAdded: string[];
}

async function createRun(folder: string, file: string, extra: readonly string[] = []): Promise<RunTrace> {
  const before = readdirSync(folder);
  const result = await cli(['customer', 'create', file, ...extra], folder);
  return {
    code: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    requests: await requestCounts(sandbox),
    filesAdded: readdirSync(folder).filter((name) => !before.includes(name)),
  };
}

/** A refusal: the one error line after the first phase line, the exit code, no request at all, no report or errors file. */
function refusal(file: string, code: number, error: string): RunTrace {
  return {
    code,
    stdout: '',
    stderr: `customer create: validating ${file}\nerror: ${error}\n`,
    requests: {},
    filesAdded: [],
  };
}

const ana = 'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10';
/** A customer row with an address complement, as typed. */
const customerRow = (document: string, complement: string) =>
  `cpf,${document},Ana,${document.replaceAll(/\D/g, '')}@example.com,11987654321,Senha#1,01310-100,10,${complement}`;

describe('files that cannot be read as records', () => {
  it('a missing file: exit 66, the message names the path', async () => {
    const folder = freshWorkDir();
    expect(await createRun(folder, 'exports/clientes.csv')).toEqual(
      refusal('exports/clientes.csv', 66, 'exports/clientes.csv: no such file; check the path.'),
    );
    const validate = await cli(['customer', 'validate', 'exports/clientes.csv'], folder);
    expect([validate.code, validate.stderr]).toEqual([
      66,
      'error: exports/clientes.csv: no such file; check the path.\n',
    ]);
  });

  it('a folder where a file should be: exit 66', async () => {
    const folder = freshWorkDir();
    mkdirSync(join(folder, 'customers.csv'));
    expect(await createRun(folder, 'customers.csv')).toEqual(
      refusal('customers.csv', 66, 'customers.csv: it is a folder, not a file.'),
    );
  });

  it('a device where a file should be (/dev/zero, read for ever): exit 66 at once, nothing sent', async () => {
    expect(await createRun(freshWorkDir(), '/dev/zero')).toEqual(
      refusal('/dev/zero', 66, '/dev/zero: it is a device, not a file.'),
    );
  });

  it('a quote typed in a cell and never closed is named where it opens, not at the next quoted cell it swallows', async () => {
    // Line 3 ends with `"Bloco A` (a quote typed in the ERP); line 5 ends with a properly quoted `"y"`.
    const header = `${createHeader},customerRegistrationAddress.complement`;
    const lines = [
      header,
      customerRow('256.162.680-62', 'ok'),
      customerRow('256.170.599-47', '"Bloco A'),
      customerRow('256.186.437-58', 'x'),
      customerRow('256.194.356-95', '"y"'),
      customerRow('256.210.194-40', 'z'),
    ];
    const folder = folderWith('clientes.csv', `${lines.join('\r\n')}\r\n`);
    expect(await createRun(folder, 'clientes.csv')).toEqual(
      refusal(
        'clientes.csv',
        65,
        'clientes.csv:3: a quoted cell opens on this line and runs on across the line breaks to line 5, where text follows what closes it; the quote is probably never closed on line 3. Close it there, or write a quote inside a cell as "".',
      ),
    );
  });

  it('a missing --map file: exit 66 naming it', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    expect(await createRun(folder, 'customers.csv', ['--map', 'erp-map.json'])).toEqual(
      refusal('customers.csv', 66, 'erp-map.json: cannot read the --map file (ENOENT).'),
    );
  });

  it('a binary file: exit 65', async () => {
    const bytes = Buffer.alloc(512);
    for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 37) % 256;
    expect(await createRun(folderWith('dump.csv', bytes), 'dump.csv')).toEqual(
      refusal(
        'dump.csv',
        65,
        'dump.csv: looks like a binary file, not CSV or JSON text. Export the data as CSV or JSON.',
      ),
    );
  });

  it('an Excel workbook (.xlsx) cut short: exit 65, said to be damaged, with how to save it again', async () => {
    const workbook = Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
      Buffer.from('[Content_Types].xml'),
      Buffer.alloc(64),
    ]);
    expect(await createRun(folderWith('clientes.xlsx', workbook), 'clientes.xlsx')).toEqual(
      refusal(
        'clientes.xlsx',
        65,
        'clientes.xlsx: cannot read the workbook (end of central directory record signature not found); the file is damaged or cut short. Open it in the spreadsheet program and save it again.',
      ),
    );
  });

  it.each([
    [
      'clientes-corrigido.xls',
      'clientes-corrigido.xls',
      'this is an old Excel workbook (.xls), which b2bctl does not read. Save it as .xlsx (Excel: Save As > "Excel Workbook"; LibreOffice: File > Save As > "Excel 2007-365"), or convert it with soffice --headless --convert-to xlsx FILE',
    ],
    [
      'clientes.fods',
      'estoque.fods',
      'this is a LibreOffice spreadsheet saved as flat XML (.fods), which b2bctl does not read. Save it as .xlsx',
    ],
    [
      'clientes.xml',
      'estoque.excel2003.xml',
      'this is an Excel spreadsheet saved as XML (2003), which b2bctl does not read. Save it as .xlsx',
    ],
    ['clientes.csv', 'clientes-corrigido.html', 'this is a web page (HTML), not CSV: a sheet saved as a web page'],
  ])(
    '%s as LibreOffice saved it: exit 65 naming what it is, nothing sent, nothing written',
    async (name, saved, kind) => {
      const bytes = readFileSync(join(__dirname, '../../fixtures/libreoffice', saved));
      const trace = await createRun(folderWith(name, bytes), name);
      expect({ ...trace, stderr: '' }).toEqual({ ...refusal(name, 65, ''), stderr: '' });
      expect(trace.stderr).toMatch(
        new RegExp(`^customer create: validating ${name}\nerror: ${name}: ${escape(kind)}.*\n$`),
      );
    },
  );

  it('an empty file, and one of blank lines only: create sends nothing and writes nothing; validate has nothing to check (exit 0)', async () => {
    // Empty is "nothing to send" (exit 0) like a header-only file, as the readers decide (src/io/input/open-input.ts).
    for (const [name, contents] of [
      ['empty.csv', ''],
      ['blank.csv', '\r\n\r\n\n'],
    ] as const) {
      const folder = freshWorkDir();
      writeFileSync(join(folder, name), contents);
      const trace = await createRun(folder, name);
      expect(trace).toEqual({ code: 0, stdout: '', stderr: expect.any(String), requests: {}, filesAdded: [] });
      expectLines(trace.stderr, [
        `customer create: validating ${name}`,
        timed('customer create: 0 records, 0 valid, 0 invalid ({s} s)'),
        `customer create: ${name} has no records; nothing to send.`,
      ]);
      const validate = await cli(['customer', 'validate', name], folder);
      // One rule for both validate commands: nothing to check is not invalid data (docs/bulk-runs.md).
      expect(validate.code).toBe(0);
      expectLines(validate.stderr, [
        timed(`${name}: 0 records, 0 valid, 0 invalid (0 problems) in {s} s.`),
        `${name} has no records; nothing to check.`,
      ]);
    }
  });

  it('a header and no records: validate says so, and exits 0 like stock validate (nothing to check)', async () => {
    const folder = folderWith('header.csv', `${createHeader}\n`);
    const result = await cli(['customer', 'validate', 'header.csv'], folder);
    expect(result.code).toBe(0);
    expectLines(result.stderr, [
      timed('header.csv: 0 records, 0 valid, 0 invalid (0 problems) in {s} s.'),
      'header.csv has a header but no records; nothing to check.',
    ]);
  });

  it('an unterminated quote: exit 65 naming the line where the quote opens, not the end of the file', async () => {
    const csv = [
      createHeader,
      ana,
      'cpf,111.444.777-35,"Dora, a Exploradora,dora@example.com,11987654321,Senha#1,01310-100,11',
      'cpf,935.411.347-80,Eva,eva@example.com,11987654321,Senha#1,01310-100,12',
      '',
    ].join('\n');
    expect(await createRun(folderWith('quote.csv', csv), 'quote.csv')).toEqual(
      refusal(
        'quote.csv',
        65,
        'quote.csv:3: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").',
      ),
    );
  });

  it('JSON with a syntax error: exit 65 with file:line:column', async () => {
    const json = '[\n  {\n    "document": "529.982.247-25",\n    "name": "Ana",,\n    "phone": "11987654321"\n  }\n]\n';
    expect(await createRun(folderWith('broken.json', json), 'broken.json')).toEqual(
      refusal(
        'broken.json',
        65,
        'broken.json:4:19: invalid JSON: Expected double-quoted property name (near: , "name": "Ana",, "pho).',
      ),
    );
  });

  it('NDJSON with a broken line after a good one: exit 65 with that line, the good one not sent', async () => {
    const good = {
      documentType: 'cpf',
      document: '529.982.247-25',
      username: 'ana@example.com',
      phone: '11987654321',
      password: 'Senha#1',
      customerRegistrationAddress: { zipcode: '01310-100', number: '1' },
    };
    const ndjson = `${JSON.stringify(good)}\n{"document":"111.444.777-35",}\n`;
    expect(await createRun(folderWith('broken.ndjson', ndjson), 'broken.ndjson')).toEqual(
      refusal(
        'broken.ndjson',
        65,
        'broken.ndjson:2:30: invalid JSON: Expected double-quoted property name (near: t":"111.444.777-35",}).',
      ),
    );
  });
});

describe('headers', () => {
  it('an unknown column: a warning naming it and the closest known field; left out, the rest is sent', async () => {
    const folder = folderWith('typo.csv', `${createHeader},tradeName\n${ana},Ana Modas\n`);
    const result = await cli(['customer', 'create', 'typo.csv', '--ignore-column', 'tradeName'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').slice(0, 1)).toEqual(['customer create: validating typo.csv']);
    expect(result.stderr).not.toContain('unknown column');
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 1 });
    expect((await storedCustomers(sandbox))[0]?.tradingName).toBeNull();
  });

  it('an unknown column that holds data: the warning, then exit 65 with the --map line, nothing sent', async () => {
    const folder = folderWith('typo.csv', `${createHeader},tradeName\n${ana},Ana Modas\n`);
    const result = await cli(['customer', 'create', 'typo.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      'customer create: validating typo.csv',
      'warning: typo.csv:1: unknown column "tradeName" (did you mean "tradingName"?): no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).',
      'error: typo.csv:2: column 9 (I) "tradeName" holds "Ana Modas" but no field reads it, so it would not be sent; nothing was sent. Map it with {"tradeName":"tradingName"} in a --map file, or leave it out with --ignore-column tradeName.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a create file without a column every record needs (the e-mail): one line for the file, not one per record; nothing sent', async () => {
    // The generator's first eight columns (documentType to password), its username left out.
    const rows = generateCustomers(20)
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((row) => row.split(',').slice(0, 8));
    const username = rows[0]?.indexOf('username') ?? -1;
    const withoutEmail = rows.map((cells) => cells.toSpliced(username, 1));
    const folder = folderWith('no-email.csv', `${withoutEmail.map((cells) => cells.join(',')).join('\r\n')}\r\n`);
    const columns = withoutEmail[0]?.join(', ');
    const error = `no-email.csv:1: no "username" column (the columns are ${columns}). Name the column "username", or map yours to it with --map.`;
    expect(await createRun(folder, 'no-email.csv')).toEqual(refusal('no-email.csv', 65, error));
    const validate = await cli(['customer', 'validate', 'no-email.csv'], folder);
    expect([validate.code, validate.stderr]).toEqual([65, `error: ${error}\n`]);
    // An update takes every field but the document as optional: the same file is no error there.
    const update = await cli(
      [
        'customer',
        'validate',
        '--update',
        'no-email.csv',
        '--ignore-column',
        'password',
        '--ignore-column',
        'documentType',
      ],
      folder,
    );
    expect(update.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a create file without several required columns, one misspelt: all named in one line, with the misspelt one', async () => {
    const folder = folderWith('few.csv', `document,name,usrname\n529.982.247-25,Ana,ana@example.com\n`);
    expect(await createRun(folder, 'few.csv')).toEqual(
      refusal(
        'few.csv',
        65,
        'few.csv:1: no "documentType", "username", "phone" or "password" column (the columns are document, name, usrname). Your column "usrname" looks like it: rename it "username", or pass --map with a JSON file such as {"usrname":"username"}. Name the columns "documentType", "phone", "password", or map yours to them with --map.',
      ),
    );
  });

  it.each([
    ['clientes.xlsx', 'clientes-titulo.xlsx', 'row 2'],
    ['clientes.csv', 'clientes-titulo.win1252.csv', 'line 2'],
  ])(
    '%s whose first row is a title merged across the sheet (%s): the error names the row that looks like the header; nothing sent, no map saved',
    async (name, saved, below) => {
      const folder = folderWith(name, readFileSync(join(__dirname, '../../fixtures/libreoffice', saved)));
      expect(await createRun(folder, name, ['--write-map', 'map.json'])).toEqual(
        refusal(
          name,
          65,
          `${name}:1: no "documentType", "document", "username", "phone" or "password" column (the columns are Cadastro de clientes - Distribuidora Sul), but ${below} looks like the header (Tipo Pessoa, CPF/CNPJ, Razão Social, E-mail, …): delete the row above it, so that the header is the first row with text; nothing was sent.`,
        ),
      );
    },
  );

  it('a title above a blank row and the header: the rows above it counted; a title over data rows alone is the usual error', async () => {
    const titled = folderWith('t.csv', `Clientes de março,,\n,,\n${createHeader}\n${ana}\n`);
    const validate = await cli(['customer', 'validate', 't.csv'], titled);
    expect([validate.code, validate.stderr.split('\n').at(-2)]).toEqual([
      65,
      `error: t.csv:1: no "documentType", "document", "username", "phone" or "password" column (the columns are Clientes de março), but line 3 looks like the header (documentType, document, name, username, …): delete the 2 rows above it, so that the header is the first row with text.`,
    ]);
    // No row below names columns b2bctl reads: nothing to point at.
    const noHeader = folderWith('d.csv', `Clientes de março\n${ana}\n`);
    const plain = await cli(['customer', 'validate', 'd.csv'], noHeader);
    expect(plain.stderr.split('\n').at(-2)).toBe(
      'error: d.csv:1: no "documentType", "document", "username", "phone" or "password" column (the columns are Clientes de março). Name the columns "documentType", "document", "username", "phone", "password", or map yours to them with --map.',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('an unknown column with --strict: exit 65, nothing sent', async () => {
    const folder = folderWith('typo.csv', `${createHeader},tradeName\n${ana},Ana Modas\n`);
    expect(await createRun(folder, 'typo.csv', ['--strict'])).toEqual(
      refusal(
        'typo.csv',
        65,
        'typo.csv:1: unknown column "tradeName" (did you mean "tradingName"?). Rename it with --map, or drop --strict to ignore it.',
      ),
    );
  });

  it("an unknown JSON field with --strict: exit 65 naming the record's line", async () => {
    const folder = folderWith('typo.json', `[\n  {"document": "529.982.247-25", "e-mail": "ana@example.com"}\n]\n`);
    expect(await createRun(folder, 'typo.json', ['--strict'])).toEqual(
      refusal(
        'typo.json',
        65,
        'typo.json:2: unknown key "e-mail" (it looks like "username": rename it, or put {"e-mail":"username"} in a --map file). Rename it with --map, or drop --strict to ignore it.',
      ),
    );
  });

  it('a header repeated: exit 65 naming both columns', async () => {
    const folder = folderWith('twice.csv', `${createHeader},name\n${ana},Ana Maria\n`);
    expect(await createRun(folder, 'twice.csv')).toEqual(
      refusal(
        'twice.csv',
        65,
        'twice.csv:1: column "name" appears 2 times (columns 3, 9). Keep one, or rename the other with --map.',
      ),
    );
  });

  // Said as a `document` column that "appears 2 times", it sent the operator to a column the file does not have
  // (a user test): each column is named by its own header, and the map file by its name.
  it('two headers mapped to the same field by --map: exit 65 naming both headers and the map', async () => {
    const folder = folderWith('mapped.csv', `CPF,document\n529.982.247-25,529.982.247-25\n`);
    writeFileSync(join(folder, 'map.json'), '{"CPF":"document"}');
    expect(await createRun(folder, 'mapped.csv', ['--map', 'map.json'])).toEqual(
      refusal(
        'mapped.csv',
        65,
        'mapped.csv:1: columns 1 "CPF" and 2 "document" are both read as the field document (map.json maps "CPF" to it). Keep one: in map.json, map the other to another field, or to null to leave it out.',
      ),
    );
  });

  it('a landline and a mobile column both mapped to phone: exit 65 naming them and the map, nothing sent', async () => {
    const folder = folderWith(
      'dm.csv',
      `CPF,Nome,E-mail,Telefone,Celular\n529.982.247-25,Ana,ana@example.com,1133334444,11987654321\n`,
    );
    writeFileSync(
      join(folder, 'dm.map.json'),
      '{"CPF":"document","Nome":"name","E-mail":"username","Telefone":"phone","Celular":"phone"}',
    );
    expect(await createRun(folder, 'dm.csv', ['--map', 'dm.map.json'])).toEqual(
      refusal(
        'dm.csv',
        65,
        'dm.csv:1: columns 4 "Telefone" and 5 "Celular" are both read as the field phone (dm.map.json maps "Telefone" and "Celular" to it). Keep one: in dm.map.json, map the other to another field, or to null to leave it out.',
      ),
    );
  });
});

describe('a state registration a spreadsheet wrote in scientific notation', () => {
  // Excel shows a number of 12 digits or more so in a "General" column, and its CSV writes what it shows: the
  // platform takes any text as a state registration, so only this check keeps the mangled value from being sent.
  const advice = 'Excel showed this number in scientific notation; format the column as Text and export again';
  const header = `${createHeader.replaceAll(',', ';')};stateRegistration;customerRegistrationAddress.farmerStateRegistration`;
  const company = 'cnpj;11.222.333/0001-81;Dora Ltda;dora@example.com;1133334444;Senha#1;01310-100;10';

  it('create refuses it in the company and in its address, exit 65, nothing sent', async () => {
    const folder = folderWith('excel.csv', `${header}\r\n${company};1,10042E+11;1,10042E+11\r\n`);
    const result = await cli(['customer', 'create', 'excel.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer create: validating excel.csv',
      `excel.csv:2: Property [stateRegistration] with value [1,10042E+11] does not pass validation (${advice})`,
      `excel.csv:2: Property [customerRegistrationAddress.farmerStateRegistration] with value [1,10042E+11] does not pass validation (${advice})`,
      timed('customer create: 1 record, 0 valid, 1 invalid ({s} s)'),
      'error: Every record of excel.csv is invalid (listed above); nothing was sent.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(readdirSync(folder)).toEqual(['excel.csv']);
  });

  it('validate names it in any address of the list', async () => {
    const listed = `${createHeader.replaceAll(',', ';')};addressList.0.zipcode;addressList.0.number;addressList.1.zipcode;addressList.1.number;addressList.1.farmerStateRegistration`;
    const folder = folderWith('list.csv', `${listed}\r\n${company};01310-100;11;20040-002;12;1,10042E+11\r\n`);
    const result = await cli(['customer', 'validate', 'list.csv'], folder);
    expect(result.code).toBe(65);
    expect(ndjsonOf(result.stdout)).toEqual([
      expect.objectContaining({ line: 2, field: 'addressList.1.farmerStateRegistration', value: '1,10042E+11' }),
    ]);
  });

  it('an unusual but whole state registration is still sent with a warning, as before', async () => {
    const folder = folderWith('typed.csv', `${header}\r\n${company};ABC;\r\n`);
    const result = await cli(['customer', 'validate', 'typed.csv'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: typed.csv:2: Property [stateRegistration] with value [ABC] may be wrong (a state registration has 2 to 14 digits, or is ISENTO); the platform does not check it',
    );
  });
});

describe('invalid records', () => {
  const invalid = [
    createHeader,
    ana,
    'cpf,123.456.789-00,Bruno,bruno@example,11987654321,Senha#1,01310-100,11',
    'cnpj,111.444.777-35,Carla,carla@example.com,119,,0131,',
    'pj,11.222.333/0001-00,Dora Ltda,dora@example.com,1133334444,Senha#1,,',
    'rg,935.411.347-80,Eva,eva@example.com,11987654321,Senha#1,01310-100,12',
    '',
  ].join('\n');
  const problems = [
    'people.csv:3: Property [username] with value [bruno@example] does not pass validation (not a valid e-mail address)',
    'people.csv:3: Property [document] with value [123.456.789-00] does not pass validation (CPF check digits do not match)',
    'people.csv:4: Property [document] with value [111.444.777-35] does not pass validation (documentType cnpj needs a CNPJ, and this is a CPF)',
    'people.csv:4: Property [phone] with value [119] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))',
    'people.csv:4: Property [password] with value [] does not pass validation (required)',
    'people.csv:4: Property [customerRegistrationAddress.zipcode] with value [0131] does not pass validation (a CEP has 8 digits, written NNNNN-NNN or NNNNNNNN)',
    'people.csv:4: Property [customerRegistrationAddress.number] with value [] does not pass validation (required)',
    'people.csv:5: Property [document] with value [11.222.333/0001-00] does not pass validation (CNPJ check digits do not match)',
    'people.csv:5: Property [address] with value [] does not pass validation (send customerRegistrationAddress, or addressList with one item marked principal)',
    'people.csv:6: Property [documentType] with value [rg] does not pass validation (use cpf or pf for an individual, cnpj or pj for a company)',
  ];

  it('create: every problem of every record on stderr with file:line in the platform wording, exit 65, nothing sent', async () => {
    const folder = folderWith('people.csv', invalid);
    const result = await cli(['customer', 'create', 'people.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [
      'customer create: validating people.csv',
      ...problems,
      timed('customer create: 5 records, 1 valid, 4 invalid ({s} s)'),
      'error: 4 records of people.csv are invalid (listed above); nothing was sent. Fix them, or pass --skip-invalid to send the rest.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(readdirSync(folder)).toEqual(['people.csv']);
  });

  it('update: the same rules for the fields it has, exit 65, nothing sent', async () => {
    const folder = folderWith(
      'changes.csv',
      'document,phone,active\n529.982.247-25,123,sim\n52998224726,,\n111.444.777-35,11987654321,maybe\n',
    );
    const result = await cli(['customer', 'update', 'changes.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer update: validating changes.csv',
      'changes.csv:2: Property [phone] with value [123] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))',
      'changes.csv:3: Property [document] with value [52998224726] does not pass validation (CPF check digits do not match)',
      'changes.csv:4: Property [active] with value [maybe] does not pass validation (expected true or false; a cell also takes active/inactive, ativo/inativo, liberado/bloqueado, sim/não, s/n, 1/0, verdadeiro/falso)',
      timed('customer update: 3 records, 0 valid, 3 invalid ({s} s)'),
      'error: Every record of changes.csv is invalid (listed above); nothing was sent.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('update --set active=WORD: a word it does not take is refused listing the state words it takes, nothing sent', async () => {
    const folder = folderWith('nothing.txt', '');
    const result = await cli(['customer', 'update', '--document', '529.982.247-25', '--set', 'active=talvez'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      '--set: Property [active] with value [talvez] does not pass validation (expected true or false; a cell also takes active/inactive, ativo/inativo, liberado/bloqueado, sim/não, s/n, 1/0, verdadeiro/falso)\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('update: the active column takes the state words customer status takes (ativo, bloqueado), nothing invalid', async () => {
    const folder = folderWith('states.csv', 'document,active\n529.982.247-25,Ativo\n111.444.777-35,bloqueado\n');
    const result = await cli(['customer', 'update', 'states.csv', '--dry-run'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/customer update: 2 records, 2 valid, 0 invalid/);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a row with more cells than the header: the record is invalid, with the hint to check the delimiter', async () => {
    const folder = folderWith('wide.csv', `${createHeader}\n${ana},extra\n`);
    const result = await cli(['customer', 'create', 'wide.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'wide.csv:2: the row has 9 cells but the header has 8 columns: in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('values the platform takes but that look wrong', () => {
  it('create warns of them as validate does, says how many, and sends the customer; a dry run says so too', async () => {
    const folder = folderWith(
      'cnae.csv',
      'documentType,document,name,username,phone,password,cnae,customerRegistrationAddress.zipcode,customerRegistrationAddress.number\n' +
        'cnpj,11.444.777/0001-61,Empresa A,cnae@email.com.br,21980000031,Senha#1001,99,01310-100,11\n',
    );
    const warning =
      'warning: cnae.csv:2: Property [cnae] with value [99] may be wrong (a CNAE subclass has 7 digits, written NNNN-N/NN); the platform does not check it';
    const dryRun = await cli(['customer', 'create', 'cnae.csv', '--dry-run'], folder);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toContain(`${warning}\n`);
    expect(dryRun.stderr).toMatch(/customer create: 1 record, 1 valid, 0 invalid, 1 warning \(/);
    const created = await cli(['customer', 'create', 'cnae.csv'], folder);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`${warning}\n`);
    expect((await storedCustomers(sandbox)).map((customer) => customer.document)).toContain('11.444.777/0001-61');
  });
});

describe('duplicates inside one file', () => {
  it('the same document (written two ways) and the same e-mail (in another case): exit 65 naming the other line, both rows of the document invalid, nothing sent', async () => {
    const csv = [
      createHeader,
      ana,
      'cpf,52998224725,Ana Maria,ana.maria@example.com,11987654321,Senha#1,01310-100,11',
      'cpf,111.444.777-35,Dora,ANA@Example.com,11987654321,Senha#1,01310-100,12',
      'cpf,935.411.347-80,Eva,eva@example.com,11987654321,Senha#1,01310-100,13',
      '',
    ].join('\n');
    const folder = folderWith('dups.csv', csv);
    const result = await cli(['customer', 'create', 'dups.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer create: validating dups.csv',
      'dups.csv:3: Property [document] with value [52998224725] does not pass validation (the same document is also on line 2 of this file)',
      'dups.csv:4: Property [username] with value [ANA@Example.com] does not pass validation (the same e-mail is already on line 2 of this file)',
      // The first row's problem is known once the file is read: quoted as its own cell writes the document, never as
      // its repeat wrote it.
      'dups.csv:2: Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 3 of this file)',
      timed('customer create: 4 records, 1 valid, 3 invalid ({s} s)'),
      'error: 3 records of dups.csv are invalid (listed above); nothing was sent. Fix them, or pass --skip-invalid to send the rest.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a sample with one of its own rows pasted again at the end', async () => {
    const sample = readFileSync(join(seedDirectory, 'customers.csv'), 'utf8');
    const folder = folderWith('customers.csv', `${sample}${sample.split('\n')[5]}\n`);
    const result = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer create: validating customers.csv',
      'customers.csv:27: Property [document] with value [100.039.595-20] does not pass validation (the same document is also on line 6 of this file)',
      'customers.csv:27: Property [username] with value [cliente5@email.com.br] does not pass validation (the same e-mail is already on line 6 of this file)',
      // The first row is quoted as its own cell writes the document, as its repeat is.
      'customers.csv:6: Property [document] with value [100.039.595-20] does not pass validation (the same document is also on line 27 of this file)',
      timed('customer create: 26 records, 24 valid, 2 invalid ({s} s)'),
      'error: 2 records of customers.csv are invalid (listed above); nothing was sent. Fix them, or pass --skip-invalid to send the rest.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('resuming from a report that is not there', () => {
  it('--resume with a missing report: exit 66 naming it, nothing sent', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const result = await cli(
      ['customer', 'create', 'customers.csv', '--resume', 'customers.report-20260101-000000.csv'],
      folder,
    );
    expect(result.code).toBe(66);
    expect(result.stderr.split('\n').at(-2)).toBe(
      'error: customers.report-20260101-000000.csv: cannot read the report to resume from (ENOENT).',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('mistakes a user test sent with exit 0, now refused or said', () => {
  it('a password under a header no field reads (senha_portal) is named, never quoted; nothing sent', async () => {
    const folder = folderWith(
      'pw.csv',
      'documentType,document,name,username,phone,senha_portal,customerRegistrationAddress.zipcode,customerRegistrationAddress.number\ncpf,529.982.247-25,Ana,ana@x.com,11987654321,Segredo#123,01310-100,1\n',
    );
    const result = await cli(['customer', 'create', 'pw.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr).not.toContain('Segredo#123');
    // Every create record needs a password: the header without its column stops the run before any cell is read.
    expect(result.stderr.split('\n').at(-2)).toBe(
      'error: pw.csv:1: no "password" column (the columns are documentType, document, name, username, phone, senha_portal, customerRegistrationAddress.zipcode, customerRegistrationAddress.number). Name the column "password", or map yours to it with --map.',
    );
    const update = folderWith('uu.csv', 'document,username,password\n001.234.567-97,novo@x.com,Nova#1\n');
    const updated = await cli(['customer', 'update', 'uu.csv'], update);
    expect(updated.code).toBe(65);
    expect(updated.stderr).not.toContain('Nova#1');
    // A create file reused for updates: its e-mail and password columns are named for what they are, not as unknown.
    expect(updated.stderr.split('\n').slice(1, 3)).toEqual([
      'warning: uu.csv:1: column "username" is not sent by this command (the update route does not change the e-mail a customer logs in with); the run stops if it holds data (leave it out with --ignore-column).',
      'warning: uu.csv:1: column "password" is not sent by this command (the update route sets no password: passwordExpired true makes the customer choose one); the run stops if it holds data (leave it out with --ignore-column).',
    ]);
    // Both named in one error, with both flags: one run to learn them, not one run per column.
    expect(updated.stderr).toContain(
      'error: uu.csv:2: 2 columns hold data this command would not send; nothing was sent. The command does not send column 2 (B) "username" (the update route does not change the e-mail a customer logs in with); column 3 (C) "password" (the update route sets no password: passwordExpired true makes the customer choose one): leave them out with --ignore-column username --ignore-column password.\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('the day-one create file fed to update names every column to leave out in one error, nothing sent', async () => {
    const folder = folderWith(
      'day1.csv',
      'documentType,document,username,password,phone,addressList.0.zipcode\ncpf,529.982.247-25,ana@x.com,Nova#1,11987654321,01310-100\n',
    );
    const result = await cli(['customer', 'update', 'day1.csv', '--dry-run'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr).not.toContain('Nova#1');
    expect(result.stderr.split('\n').at(-2)).toBe(
      'error: day1.csv:2: 4 columns hold data this command would not send; nothing was sent. The command does not send column 1 (A) "documentType" (the document a customer is found by keeps its type); column 3 (C) "username" (the update route does not change the e-mail a customer logs in with); column 4 (D) "password" (the update route sets no password: passwordExpired true makes the customer choose one): leave them out with --ignore-column documentType --ignore-column username --ignore-column password. No field reads the other column: map each in a --map file, or leave it out with --ignore-column: column 6 (F) "addressList.0.zipcode" holds "01310-100" on line 2 ({"addressList.0.zipcode":"FIELD"}, or --ignore-column addressList.0.zipcode).',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('an ERP export with an active column fed to create: named as a field the create route does not take, with customer status; nothing sent', async () => {
    // An operator importing blocked customers learns how to keep them blocked, not a --map to a field that is none.
    const folder = folderWith(
      'inativos.csv',
      'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number;active\r\ncpf;529.982.247-25;Ana;ana@x.com.br;(11) 3333-4444;Senha#1;01310-100;1;não\r\n',
    );
    const why =
      'the create route takes no active flag; after the create, `b2bctl customer status FILE` sets it from a file of the document and active columns';
    for (const command of [
      ['create', 'inativos.csv', '--dry-run'],
      ['validate', 'inativos.csv'],
    ]) {
      const result = await cli(['customer', ...command], folder);
      expect(result.code).toBe(65);
      expect(result.stderr).toContain(
        `warning: inativos.csv:1: column "active" is not sent by this command (${why}); the run stops if it holds data (leave it out with --ignore-column).`,
      );
      expect(result.stderr).toContain(
        `error: inativos.csv:2: column 9 (I) "active" holds data this command does not send (${why})`,
      );
      expect(result.stderr).toContain('Leave the column out with --ignore-column active.');
      expect(result.stderr).not.toContain('no field reads it');
      expect(result.stderr).not.toContain('--map');
    }
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a cnpj row whose CNPJ lost three zeros in a spreadsheet (11 digits) is said so, not as a CPF; nothing sent', async () => {
    // The row as LibreOffice Calc pt-BR saves 00078057000103 typed unformatted.
    const folder = folderWith(
      'z.csv',
      'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\ncnpj;78057000103;X Ltda;x@x.com.br;(11) 3333-4444;S#1;01310-100;1\r\n',
    );
    const result = await cli(['customer', 'create', 'z.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr.split('\n')).toContain(
      'z.csv:2: Property [document] with value [78057000103] does not pass validation (a CNPJ has 14 characters; a leading zero was probably lost in a spreadsheet: 00.078.057/0001-03 would be valid)',
    );
    expect(result.stderr).not.toContain('CPF check digits');
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a latitude written -23.561 in a ";" file that shows no decimal comma (-23561 or -23.561?): invalid, nothing sent', async () => {
    const folder = folderWith(
      'geo.csv',
      'document;customerRegistrationAddress.zipcode;customerRegistrationAddress.number;customerRegistrationAddress.lat;customerRegistrationAddress.lng\n11.222.333/0001-81;01310-100;100;-23.561;-46.656\n',
    );
    const result = await cli(['customer', 'update', 'geo.csv'], folder);
    expect(result.code).toBe(65);
    // Nothing in the file says how it writes numbers: both readings named, none taken.
    expect(result.stderr).toContain(
      'geo.csv:2: customerRegistrationAddress.lat: -23.561 is -23561 written the pt-BR way, or -23.561 with a decimal point: pass --decimal , or --decimal . to say which the file writes',
    );
    expect(result.stderr).toContain(
      'geo.csv:2: customerRegistrationAddress.lng: -46.656 is -46656 written the pt-BR way',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--set with an empty value (a script variable unset) is refused: exit 2, nothing sent', async () => {
    const folder = freshWorkDir();
    for (const set of ['customerGroupList=', 'priceRuleTags= ', 'tradingName=']) {
      const result = await cli(['customer', 'update', '--document', '11.222.333/0001-81', '--set', set], folder);
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').at(-2)).toBe(
        `error: --set ${set.split('=')[0]}= has no value; nothing was sent. Give the value after the "=".`,
      );
    }
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('two JSON keys read as one field with different values (CPF and CNPJ mapped to document): refused, nothing sent', async () => {
    const folder = folderWith(
      'cc.json',
      '[{"CPF":"529.982.247-25","CNPJ":"00.360.305/0001-04","Nome":"Antonio Novo Nome"}]\n',
    );
    writeFileSync(join(folder, 'cc.map.json'), '{"CPF":"document","CNPJ":"document","Nome":"name"}');
    const result = await cli(['customer', 'update', 'cc.json', '--map', 'cc.map.json'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr.split('\n').at(-2)).toBe(
      'error: cc.json:1: keys "CPF" and "CNPJ" both hold document, with different values; nothing was sent. Keep one of them, or leave the other out with --ignore-column (or null in the --map).',
    );
    // The same key in two cases, and two keys with the same value (an ERP that writes both), alike.
    const cased = folderWith('nn.json', '[{"document":"529.982.247-25","name":"Primeiro","Name":"Segundo"}]\n');
    expect((await cli(['customer', 'update', 'nn.json'], cased)).code).toBe(65);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a state in lower case or by its name is warned with its UF, not as "not one of the 27 UFs" (a user test)', async () => {
    const folder = folderWith(
      'uf.csv',
      'document,customerRegistrationAddress.zipcode,customerRegistrationAddress.number,customerRegistrationAddress.state\n111.444.777-35,01310-100,1,sp\n529.982.247-25,01310-100,2,Sao Paulo\n',
    );
    const result = await cli(['customer', 'validate', 'uf.csv', '--update'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: uf.csv:2: Property [customerRegistrationAddress.state] with value [sp] may be wrong (write it in capitals (SP)); the platform does not check it',
    );
    expect(result.stderr).toContain(
      'warning: uf.csv:3: Property [customerRegistrationAddress.state] with value [Sao Paulo] may be wrong (the UF of São Paulo is SP); the platform does not check it',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('an addressType the platform does not know is a warning: it would store RESIDENTIAL', async () => {
    const folder = folderWith(
      'at.csv',
      'document,customerRegistrationAddress.zipcode,customerRegistrationAddress.number,customerRegistrationAddress.addressType\n111.444.777-35,01310-100,1,Comercial\n',
    );
    const result = await cli(['customer', 'validate', 'at.csv', '--update'], folder);
    expect(result.stderr).toContain(
      'warning: at.csv:2: Property [customerRegistrationAddress.addressType] with value [Comercial] may be wrong (the platform knows RESIDENTIAL and BUSINESS, and stores any other value as RESIDENTIAL); the platform does not check it',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/** The refusal of a last line cut short, quoting its last value. */
const cutShort = (value: string) =>
  `the file's last line has no line end, while the lines before it have one: an export cut short (or still being written) leaves its last value partial ("${value}" may be the start of a longer one). Export the file again; if the line is whole, end it with a line break.`;

describe('an export cut short inside its last line, before its last column (a user test)', () => {
  const header = `${createHeader},customerRegistrationAddress.complement`;
  const bia = 'cpf,111.444.777-35,Bia,bia@example.com,11987654322,Senha#1,01310-100,1200,casa';
  /** Bia's row cut inside its address number (`12` of `1200`), its complement not reached, with no line end. */
  const cutFile = `${header}\n${customerRow('529.982.247-25', 'apto 1')}\n${bia.slice(0, bia.indexOf(',1200') + 3)}`;

  it('is refused as cut short, naming the partial number, not only as a missing cell; nothing sent', async () => {
    const folder = folderWith('c.csv', cutFile);
    const run = await createRun(folder, 'c.csv');
    expect(run.code).toBe(65);
    expect(run.stderr).toContain(`c.csv:3: ${cutShort('12')}\n`);
    expect(run.requests).toEqual({});
    expect(run.filesAdded).toEqual([]);
  });

  it('--skip-invalid: the errors file marks the number and the missing cell; filling the complement alone is refused', async () => {
    const folder = folderWith('c.csv', cutFile);
    expect((await cli(['customer', 'create', 'c.csv', '--skip-invalid'], folder)).code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('c.errors-')) as string;
    const written = readFileSync(join(folder, errorsFile), 'utf8');
    expect(written).toContain(',01310-100,#RETYPE! 12,#RETYPE!,3,');
    // The operator types the complement into the marked missing cell only, and feeds the file back as told.
    writeFileSync(join(folder, errorsFile), written.replace(',#RETYPE!,3,', ',casa,3,'));
    const fedBack = await cli(['customer', 'create', errorsFile], folder);
    expect(fedBack.code).toBe(65);
    expect(fedBack.stderr).toMatch(
      /:2: field "customerRegistrationAddress\.number" holds #RETYPE! .*: the run that wrote this errors file could not trust that value/,
    );
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual(['Ana']);
  });
});

describe('an addressType in another case', () => {
  it.each(['business', 'Business', 'residential'])(
    '%s is no warning: the platform reads RESIDENTIAL and BUSINESS in any case',
    async (type) => {
      const folder = folderWith(
        'at.csv',
        `document,customerRegistrationAddress.zipcode,customerRegistrationAddress.number,customerRegistrationAddress.addressType\n111.444.777-35,01310-100,1,${type}\n`,
      );
      const result = await cli(['customer', 'validate', 'at.csv', '--update'], folder);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('warning');
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );
});

describe('characters that show as nothing', () => {
  it('a soft hyphen in an e-mail (maria\u00AD@x.com shows as maria@x.com): refused naming it, nothing sent', async () => {
    const folder = folderWith('c.csv', `${createHeader}\n${ana.replace('ana@example.com', 'ana\u00AD@example.com')}\n`);
    const run = await createRun(folder, 'c.csv');
    expect(run.code).toBe(65);
    expect(run.stderr).toContain(
      'c.csv:2: field "username" holds an invisible or control character (U+00AD) at character 4; delete it (in a spreadsheet, retype the cell)',
    );
    expect(run.requests).toEqual({});
  });
});

describe("a text whose author began it with ' before a formula start", () => {
  it("a lone ' (as the errors file's guard writes it) is refused: either reading could send a wrong value; nothing sent", async () => {
    const folder = folderWith('c.csv', `${createHeader}\n${ana.replace(',Ana,', ",'-Ana,")}\n`);
    const run = await createRun(folder, 'c.csv');
    expect(run.code).toBe(65);
    expect(run.stderr).toContain(
      `c.csv:2: field "name" holds '-Ana: a ' before = + - @ is the mark b2bctl's errors file puts against spreadsheet formulas, taken off only in a file that still ends with the errors file's row and error columns; delete the ' here, or write it twice ('') if the value itself starts with one\n`,
    );
    expect(run.requests).toEqual({});
  });

  it("written twice, keeps one ' from the file to the platform, and through the errors file fed back", async () => {
    const row = ana.replace(',Ana,', ",''-Ana,").replace('11987654321', '1198765432');
    const bia = 'cpf,111.444.777-35,Bia,bia@example.com,11987654322,Senha#1,01310-100,20';
    const folder = folderWith('c.csv', `${createHeader}\n${row}\n${bia}\n`);
    const first = await cli(['customer', 'create', 'c.csv', '--skip-invalid'], folder);
    expect(first.code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('c.errors-')) as string;
    // One more ' written against formulas, taken off when the file is read back.
    expect(readFileSync(join(folder, errorsFile), 'utf8')).toContain(",''-Ana,");
    writeFileSync(
      join(folder, errorsFile),
      readFileSync(join(folder, errorsFile), 'utf8').replace('1198765432', '11987654321'),
    );
    expect((await cli(['customer', 'create', errorsFile], folder)).code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name).toSorted()).toEqual(["'-Ana", 'Bia']);
  });
});

describe('JSON text with the padding an export leaves', () => {
  it('is trimmed as a CSV cell is (the document, the name, the e-mail), the password kept as written', async () => {
    const customer = {
      documentType: 'cpf',
      document: ' 529.982.247-25 ',
      name: '  Ana  ',
      username: ' ana@example.com\u00A0',
      phone: '11987654321',
      password: ' Senha#1 ',
      customerRegistrationAddress: { zipcode: '01310-100', number: ' 10 ' },
    };
    const folder = folderWith('c.json', JSON.stringify([customer]));
    const run = await createRun(folder, 'c.json');
    expect(run.code).toBe(0);
    expect(run.requests).toEqual({ [createRoute]: 1 });
    const [stored] = await storedCustomers(sandbox);
    expect({ document: stored?.document, name: stored?.name, email: stored?.email }).toEqual({
      document: '529.982.247-25',
      name: 'Ana',
      email: 'ana@example.com',
    });
  });
});

describe('--upsert of a customer whose e-mail the file changes', () => {
  it('updates it, and says on stderr that it keeps its registered e-mail (the update route takes none)', async () => {
    const folder = folderWith('c.csv', `${createHeader}\n${ana}\n`);
    expect((await cli(['customer', 'create', 'c.csv'], folder)).code).toBe(0);
    writeFileSync(
      join(folder, 'd.csv'),
      `${createHeader}\n${ana.replace('ana@example.com', 'ana.nova@example.com')}\n`,
    );
    const upsert = await cli(['customer', 'create', 'd.csv', '--upsert'], folder);
    expect(upsert.code).toBe(0);
    expect(upsert.stderr).toContain(
      'warning: line 2: customer 529.982.247-25 was updated but keeps its registered e-mail: --upsert cannot change an e-mail',
    );
    expect((await storedCustomers(sandbox)).map((customer) => customer.email)).toEqual(['ana@example.com']);
  });
});

describe('--upsert of a customer whose delivery address list the file changes', () => {
  it('updates the rest, says on stderr that it keeps its stored delivery addresses, and counts such rows at the end', async () => {
    const header = `${createHeader},addressList.0.zipcode,addressList.0.number,addressList.0.principal,addressList.1.zipcode,addressList.1.number`;
    const bia = 'cpf,111.444.777-35,Bia,bia@example.com,11987654322,Senha#1,01310-100,20';
    const dayOne = `${header}\n${ana},01310-100,10,true,01024-000,6\n${bia},01310-100,20,true,01024-000,7\n`;
    const folder = folderWith('c.csv', dayOne);
    expect((await cli(['customer', 'create', 'c.csv'], folder)).code).toBe(0);
    // Day two: Ana's second delivery address moves; Bia's row is the day-one row, its list as stored.
    writeFileSync(join(folder, 'd.csv'), dayOne.replace('01024-000,6', '01310-200,99').replace(',Bia,', ',Bia Nova,'));
    const upsert = await cli(['customer', 'create', 'd.csv', '--upsert'], folder);
    expect(upsert.code).toBe(0);
    expect(upsert.stderr).toContain(
      'warning: line 2: customer 529.982.247-25 was updated but keeps its stored delivery addresses: --upsert cannot change the delivery address list, addressList (the update route takes none); the report names every such row.\n',
    );
    expect(upsert.stderr).toContain(
      "warning: customer create: 1 updated customer keeps what the file changed and --upsert cannot change (its stored delivery addresses on 1 row); the report's message names each row.\n",
    );
    const report = readdirSync(folder).find((name) => name.startsWith('d.report-')) as string;
    const rows = readFileSync(join(folder, report), 'utf8').trim().split(/\r?\n/).slice(1).toSorted();
    // Only the row whose list differs names it; neither names the password, which no answer shows to compare.
    expect(
      rows.map((row) => row.replace(/,200,\d+,/, ',200,ID,').replace(/"the registration address kept [^"]*"/, 'KEPT')),
    ).toEqual([
      '2,529.982.247-25,updated,200,ID,"updated without addressList: the update route does not take it, so the customer keeps what it had; the registration address kept its stored addressType, street, quarter, city, state, which the file left empty",2',
      '3,111.444.777-35,updated,200,ID,KEPT,3',
    ]);
    const stored = await storedCustomers(sandbox);
    expect(stored.map((customer) => customer.name)).toEqual(['Ana', 'Bia Nova']);
  });
});
