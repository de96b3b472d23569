/**
 * Every customer sample through create, update (file and --set), status (one and a file) and addresses, each
 * command line run in process against the sandbox (moved from test/e2e/customer/create.test.ts), and a document
 * the store does not have.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../../src/sandbox/customers/store.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  addressesRoute,
  createRoute,
  groups,
  priceTags,
  sampleDocuments,
  statusRoute,
  storedCustomer,
  storedCustomers,
  updateRoute,
} from '../../support/customers.js';
import { expectLines, onlyReport, readReport, timed } from '../../support/run-files.js';
import { requestCounts, resetCounts, seedDirectory } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

/** Creates a sample's customers in a fresh folder and checks the run went through; counters reset after. */
async function imported(sample: string): Promise<string> {
  const folder = freshWorkDir();
  copySamples(folder, sample);
  const result = await cli(['customer', 'create', sample], folder);
  expect(result.stderr).not.toContain('error');
  expect(result.code).toBe(0);
  await resetCounts(sandbox);
  return folder;
}

/** The stderr of a create that sent every record of a file without a problem. */
function createdLines(file: string, count: number, report: string): (string | RegExp)[] {
  return [
    `customer create: validating ${file}`,
    timed(`customer create: ${count} records, ${count} valid, 0 invalid ({s} s)`),
    `customer create: sending ${count} customers, one request each, to POST /v1/customer (concurrency 8)`,
    timed(`customer create: ${count} created; ${count} requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s`),
    `customer create: report: ${report}`,
  ];
}

/** The report of a run where every record was created: one row per line, in any order, with the sandbox's ids. */
async function expectAllCreated(reportPath: string, documents: readonly string[]): Promise<void> {
  const rows = readReport(reportPath).toSorted((a, b) => Number(a.line) - Number(b.line));
  const byDocument = new Map((await storedCustomers(sandbox)).map((customer) => [customer.document, customer.id]));
  expect(rows).toEqual(
    documents.map((document, index) => ({
      line: String(index + 2),
      key: document,
      outcome: 'created',
      status: '200',
      id: String(byDocument.get(document)),
      message: '',
      row: String(index + 2),
    })),
  );
}

describe('customer create: every sample end to end', () => {
  it('customers.csv (UTF-8, comma): 25 customers, documents formatted, groups and price tags linked, the alphanumeric CNPJ accepted', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const result = await cli(['customer', 'create', 'customers.csv'], folder);
    const report = onlyReport(folder, 'customers');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, createdLines('customers.csv', 25, report));
    // Nothing failed, so no errors file: only the input, the report and its run record.
    expect(readdirSync(folder).toSorted()).toEqual(['customers.csv', report, report.replace(/\.csv$/, '.meta.json')]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25 });

    const documents = sampleDocuments(readFileSync(join(seedDirectory, 'customers.csv'), 'utf8'));
    const customers = await storedCustomers(sandbox);
    expect(customers.map((customer) => customer.document)).toEqual(expect.arrayContaining(documents));
    expect(customers).toHaveLength(25);
    await expectAllCreated(join(folder, report), documents);

    const individual = await storedCustomer(sandbox, '100.063.352-76');
    expect(individual).toMatchObject({
      documentType: 'pf',
      name: 'Sérgio Assunção',
      email: 'cliente8@email.com.br',
      phone: '(85) 98000-0248',
      stateRegistration: 'isento',
      paysIcms: false,
      active: true,
      customerGroupList: [groups.nordeste, groups.vip],
      priceRuleTag: [priceTags.promocional],
      address: [],
    });
    expect(individual.customerRegistrationAddress).toMatchObject({
      zipcode: '90619-900',
      number: '18',
      complement: 'Sala 8',
      principal: false,
    });

    const alphanumeric = await storedCustomer(sandbox, 'F0.000.00F/0001-91');
    expect(alphanumeric).toMatchObject({
      document: 'F0.000.00F/0001-91',
      documentType: 'pj',
      name: 'Atacadão Simões Ltda',
      tradingName: 'Simões Atacadão',
      stateRegistration: '100000015',
      paysIcms: true,
      customerGroupList: [groups.atacado],
      priceRuleTag: null,
    });
    expect(
      alphanumeric.address.map((address) => [address.zipcode, address.number, address.principal, address.addressType]),
    ).toEqual([
      ['08295-005', '25', true, 'BUSINESS'],
      ['90810-240', '16', false, 'BUSINESS'],
    ]);
    // The store has no other e-mails than those of the file.
    expect(new Set(customers.map((customer) => customer.email)).size).toBe(25);
  });

  it('customers-excel.csv (Windows-1252, semicolon, CRLF, sim/não): 20 customers with their accented names intact', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers-excel.csv');
    const result = await cli(['customer', 'create', 'customers-excel.csv'], folder);
    const report = onlyReport(folder, 'customers-excel');
    expect(result.code).toBe(0);
    expectLines(result.stderr, createdLines('customers-excel.csv', 20, report));
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 20 });

    const documents = sampleDocuments(
      new TextDecoder('windows-1252').decode(readFileSync(join(seedDirectory, 'customers-excel.csv'))),
      ';',
    );
    const customers = await storedCustomers(sandbox);
    expect(customers.map((customer) => customer.document).toSorted()).toEqual([...documents].toSorted());
    await expectAllCreated(join(folder, report), documents);

    const names = new Map(customers.map((customer) => [customer.document, customer.name]));
    expect(names.get('100.799.819-92')).toBe('Francisca Brandão');
    expect(names.get('100.815.657-47')).toBe('Conceição Conceição');
    expect(names.get('20.682.358/0001-59')).toBe('Distribuidora Magalhães Ltda');
    expect(names.get('100.839.414-95')).toBe('Fábio Araújo');
    expect(customers.find((customer) => customer.document === '20.682.358/0001-59')?.contactName).toBe(
      'Luís Magalhães',
    );

    // "sim" and "não" as booleans: paysIcms and an address's principal flag.
    const company = await storedCustomer(sandbox, 'F0.000.02X/0001-84');
    expect(company).toMatchObject({
      documentType: 'pj',
      name: 'Atacadão Simões Ltda',
      paysIcms: true,
      customerGroupList: [groups.atacado],
    });
    expect(company.address.map((address) => [address.zipcode, address.principal])).toEqual([
      ['69020-060', true],
      ['80010-010', false],
    ]);
    expect((await storedCustomer(sandbox, '100.823.576-84')).paysIcms).toBe(false);
    const second = await storedCustomer(sandbox, 'A0.000.03C/0001-96');
    expect(second).toMatchObject({
      documentType: 'pj',
      customerGroupList: [groups.atacado, groups.vip],
      priceRuleTag: [priceTags.atacado],
    });
  });

  it('customers.json (a JSON array): 10 customers, the alphanumeric CNPJ with its two addresses', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.json');
    const result = await cli(['customer', 'create', 'customers.json'], folder);
    const report = onlyReport(folder, 'customers');
    expect(result.code).toBe(0);
    expectLines(result.stderr, createdLines('customers.json', 10, report));
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 10 });

    const records = JSON.parse(readFileSync(join(seedDirectory, 'customers.json'), 'utf8')) as { document: string }[];
    const customers = await storedCustomers(sandbox);
    expect(customers.map((customer) => customer.document).toSorted()).toEqual(
      records.map((record) => record.document).toSorted(),
    );
    // A JSON array element's line is the line where its object opens.
    const lines = readReport(join(folder, report)).map((row) => [row.key, row.line, row.outcome]);
    expect(lines).toContainEqual(['31.050.529/0001-43', '2', 'created']);
    expect(lines).toContainEqual(['101.599.638-85', '21', 'created']);

    const alphanumeric = await storedCustomer(sandbox, 'A0.000.05U/0001-89');
    expect(alphanumeric).toMatchObject({
      documentType: 'pj',
      name: 'Distribuidora Silva Ltda',
      customerGroupList: [groups.atacado],
      priceRuleTag: [priceTags.atacado],
    });
    expect(alphanumeric.address.map((address) => [address.zipcode, address.principal])).toEqual([
      ['22021-001', true],
      ['30130-100', false],
    ]);
  });
});

describe('customer update', () => {
  it('customers-update.csv after customers.csv: changed fields change, omitted ones stay, link lists are replaced, active false', async () => {
    const folder = await imported('customers.csv');
    copySamples(folder, 'customers-update.csv');
    const before = new Map((await storedCustomers(sandbox)).map((customer) => [customer.document, customer]));
    const result = await cli(['customer', 'update', 'customers-update.csv'], folder);
    const report = onlyReport(folder, 'customers-update');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [
      'customer update: validating customers-update.csv',
      timed('customer update: 4 records, 4 valid, 0 invalid ({s} s)'),
      'customer update: sending 4 customers, one request each, to PUT /v1/customer/:document; the stored record read first where a registration address is given in part (concurrency 8)',
      // Line 4 gives a new registration address without its name and type: the stored record is read first.
      timed('customer update: 4 updated; 5 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer update: report: ${report}`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 5 });
    const rows = readReport(join(folder, report)).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key, row.outcome, row.status, row.message])).toEqual([
      ['2', '100.007.919-89', 'updated', '200', ''],
      ['3', '100.015.838-16', 'updated', '200', ''],
      [
        '4',
        '10.314.187/0001-51',
        'updated',
        '200',
        'the registration address kept its stored addressType, which the file left empty',
      ],
      ['5', '10003167690', 'updated', '200', ''],
    ]);

    const was = (document: string) => before.get(document) as Customer;
    // Name, phone and groups change; everything else (e-mail, address, price tags, active) stays.
    expect(await storedCustomer(sandbox, '100.007.919-89')).toEqual({
      ...was('100.007.919-89'),
      name: 'Maria Brandão Souza',
      phone: '(21) 99876-5432',
      customerGroupList: [groups.sul, groups.vip],
    });
    expect(await storedCustomer(sandbox, '100.015.838-16')).toEqual({ ...was('100.015.838-16'), active: false });

    const company = await storedCustomer(sandbox, '10.314.187/0001-51');
    const companyBefore = was('10.314.187/0001-51');
    // Link lists are replaced, not merged: Nordeste stays because the file names it again.
    expect(company).toEqual({
      ...companyBefore,
      customerGroupList: [groups.nordeste, groups.atacado],
      priceRuleTag: [priceTags.atacado, priceTags.promocional],
      customerRegistrationAddress: {
        ...companyBefore.customerRegistrationAddress,
        zipcode: '40140-650',
        street: 'Largo do Farol da Barra',
        number: '200',
        complement: 'Loja 3',
        quarter: 'Barra',
        city: 'Salvador',
        state: 'BA',
        lastUpdated: company.customerRegistrationAddress.lastUpdated,
      },
    });
    // The document written without punctuation finds the customer all the same.
    expect(await storedCustomer(sandbox, '100.031.676-90')).toEqual({
      ...was('100.031.676-90'),
      phone: '(11) 3333-4444',
      passwordExpired: true,
    });
  });

  it('--document D --set name=X --set customerGroupList=Atacado|Sul: one request, the customer on stdout, the groups replaced', async () => {
    const folder = await imported('customers.csv');
    const before = await storedCustomer(sandbox, '100.087.109-61');
    const filesBefore = readdirSync(folder).toSorted();
    expect(before.customerGroupList).toEqual([groups.sul]);
    const result = await cli(
      [
        'customer',
        'update',
        '--document',
        '100.087.109-61',
        '--set',
        'name=Lúcia Brandão Lima',
        '--set',
        'customerGroupList=Atacado|Sul',
      ],
      folder,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`Updated customer ${before.id} (100.087.109-61).\n`);
    const after = await storedCustomer(sandbox, '100.087.109-61');
    expect(after).toEqual({ ...before, name: 'Lúcia Brandão Lima', customerGroupList: [groups.atacado, groups.sul] });
    expect(result.stdout).toBe(`${JSON.stringify(after, null, 2)}\n`);
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 1 });
    // A single update writes no report.
    expect(readdirSync(folder).toSorted()).toEqual(filesBefore);
  });

  it('--set with an invalid phone: exit 65 with the platform wording, nothing sent', async () => {
    const folder = await imported('customers.csv');
    const result = await cli(['customer', 'update', '--document', '100.087.109-61', '--set', 'phone=123'], folder);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      '--set: Property [phone] with value [123] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))\nerror: The update is invalid (listed above); nothing was sent.\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--document with a wrong document: its problem is labelled --document, not --set; nothing sent', async () => {
    const folder = await imported('customers.csv');
    const result = await cli(['customer', 'update', '--document', '1234567890', '--set', 'phone=11987650001'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr.split('\n')[0]).toMatch(/^--document: Property \[document\] with value \[1234567890\] /);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--set of a field the update route does not take: exit 2, nothing sent', async () => {
    const folder = await imported('customers.csv');
    const result = await cli(['customer', 'update', '--document', '100.087.109-61', '--set', 'password=x'], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --set password: not a field the update route takes; see b2bctl customer update --help.\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('customer status', () => {
  it('DOC inactive, then a CNPJ (with its slash) active: one request each, the customer on stdout', async () => {
    const folder = await imported('customers.csv');
    const result = await cli(['customer', 'status', '100.007.919-89', 'inactive'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Customer 100.007.919-89 is now inactive.\n');
    const after = await storedCustomer(sandbox, '100.007.919-89');
    expect(after.active).toBe(false);
    expect(result.stdout).toBe(`${JSON.stringify(after, null, 2)}\n`);
    expect(await requestCounts(sandbox)).toEqual({ [statusRoute]: 1 });

    await cli(['customer', 'status', '10.314.187/0001-51', 'inactive'], folder);
    expect((await storedCustomer(sandbox, '10.314.187/0001-51')).active).toBe(false);
    const again = await cli(['customer', 'status', '10.314.187/0001-51', 'active'], folder);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('Customer 10.314.187/0001-51 is now active.\n');
    expect((await storedCustomer(sandbox, '10.314.187/0001-51')).active).toBe(true);
  });

  it('the FILE form (document,active): every customer set, a report row each, exit 0', async () => {
    const folder = await imported('customers.csv');
    writeFileSync(
      join(folder, 'status.csv'),
      'document,active\n100.007.919-89,false\n10.314.187/0001-51,não\n100.015.838-16,true\n',
    );
    const result = await cli(['customer', 'status', 'status.csv'], folder);
    const report = onlyReport(folder, 'status');
    expect(result.code).toBe(0);
    expectLines(result.stderr, [
      'customer status: validating status.csv',
      timed('customer status: 3 records, 3 valid, 0 invalid ({s} s)'),
      'customer status: sending 3 customers, one request each, to the status route (concurrency 8)',
      timed('customer status: 3 updated; 3 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer status: report: ${report}`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [statusRoute]: 3 });
    expect(readReport(join(folder, report)).toSorted((a, b) => Number(a.line) - Number(b.line))).toEqual([
      { line: '2', key: '100.007.919-89', outcome: 'updated', status: '200', id: '', message: 'inactive', row: '2' },
      {
        line: '3',
        key: '10.314.187/0001-51',
        outcome: 'updated',
        status: '200',
        id: '',
        message: 'inactive',
        row: '3',
      },
      { line: '4', key: '100.015.838-16', outcome: 'updated', status: '200', id: '', message: 'active', row: '4' },
    ]);
    const active = new Map((await storedCustomers(sandbox)).map((customer) => [customer.document, customer.active]));
    expect([
      active.get('100.007.919-89'),
      active.get('10.314.187/0001-51'),
      active.get('100.015.838-16'),
      active.get('100.031.676-90'),
    ]).toEqual([false, false, true, true]);
  });

  it("the FILE form reads an ERP's Ativo/Inativo as the command line does; another word is the row's problem, nothing sent", async () => {
    const folder = await imported('customers.csv');
    writeFileSync(
      join(folder, 'estados.csv'),
      'document;active\r\n100.007.919-89;Inativo\r\n10.314.187/0001-51;ATIVA\r\n100.015.838-16;talvez\r\n',
    );
    const refused = await cli(['customer', 'status', 'estados.csv'], folder);
    expect(refused.code).toBe(65);
    expect(refused.stderr).toContain(
      'estados.csv:4: Property [active] with value [talvez] does not pass validation (active must be active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0)',
    );
    expect(await requestCounts(sandbox)).toEqual({});
    writeFileSync(
      join(folder, 'estados.csv'),
      'document;active\r\n100.007.919-89;Inativo\r\n10.314.187/0001-51;ATIVA\r\n',
    );
    expect((await cli(['customer', 'status', 'estados.csv'], folder)).code).toBe(0);
    expect((await storedCustomer(sandbox, '100.007.919-89')).active).toBe(false);
    expect((await storedCustomer(sandbox, '10.314.187/0001-51')).active).toBe(true);
    // An ERP's credit block, as its export says it: Bloqueado is inactive, Liberado active.
    writeFileSync(
      join(folder, 'bloqueios.csv'),
      'document;active\r\n100.007.919-89;Liberado\r\n10.314.187/0001-51;BLOQUEADO\r\n',
    );
    expect((await cli(['customer', 'status', 'bloqueios.csv'], folder)).code).toBe(0);
    expect((await storedCustomer(sandbox, '100.007.919-89')).active).toBe(true);
    expect((await storedCustomer(sandbox, '10.314.187/0001-51')).active).toBe(false);
  });

  it('a file and a state: exit 2 naming the two ways and the line that adds the column, nothing sent', async () => {
    const folder = await imported('customers.csv');
    writeFileSync(join(folder, 'bloquear.csv'), 'document\r\n100.007.919-89\r\n');
    const result = await cli(['customer', 'status', 'bloquear.csv', 'inactive'], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: customer status bloquear.csv inactive: a file gives each customer's state in its active column, not on the command line. If bloquear.csv has that column, drop "inactive": b2bctl customer status bloquear.csv; if not, add it (inactive on each row) and do the same; for a list of documents alone, one a line: sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inactive/' -e '$a\\' bloquear.csv > bloquear-inactive.csv && b2bctl customer status bloquear-inactive.csv. For one customer, give the document: b2bctl customer status 529.982.247-25 inactive.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    // The printed line, as pasted: the list gets its active column, and the run takes it.
    const pasted = /one a line: (sed .*?) && b2bctl customer status (\S+)\./.exec(result.stderr);
    execFileSync('sh', ['-c', pasted?.[1] ?? 'false'], { cwd: folder });
    expect((await cli(['customer', 'status', pasted?.[2] ?? ''], folder)).code).toBe(0);
    expect((await storedCustomer(sandbox, '100.007.919-89')).active).toBe(false);
  });

  it.each([
    ['without a line end on its last line', 'document\n100.007.919-89\n100.031.676-90'],
    ['with a blank line at its end', 'document\r\n100.007.919-89\r\n100.031.676-90\r\n\r\n'],
  ])('the printed line makes a list pasted %s a file the run takes', async (_case, list) => {
    const folder = await imported('customers.csv');
    writeFileSync(join(folder, 'lista.csv'), list);
    const result = await cli(['customer', 'status', 'lista.csv', 'inactive'], folder);
    expect(result.code).toBe(2);
    const pasted = /one a line: (sed .*?) && b2bctl customer status (\S+)\./.exec(result.stderr);
    execFileSync('sh', ['-c', pasted?.[1] ?? 'false'], { cwd: folder });
    expect(readFileSync(join(folder, 'lista-inactive.csv'), 'utf8')).toBe(
      'document,active\n100.007.919-89,inactive\n100.031.676-90,inactive\n',
    );
    expect((await cli(['customer', 'status', pasted?.[2] ?? ''], folder)).code).toBe(0);
    expect((await storedCustomer(sandbox, '100.031.676-90')).active).toBe(false);
  });

  it('a file with its active column and a state: the line says to drop the state, nothing sent', async () => {
    const folder = await imported('customers.csv');
    writeFileSync(join(folder, 'st.csv'), 'document,active\r\n100.007.919-89,false\r\n');
    const result = await cli(['customer', 'status', 'st.csv', 'inactive'], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: customer status st.csv inactive: a file gives each customer's state in its active column, not on the command line. If st.csv has that column, drop "inactive": b2bctl customer status st.csv; if not, add it (inactive on each row) and do the same; for a list of documents alone, one a line: sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inactive/' -e '$a\\' st.csv > st-inactive.csv && b2bctl customer status st-inactive.csv. For one customer, give the document: b2bctl customer status 529.982.247-25 inactive.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a state that is not active or inactive: exit 2, nothing sent', async () => {
    const folder = freshWorkDir();
    const result = await cli(['customer', 'status', '100.007.919-89', 'maybe'], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: The state must be active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0; not "maybe".\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('customer addresses', () => {
  it('json when piped: exactly the delivery addresses the store holds', async () => {
    const folder = await imported('customers.csv');
    const result = await cli(['customer', 'addresses', '100.039.595-20'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const stored = await storedCustomer(sandbox, '100.039.595-20');
    expect(stored.address).toHaveLength(2);
    expect(result.stdout).toBe(`${JSON.stringify(stored.address, null, 2)}\n`);
    expect(await requestCounts(sandbox)).toEqual({ [addressesRoute]: 1 });
  });

  it('-o table: one aligned row per address, the principal one marked', async () => {
    const folder = await imported('customers.csv');
    const stored = await storedCustomer(sandbox, '100.039.595-20');
    const [first, second] = stored.address as [Customer['address'][number], Customer['address'][number]];
    const result = await cli(['customer', 'addresses', '100.039.595-20', '-o', 'table'], folder);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    // The ID column is as wide as its widest cell, plus two spaces.
    const width = Math.max(2, String(first.id).length, String(second.id).length) + 2;
    const id = (value: number | string) => String(value).padEnd(width);
    expect(result.stdout).toBe(
      [
        `${id('ID')}PRINCIPAL  TYPE         ZIPCODE    ADDRESS                      QUARTER  CITY`,
        `${id(first.id)}yes        RESIDENTIAL  40140-650  Largo do Farol da Barra, 15  Barra    Salvador/BA`,
        `${id(second.id)}           BUSINESS     01024-000  Rua da Cantareira, 6         Centro   São Paulo/SP`,
        '',
      ].join('\n'),
    );
  });

  it('a customer with a registration address only: [] in json, a note on stderr in a table', async () => {
    const folder = await imported('customers.csv');
    const json = await cli(['customer', 'addresses', '100.007.919-89'], folder);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('[]\n');
    const table = await cli(['customer', 'addresses', '100.007.919-89', '-o', 'table'], folder);
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('Customer 100.007.919-89 has no addresses.\n');
  });
});

describe('a document the store does not have', () => {
  it('addresses, status and update --set each exit 1 naming the document, after one request', async () => {
    const folder = freshWorkDir();
    const missing = '529.982.247-25';
    // The platform's words kept; where a setting names the route, the path asked and that setting (a 404 is also
    // what a store answers on a path it does not have).
    const said = `error: No customer has the document ${missing} in this store (HTTP 404: No customer with document ${missing} in the store).`;
    const route = (method: string, path: string, setting: string) =>
      ` If the customer is registered, this store's route is not ${method} ${sandbox.url}${path}: set ${setting}.`;

    const addresses = await cli(['customer', 'addresses', missing], folder);
    expect([addresses.code, addresses.stdout, addresses.stderr]).toEqual([
      1,
      '',
      `${said}${route('GET', `/v1/customer/addresses/${missing}`, 'paths.customerAddresses')}\n`,
    ]);
    const status = await cli(['customer', 'status', missing, 'inactive'], folder);
    expect([status.code, status.stdout, status.stderr]).toEqual([
      1,
      '',
      `${said}${route('PUT', `/v1/customer/updateStatus/${missing}/false`, 'paths.customerStatus')}\n`,
    ]);
    const update = await cli(['customer', 'update', '--document', missing, '--set', 'name=Ana'], folder);
    expect([update.code, update.stdout, update.stderr]).toEqual([1, '', `${said}\n`]);
    expect(await requestCounts(sandbox)).toEqual({ [addressesRoute]: 1, [statusRoute]: 1, [updateRoute]: 1 });
  });

  it('in an update file: that row failed with the reason, the others updated, exit 1', async () => {
    const folder = await imported('customers.csv');
    writeFileSync(join(folder, 'changes.csv'), 'document,name\n100.007.919-89,Maria B.\n529.982.247-25,Ana\n');
    const result = await cli(['customer', 'update', 'changes.csv'], folder);
    expect(result.code).toBe(1);
    const rows = readReport(join(folder, onlyReport(folder, 'changes'))).toSorted(
      (a, b) => Number(a.line) - Number(b.line),
    );
    expect(rows.map((row) => [row.line, row.outcome, row.status, row.message])).toEqual([
      ['2', 'updated', '200', ''],
      [
        '3',
        'failed',
        '404',
        'no customer has the document 529.982.247-25 in this store (HTTP 404: No customer with document 529.982.247-25 in the store)',
      ],
    ]);
    const report = onlyReport(folder, 'changes');
    expect(result.stderr.split('\n').at(-2)).toBe(
      `error: 1 customer did not go through (1 failed); the report ${report} and the errors file ${report.replace('.report-', '.errors-')} say why.`,
    );
    expect((await storedCustomer(sandbox, '100.007.919-89')).name).toBe('Maria B.');
  });

  it('an invalid document is refused before anything is sent: exit 65', async () => {
    const result = await cli(['customer', 'addresses', '123.456.789-00'], freshWorkDir());
    expect(result.code).toBe(65);
    expect(result.stderr).toBe(
      'error: Property [document] with value [123.456.789-00] does not pass validation (CPF check digits do not match); nothing was sent.\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
