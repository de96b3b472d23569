/**
 * The readers of docs/input-files.md through `customer create`, `update` and `validate` of the built CLI:
 * stdin, JSON and NDJSON, a BOM, quoted newlines, booleans, lists, --map, empty cells,
 * --delimiter and --encoding; each checked in what the sandbox ends up holding.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  createHeader,
  createRoute,
  generateCustomers,
  groups,
  priceTags,
  storedCustomer,
  storedCustomers,
  updateRoute,
} from '../../support/customers.js';
import { expectLines, onlyReport, readReport, runFiles, timed } from '../../support/run-files.js';
import { clearSandboxCustomers, patchSandboxSettings, requestCounts, seedDirectory } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string, stdin?: string | Buffer): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd, stdin });
}

/** A folder holding one file with these contents. */
function folderWith(name: string, contents: string | Buffer): string {
  const folder = freshWorkDir();
  writeFileSync(join(folder, name), contents);
  return folder;
}

/** The JSON bodies a --verbose run sent, in order (the trace line after the request headers). */
function sentBodies(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('> {'))
    .map((line) => JSON.parse(line.slice(2)) as Record<string, unknown>);
}

describe('stdin (-)', () => {
  it('CSV on stdin: every customer created, the report in the working folder as stdin.report-*.csv', async () => {
    const folder = freshWorkDir();
    const result = await cli(['customer', 'create', '-'], folder, readFileSync(join(seedDirectory, 'customers.csv')));
    const { reports, errors } = runFiles(folder, 'stdin');
    expect(errors).toEqual([]);
    expect(reports).toHaveLength(1);
    expect(result.code).toBe(0);
    expectLines(result.stderr, [
      'customer create: validating stdin',
      timed('customer create: 25 records, 25 valid, 0 invalid ({s} s)'),
      'customer create: sending 25 customers, one request each, to POST /v1/customer (concurrency 8)',
      timed('customer create: 25 created; 25 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer create: report: ${reports[0]}`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25 });
    expect(await storedCustomers(sandbox)).toHaveLength(25);
    expect((await storedCustomer(sandbox, '100.063.352-76')).name).toBe('Sérgio Assunção');
  });

  it('NDJSON on stdin (format sniffed): every generated customer created, report lines are NDJSON lines', async () => {
    const folder = freshWorkDir();
    const ndjson = generateCustomers(6, 'ndjson', 300).toString('utf8');
    const documents = ndjson
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { document: string }).document);
    const result = await cli(['customer', 'create', '-'], folder, ndjson);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('customer create: 6 created; 6 requests');
    expect((await storedCustomers(sandbox)).map((customer) => customer.document).toSorted()).toEqual(
      [...documents].toSorted(),
    );
    const rows = readReport(join(folder, onlyReport(folder, 'stdin')));
    expect(rows.map((row) => [row.line, row.key]).toSorted((a, b) => Number(a[0]) - Number(b[0]))).toEqual(
      documents.map((document, index) => [String(index + 1), document]),
    );
  });
});

describe('JSON and NDJSON files', () => {
  it('one JSON object (not an array) is one customer, at line 1', async () => {
    const record = {
      documentType: 'cpf',
      document: '52998224725',
      name: 'Ana Souza',
      username: 'ana@example.com.br',
      phone: '11987654321',
      password: 'Senha#1',
      customerRegistrationAddress: { zipcode: '01310100', number: '1000' },
    };
    const folder = folderWith('one.json', `${JSON.stringify(record, null, 2)}\n`);
    const result = await cli(['customer', 'create', 'one.json'], folder);
    expect(result.code).toBe(0);
    expect(readReport(join(folder, onlyReport(folder, 'one')))).toEqual([
      { line: '1', key: '52998224725', outcome: 'created', status: '200', id: expect.any(String), message: '' },
    ]);
    // The sandbox formats the document and the ZIP code it was sent without punctuation.
    expect(await storedCustomer(sandbox, '529.982.247-25')).toMatchObject({
      document: '529.982.247-25',
      name: 'Ana Souza',
      customerRegistrationAddress: { zipcode: '01310-100', street: 'Avenida Paulista' },
    });
  });

  it('NDJSON with a blank line: each record keeps its own line number in problems and in the report', async () => {
    const good = {
      documentType: 'cpf',
      document: '529.982.247-25',
      username: 'ana@example.com',
      phone: '11987654321',
      password: 'Senha#1',
      customerRegistrationAddress: { zipcode: '01310-100', number: '1' },
    };
    const bad = { ...good, document: '111.444.777-35', username: 'dora@example.com', phone: '123' };
    const folder = folderWith('people.ndjson', `${JSON.stringify(good)}\n\n${JSON.stringify(bad)}\n`);
    const validate = await cli(['customer', 'validate', 'people.ndjson', '-o', 'table'], folder);
    expect(validate.code).toBe(65);
    expect(validate.stdout).toBe(
      'people.ndjson:3: Property [phone] with value [123] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))\n',
    );
    const create = await cli(['customer', 'create', 'people.ndjson', '--skip-invalid'], folder);
    expect(create.code).toBe(1);
    const rows = readReport(join(folder, onlyReport(folder, 'people'))).toSorted(
      (a, b) => Number(a.line) - Number(b.line),
    );
    expect(rows.map((row) => [row.line, row.key, row.outcome])).toEqual([
      ['1', '529.982.247-25', 'created'],
      ['3', '111.444.777-35', 'invalid'],
    ]);
  });
});

describe('CSV as exports make it', () => {
  it('a UTF-8 BOM before the header: the first column is still "documentType", no warning', async () => {
    const folder = folderWith(
      'bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(seedDirectory, 'customers.csv'))]),
    );
    const result = await cli(['customer', 'create', 'bom.csv'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(result.stderr).toContain('customer create: 25 created; 25 requests');
    expect(await storedCustomer(sandbox, '100.007.919-89')).toMatchObject({
      documentType: 'pf',
      name: 'Maria Brandão',
    });
  });

  it('a quoted field with an embedded CRLF: its record is at the line it starts on, and the next record one line further down', async () => {
    const csv = [
      `${createHeader},customerRegistrationAddress.complement`,
      'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10,"Bloco B',
      'Apto 12"',
      'cpf,111.444.777-35,Dora,dora@example.com,123,Senha#1,01310-100,11,',
      'cpf,935.411.347-80,Eva,eva@example.com,11987654321,Senha#1,01310-100,12,',
      '',
    ].join('\r\n');
    const folder = folderWith('newline.csv', csv);
    const validate = await cli(['customer', 'validate', 'newline.csv', '-o', 'table'], folder);
    expect(validate.code).toBe(65);
    expect(validate.stdout).toBe(
      'newline.csv:4 (row 3): Property [phone] with value [123] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))\n',
    );

    const create = await cli(['customer', 'create', 'newline.csv', '--skip-invalid'], folder);
    expect(create.code).toBe(1);
    expect(create.stderr).toContain(
      'newline.csv:4 (row 3): Property [phone] with value [123] does not pass validation',
    );
    const rows = readReport(join(folder, onlyReport(folder, 'newline'))).toSorted(
      (a, b) => Number(a.line) - Number(b.line),
    );
    expect(rows.map((row) => [row.line, row.key, row.outcome])).toEqual([
      ['2', '529.982.247-25', 'created'],
      ['4', '111.444.777-35', 'invalid'],
      ['5', '935.411.347-80', 'created'],
    ]);
    // The line break inside the quotes is part of the value, as one LF.
    expect((await storedCustomer(sandbox, '529.982.247-25')).customerRegistrationAddress.complement).toBe(
      'Bloco B\nApto 12',
    );
  });

  it('booleans true/false/1/0/sim/não/yes/no and |-separated lists', async () => {
    const words = ['sim', 'não', '1', '0', 'yes', 'no', 'TRUE', 'False'];
    const cpfs = [
      '529.982.247-25',
      '111.444.777-35',
      '935.411.347-80',
      '714.602.380-01',
      '248.438.034-80',
      '123.456.789-09',
      '390.533.447-05',
      '853.513.468-93',
    ];
    const rows = cpfs.map(
      (cpf, index) =>
        `cpf,${cpf},N${index},n${index}@example.com,11987654321,Senha#1,01310-100,${index + 1},${words[index]},Atacado|Sul,Varejo | Promocional`,
    );
    const folder = folderWith(
      'flags.csv',
      `${createHeader},paysIcms,customerGroupList,priceRuleTags\n${rows.join('\n')}\n`,
    );
    const result = await cli(['customer', 'create', 'flags.csv'], folder);
    expect(result.code).toBe(0);
    const customers = new Map((await storedCustomers(sandbox)).map((customer) => [customer.document, customer]));
    expect(cpfs.map((cpf) => customers.get(cpf)?.paysIcms)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    for (const cpf of cpfs) {
      expect(customers.get(cpf)?.customerGroupList).toEqual([groups.atacado, groups.sul]);
      expect(customers.get(cpf)?.priceRuleTag).toEqual([priceTags.varejo, priceTags.promocional]);
    }
  });

  it("--map renames an ERP's own headers (CNPJ → document, CEP → customerRegistrationAddress.zipcode)", async () => {
    const folder = folderWith(
      'erp.csv',
      'Tipo;CNPJ;Razao Social;Email;Telefone;Senha;CEP;Numero\ncnpj;11.222.333/0001-81;Mercadinho Exemplo Ltda;compras@mercadinho.com.br;1133334444;Senha#1;22041-001;500\n',
    );
    writeFileSync(
      join(folder, 'erp-map.json'),
      JSON.stringify({
        Tipo: 'documentType',
        CNPJ: 'document',
        'Razao Social': 'name',
        Email: 'username',
        Telefone: 'phone',
        Senha: 'password',
        CEP: 'customerRegistrationAddress.zipcode',
        Numero: 'customerRegistrationAddress.number',
      }),
    );
    const unmapped = await cli(['customer', 'validate', 'erp.csv'], folder);
    expect(unmapped.code).toBe(65);
    // One run names every column and the whole map (test/commands/customer/erp-headers.test.ts has the rest).
    expect(unmapped.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: erp.csv:1: 8 columns are named as an ERP names them (listed above). Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding {"Tipo":"documentType","CNPJ":"document","Razao Social":"name","Email":"username","Telefone":"phone","Senha":"password","CEP":"customerRegistrationAddress.zipcode","Numero":"customerRegistrationAddress.number"}.',
    );

    const result = await cli(['customer', 'create', 'erp.csv', '--map', 'erp-map.json'], folder);
    expect(result.stderr).not.toContain('warning');
    expect(result.code).toBe(0);
    expect(await storedCustomer(sandbox, '11.222.333/0001-81')).toMatchObject({
      documentType: 'pj',
      name: 'Mercadinho Exemplo Ltda',
      email: 'compras@mercadinho.com.br',
      phone: '(11) 3333-4444',
      customerRegistrationAddress: {
        zipcode: '22041-001',
        number: '500',
        street: 'Avenida Atlântica',
        city: 'Rio de Janeiro',
      },
    });
  });

  it('an empty cell is an absent field: never sent as "", and an update leaves that field as it was', async () => {
    const folder = folderWith(
      'one.csv',
      `${createHeader},tradingName,contactName\ncpf,529.982.247-25,Ana Souza,ana@example.com,11987654321,Senha#1,01310-100,10,,\n`,
    );
    const create = await cli(['customer', 'create', 'one.csv', '--verbose'], folder);
    expect(create.code).toBe(0);
    const [created] = sentBodies(create.stderr);
    expect(created).toEqual({
      documentType: 'cpf',
      document: '529.982.247-25',
      username: 'ana@example.com',
      phone: '11987654321',
      password: '[redacted]',
      name: 'Ana Souza',
      customerRegistrationAddress: { zipcode: '01310-100', number: '10' },
    });
    const before = await storedCustomer(sandbox, '529.982.247-25');
    expect([before.tradingName, before.contactName]).toEqual([null, null]);

    writeFileSync(
      join(folder, 'changes.csv'),
      'document,name,phone,customerGroupList,active\n529.982.247-25,,1133334444,,\n',
    );
    const update = await cli(['customer', 'update', 'changes.csv', '--verbose'], folder);
    expect(update.code).toBe(0);
    expect(sentBodies(update.stderr)).toEqual([{ phone: '1133334444' }]);
    expect(await storedCustomer(sandbox, '529.982.247-25')).toEqual({ ...before, phone: '(11) 3333-4444' });
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 1, [updateRoute]: 1 });
  });

  it('decimal comma with ";" (lat/lng, with the store\'s lat/lng feature on)', async () => {
    await patchSandboxSettings(sandbox, { latLngFeature: true });
    try {
      const folder = folderWith(
        'geo.csv',
        `${createHeader.replaceAll(',', ';')};customerRegistrationAddress.lat;customerRegistrationAddress.lng\ncpf;529.982.247-25;Ana;ana@example.com;11987654321;Senha#1;01310-100;10;-23,561414;-46,655881\n`,
      );
      const result = await cli(['customer', 'create', 'geo.csv'], folder);
      expect(result.code).toBe(0);
      expect((await storedCustomer(sandbox, '529.982.247-25')).customerRegistrationAddress).toMatchObject({
        lat: -23.561414,
        lng: -46.655881,
      });
    } finally {
      await patchSandboxSettings(sandbox, { latLngFeature: false });
    }
  });

  it('--delimiter: a "|"-separated export is read only when told', async () => {
    const folder = folderWith(
      'pipes.csv',
      `${createHeader.replaceAll(',', '|')}\ncpf|529.982.247-25|Ana|ana@example.com|11987654321|Senha#1|01310-100|10\n`,
    );
    const sniffed = await cli(['customer', 'create', 'pipes.csv'], folder);
    expect(sniffed.code).toBe(65);
    // One column: the whole header, quoted cut at 80 characters.
    const oneColumn = createHeader.replaceAll(',', '|');
    expect(sniffed.stderr).toContain(
      `error: pipes.csv:1: no "documentType", "document", "username", "phone" or "password" column (the columns are ${oneColumn.slice(0, 80)}… (${oneColumn.length} characters)).`,
    );
    expect(await requestCounts(sandbox)).toEqual({});

    const told = await cli(['customer', 'create', 'pipes.csv', '--delimiter', '|'], folder);
    expect(told.code).toBe(0);
    expect(await storedCustomer(sandbox, '529.982.247-25')).toMatchObject({ name: 'Ana', email: 'ana@example.com' });
  });

  it('an Excel file whose first accent comes after the sniffed head is Windows-1252 throughout', async () => {
    // 500 rows without accents (more than the 64 KiB that are sniffed), then one row with accents in Windows-1252.
    const latin1 = generateCustomers(501, 'excel').toString('latin1').split('\r\n');
    const plain = latin1.slice(0, -2).map((line) => line.normalize('NFD').replace(/[\u0300-\u036f]/g, ''));
    const text = [...plain, latin1.at(-2) as string, ''].join('\r\n');
    expect(text.search(/[\u0080-\uffff]/)).toBeGreaterThan(64 * 1024);
    const folder = folderWith('late.csv', Buffer.from(text, 'latin1'));
    const lastDocument = (latin1.at(-2) as string).split(';')[1] as string;
    const lastName = (latin1.at(-2) as string).split(';')[2] as string;
    expect(lastName).toMatch(/[ãçéíóúâêô]/);

    // ASCII reads the same in both encodings: the first byte that is not UTF-8 settles the file (issue 10).
    const sniffed = await cli(['customer', 'create', 'late.csv'], folder);
    expect(sniffed.code).toBe(0);
    expect((await storedCustomer(sandbox, lastDocument)).name).toBe(lastName);
    await clearSandboxCustomers(sandbox);

    const told = await cli(['customer', 'create', 'late.csv', '--encoding', 'windows-1252'], folder);
    expect(told.code).toBe(0);
    expect(await storedCustomers(sandbox)).toHaveLength(501);
    expect((await storedCustomer(sandbox, lastDocument)).name).toBe(lastName);
  });
});

describe('the excel sample copied as is', () => {
  it('validate sniffs Windows-1252 and ";" by itself: 20 valid', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers-excel.csv');
    const result = await cli(['customer', 'validate', 'customers-excel.csv'], folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [timed('customers-excel.csv: 20 records, 20 valid, 0 invalid (0 problems) in {s} s.')]);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
