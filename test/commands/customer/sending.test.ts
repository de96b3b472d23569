/**
 * Sending customers with the built CLI: validate, --dry-run, --skip-invalid, rows only the platform
 * rejects (the report, the errors file, feeding it back), --upsert, and reports of runs started in
 * the same second.
 */
import { chownSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  createHeader,
  createRoute,
  groups,
  sampleDocuments,
  storedCustomer,
  storedCustomers,
  updateRoute,
} from '../../support/customers.js';
import {
  expectLines,
  expectSomeLine,
  onlyErrorsFile,
  onlyReport,
  readErrorsCsv,
  readReport,
  runFiles,
  timed,
} from '../../support/run-files.js';
import { requestCounts, resetCounts, seedDirectory } from '../../support/sandbox.js';
import { ndjsonOf } from '../../support/ndjson.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

function byLine<T extends { line: string }>(rows: T[]): T[] {
  return [...rows].toSorted((a, b) => Number(a.line) - Number(b.line));
}

const mixed = [
  createHeader,
  'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10',
  'cpf,123.456.789-00,Bruno,bruno@example.com,11987654321,Senha#1,01310-100,11',
  'cpf,111.444.777-35,Dora,dora@example.com,11987654321,Senha#1,01310-100,12',
  'cpf,935.411.347-80,Eva,eva@example,1198765,Senha#2,01310-100,13',
  'cpf,714.602.380-01,Fábio,fabio@example.com,11987654321,Senha#1,01310-100,14',
  '',
].join('\n');

/** One line of `customer validate`'s NDJSON output for mixed.csv. */
function problem(line: number, field: string, value: string, detail: string) {
  return {
    file: 'mixed.csv',
    line,
    field,
    value,
    message: `Property [${field}] with value [${value}] does not pass validation (${detail})`,
  };
}

/** A report's timestamp as the CLI writes it: `20261122-021500`. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

describe('customer validate', () => {
  it('piped: every problem as an NDJSON line on stdout, the summary on stderr, exit 65, nothing sent', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'mixed.csv'), mixed);
    const result = await cli(['customer', 'validate', 'mixed.csv'], folder);
    expect(result.code).toBe(65);
    expect(ndjsonOf(result.stdout)).toEqual([
      problem(3, 'document', '123.456.789-00', 'CPF check digits do not match'),
      problem(5, 'username', 'eva@example', 'not a valid e-mail address'),
      problem(5, 'phone', '1198765', 'a phone has 10 or 11 digits with the area code (DDD)'),
    ]);
    expectLines(result.stderr, [
      timed('mixed.csv: 5 records, 3 valid, 2 invalid (3 problems) in {s} s.'),
      'error: 2 of 5 records of mixed.csv are invalid (listed above); validate sends nothing, fix them before customer create.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(readdirSync(folder)).toEqual(['mixed.csv']);
  });

  it('--update: the closing advice names the command that sends it, customer update', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'u.csv'), 'document,phone\n529.982.247-25,1198765\n');
    const result = await cli(['customer', 'validate', '--update', 'u.csv'], folder);
    expect(result.code).toBe(65);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      'error: 1 of 1 record of u.csv is invalid (listed above); validate sends nothing, fix it before customer update.',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a valid file: nothing on stdout, the summary on stderr, exit 0, nothing sent', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const result = await cli(['customer', 'validate', 'customers.csv'], folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [timed('customers.csv: 25 records, 25 valid, 0 invalid (0 problems) in {s} s.')]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--update checks a file as update input (only the document required)', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers-update.csv');
    const asUpdate = await cli(['customer', 'validate', '--update', 'customers-update.csv'], folder);
    expect(asUpdate.code).toBe(0);
    const asCreate = await cli(['customer', 'validate', 'customers-update.csv'], folder);
    expect(asCreate.code).toBe(65);
    // As a create file it lacks three columns every create record needs: said once, at the header.
    expect(asCreate.stderr.split('\n').at(-2)).toBe(
      'error: customers-update.csv:1: no "documentType", "username" or "password" column (the columns are document, name, phone, active, customerGroupList, priceRuleTags, customerRegistrationAddress.zipcode, customerRegistrationAddress.number, customerRegistrationAddress.complement, passwordExpired). Name the columns "documentType", "username", "password", or map yours to them with --map.',
    );
  });
});

describe('customer create --dry-run', () => {
  it('validates, says what it would send, and sends nothing (not even a token request); no report', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const result = await cli(['customer', 'create', 'customers.csv', '--dry-run'], folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [
      'customer create: validating customers.csv',
      timed('customer create: 25 records, 25 valid, 0 invalid ({s} s)'),
      'customer create: dry run; would send 25 customers in 25 requests to POST /v1/customer.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(readdirSync(folder)).toEqual(['customers.csv']);
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});

describe('customer create --skip-invalid', () => {
  it('sends the valid records, reports the invalid ones and writes them to the errors file; exit 1', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'mixed.csv'), mixed);
    const result = await cli(['customer', 'create', 'mixed.csv', '--skip-invalid'], folder);
    const report = onlyReport(folder, 'mixed');
    const errors = onlyErrorsFile(folder, 'mixed');
    expect(result.code).toBe(1);
    expectLines(result.stderr, [
      'customer create: validating mixed.csv',
      'mixed.csv:3: Property [document] with value [123.456.789-00] does not pass validation (CPF check digits do not match)',
      'mixed.csv:5: Property [username] with value [eva@example] does not pass validation (not a valid e-mail address)',
      'mixed.csv:5: Property [phone] with value [1198765] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))',
      timed('customer create: 5 records, 3 valid, 2 invalid ({s} s)'),
      'customer create: sending 3 customers, one request each, to POST /v1/customer (concurrency 8)',
      timed('customer create: 3 created, 2 invalid; 3 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer create: report: ${report}`,
      `customer create: errors: ${errors} (2 records to fix and feed back)`,
      `customer create: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create ${errors} --profile default`,
      `error: 2 customers did not go through (2 invalid); the report ${report} and the errors file ${errors} say why.`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 3 });
    expect((await storedCustomers(sandbox)).map((customer) => customer.document).toSorted()).toEqual([
      '111.444.777-35',
      '529.982.247-25',
      '714.602.380-01',
    ]);

    const rows = byLine(readReport(join(folder, report)));
    expect(rows.map((row) => [row.line, row.key, row.outcome, row.status])).toEqual([
      ['2', '529.982.247-25', 'created', '200'],
      ['3', '123.456.789-00', 'invalid', ''],
      ['4', '111.444.777-35', 'created', '200'],
      ['5', '935.411.347-80', 'invalid', ''],
      ['6', '714.602.380-01', 'created', '200'],
    ]);
    expect(rows[3]?.message).toBe(
      'Property [username] with value [eva@example] does not pass validation (not a valid e-mail address); Property [phone] with value [1198765] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))',
    );
    const errorsFile = readErrorsCsv(join(folder, errors));
    expect(errorsFile.bom).toBe(true);
    expect(errorsFile.header).toEqual([...createHeader.split(','), 'row', 'error']);
    expect(errorsFile.rows).toEqual([
      [
        'cpf',
        '123.456.789-00',
        'Bruno',
        'bruno@example.com',
        '11987654321',
        'Senha#1',
        '01310-100',
        '11',
        '3',
        'Property [document] with value [123.456.789-00] does not pass validation (CPF check digits do not match)',
      ],
      ['cpf', '935.411.347-80', 'Eva', 'eva@example', '1198765', 'Senha#2', '01310-100', '13', '5', rows[3]?.message],
    ]);
  });
});

/** The excel sample with one unknown CEP (line 3) and one unknown customer group (line 7), still Windows-1252. */
function excelWithServerOnlyProblems(): Buffer {
  const lines = new TextDecoder('windows-1252')
    .decode(readFileSync(join(seedDirectory, 'customers-excel.csv')))
    .split('\r\n');
  lines[2] = (lines[2] as string).replace(';50030-320;', ';99999-999;');
  lines[6] = (lines[6] as string).replace(';Sul;Varejo', ';Norte|Sul;Varejo');
  expect(lines[2]).toContain('99999-999');
  expect(lines[6]).toContain('Norte|Sul');
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

describe('records only the platform rejects', () => {
  it("an unknown CEP and an unknown group: exit 1, failed with the platform message, the errors file in the input's own columns, every other customer created; fixed and fed back", async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'clientes.csv'), excelWithServerOnlyProblems());
    const result = await cli(['customer', 'create', 'clientes.csv'], folder);
    const report = onlyReport(folder, 'clientes');
    const errors = onlyErrorsFile(folder, 'clientes');
    expect(result.code).toBe(1);
    expectLines(result.stderr, [
      'customer create: validating clientes.csv',
      timed('customer create: 20 records, 20 valid, 0 invalid ({s} s)'),
      'customer create: sending 20 customers, one request each, to POST /v1/customer (concurrency 8)',
      timed('customer create: 18 created, 2 failed; 20 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      'customer create: why, 1 customer (line 3): Property [address] with value [] does not pass validation; the platform refused the address: check its CEP 99999-999 and number 112',
      "customer create: why, 1 customer (line 7): Property [customerGroupList] with value [Norte] does not pass validation; customer groups sent: Norte, Sul (`b2bctl api /v1/customer-groups --paginate` lists the store's groups)",
      `customer create: report: ${report}`,
      `customer create: errors: ${errors} (2 records to fix and feed back)`,
      `customer create: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create ${errors} --profile default`,
      `error: 2 customers did not go through (2 failed); the report ${report} and the errors file ${errors} say why.`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 20 });

    const rows = byLine(readReport(join(folder, report)));
    expect(rows).toHaveLength(20);
    expect(rows.filter((row) => row.outcome !== 'created')).toEqual([
      {
        line: '3',
        key: '20.682.358/0001-59',
        outcome: 'failed',
        status: '422',
        id: '',
        // The platform's words, then the CEP and number sent: its message names neither.
        message:
          'Property [address] with value [] does not pass validation; the platform refused the address: check its CEP 99999-999 and number 112',
        row: '3',
      },
      {
        line: '7',
        key: '100.839.414-95',
        outcome: 'failed',
        status: '422',
        id: '',
        message:
          "Property [customerGroupList] with value [Norte] does not pass validation; customer groups sent: Norte, Sul (`b2bctl api /v1/customer-groups --paginate` lists the store's groups)",
        row: '7',
      },
    ]);
    const documents = sampleDocuments(
      new TextDecoder('windows-1252').decode(readFileSync(join(seedDirectory, 'customers-excel.csv'))),
      ';',
    );
    const stored = (await storedCustomers(sandbox)).map((customer) => customer.document);
    expect(stored.toSorted()).toEqual(
      documents.filter((document) => document !== '20.682.358/0001-59' && document !== '100.839.414-95').toSorted(),
    );

    // UTF-8 with a BOM (so Excel opens it), the input's own ";" and columns, accents intact, plus `row` and `error`.
    const errorsFile = readErrorsCsv(join(folder, errors), ';');
    expect(errorsFile.bom).toBe(true);
    const inputLines = new TextDecoder('windows-1252').decode(readFileSync(join(folder, 'clientes.csv'))).split('\r\n');
    expect(errorsFile.header).toEqual([...(inputLines[0] as string).split(';'), 'row', 'error']);
    expect(errorsFile.rows).toEqual([
      [
        ...(inputLines[2] as string).split(';'),
        '3',
        'Property [address] with value [] does not pass validation; the platform refused the address: check its CEP 99999-999 and number 112',
      ],
      [
        ...(inputLines[6] as string).split(';'),
        '7',
        "Property [customerGroupList] with value [Norte] does not pass validation; customer groups sent: Norte, Sul (`b2bctl api /v1/customer-groups --paginate` lists the store's groups)",
      ],
    ]);
    expect(errorsFile.rows[0]?.[2]).toBe('Distribuidora Magalhães Ltda');

    // The operator fixes the two cells and feeds the errors file back as it is: its `row` and `error` columns are no fields.
    const errorsPath = join(folder, errors);
    writeFileSync(
      errorsPath,
      readFileSync(errorsPath, 'utf8').replace(';99999-999;', ';50030-320;').replace(';Norte|Sul;', ';Nordeste|Sul;'),
    );
    await resetCounts(sandbox);
    const again = await cli(['customer', 'create', errors], folder);
    const base = errors.replace(/\.csv$/, '');
    const againReport = onlyReport(folder, base);
    expect(again.code).toBe(0);
    expectLines(again.stderr, [
      `customer create: validating ${errors}`,
      timed('customer create: 2 records, 2 valid, 0 invalid ({s} s)'),
      'customer create: sending 2 customers, one request each, to POST /v1/customer (concurrency 8)',
      timed('customer create: 2 created; 2 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer create: report: ${againReport}`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 2 });
    expect(byLine(readReport(join(folder, againReport))).map((row) => [row.line, row.key, row.outcome])).toEqual([
      ['2', '20.682.358/0001-59', 'created'],
      ['3', '100.839.414-95', 'created'],
    ]);
    expect(await storedCustomers(sandbox)).toHaveLength(20);
    expect(await storedCustomer(sandbox, '100.839.414-95')).toMatchObject({
      name: 'Fábio Araújo',
      customerGroupList: [groups.nordeste, groups.sul],
    });
    expect(await storedCustomer(sandbox, '20.682.358/0001-59')).toMatchObject({
      name: 'Distribuidora Magalhães Ltda',
      customerRegistrationAddress: { zipcode: '50030-320' },
    });
  });

  it('from a JSON file: the errors file is NDJSON of the original objects plus `error`', async () => {
    const folder = freshWorkDir();
    const records = JSON.parse(readFileSync(join(seedDirectory, 'customers.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    (records[1] as { customerRegistrationAddress: { zipcode: string } }).customerRegistrationAddress.zipcode =
      '99999-999';
    writeFileSync(join(folder, 'customers.json'), JSON.stringify(records, null, 2));
    const result = await cli(['customer', 'create', 'customers.json'], folder);
    expect(result.code).toBe(1);
    const errors = onlyErrorsFile(folder, 'customers');
    expect(errors).toMatch(/\.ndjson$/);
    expect(readFileSync(join(folder, errors), 'utf8')).toBe(
      `${JSON.stringify({ ...records[1], error: 'Property [address] with value [] does not pass validation; the platform refused the address: check its CEP 99999-999 and number 212' })}\n`,
    );
    expect(await storedCustomers(sandbox)).toHaveLength(9);
  });
});

describe('creating customers that already exist', () => {
  it('without --upsert every record fails with the hint (exit 1); with --upsert every one is updated (exit 0)', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const first = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(first.code).toBe(0);
    const original = await storedCustomer(sandbox, '100.007.919-89');

    // Change one customer's name in the file, as an operator re-running an edited export would.
    writeFileSync(
      join(folder, 'customers.csv'),
      readFileSync(join(folder, 'customers.csv'), 'utf8').replace('Maria Brandão,', 'Maria Brandão Lima,'),
    );
    await resetCounts(sandbox);
    const second = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(second.code).toBe(1);
    expectSomeLine(
      second.stderr,
      // Each 400 is followed by the documented question (update with {}) that tells a duplicate document apart.
      timed('customer create: 25 failed; 50 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
    );
    expect(second.stderr.split('\n').at(-2)).toMatch(
      /^error: 25 customers did not go through \(25 failed\); the report customers\.report-\d{8}-\d{6}(-2)?\.csv and the errors file customers\.errors-\d{8}-\d{6}(-2)?\.csv say why\.$/,
    );
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25, 'PUT /v1/customer/:document': 25 });
    expect((await storedCustomer(sandbox, '100.007.919-89')).name).toBe('Maria Brandão');

    await resetCounts(sandbox);
    const third = await cli(['customer', 'create', 'customers.csv', '--upsert'], folder);
    expect(third.code).toBe(0);
    expectSomeLine(
      third.stderr,
      // Each: the create, the stored record read (the file's addresses leave parts out, which are kept), the update.
      timed('customer create: 25 updated; 75 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
    );
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 25, [updateRoute]: 50 });
    expect(await storedCustomers(sandbox)).toHaveLength(25);
    // Upserting sends the registration address again, so only its lastUpdated moves besides the name.
    const upserted = await storedCustomer(sandbox, '100.007.919-89');
    expect(upserted).toEqual({
      ...original,
      name: 'Maria Brandão Lima',
      customerRegistrationAddress: {
        ...original.customerRegistrationAddress,
        lastUpdated: upserted.customerRegistrationAddress.lastUpdated,
      },
    });

    // Three runs, three reports of 25 rows each, however close together they started.
    const { reports, errors } = runFiles(folder, 'customers');
    expect(reports).toHaveLength(3);
    expect(errors).toHaveLength(1);
    const outcomes = reports.map((report) => readReport(join(folder, report)).map((row) => row.outcome));
    expect(outcomes.map((list) => list.length)).toEqual([25, 25, 25]);
    const failedRun = reports.find((report) =>
      readReport(join(folder, report)).every((row) => row.outcome === 'failed'),
    ) as string;
    expect(byLine(readReport(join(folder, failedRun)))[0]).toEqual({
      line: '2',
      key: '100.007.919-89',
      outcome: 'failed',
      status: '400',
      id: '',
      message:
        'Document 100.007.919-89 is already registered in the store (pass --upsert to update existing customers)',
      row: '2',
    });
    expect(outcomes.filter((list) => list.every((outcome) => outcome === 'updated'))).toHaveLength(1);
    expect(outcomes.filter((list) => list.every((outcome) => outcome === 'created'))).toHaveLength(1);
  });

  it('a --resume of an --upsert run updates the customers past its report, without the flag again', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    const document = sampleDocuments(readFileSync(join(folder, 'customers.csv'), 'utf8')).at(-1) as string;
    const renameOnPlatform = async (name: string) => {
      const path = `/v1/customer/${document.replace(/\D/g, '')}`;
      expect((await cli(['api', '-X', 'PUT', path, '-f', `name=${name}`], folder)).code).toBe(0);
    };
    expect((await cli(['customer', 'create', 'customers.csv'], folder)).code).toBe(0);
    const inFile = (await storedCustomer(sandbox, document)).name;
    await renameOnPlatform('Nome Antigo do ERP');
    expect((await cli(['customer', 'create', 'customers.csv', '--upsert'], folder)).code).toBe(0);
    expect((await storedCustomer(sandbox, document)).name).toBe(inFile);
    // As if that run had been killed after its first 20 answers, before reaching the last customer.
    const upsertRun = runFiles(folder, 'customers').reports.find((report) =>
      readReport(join(folder, report)).every((row) => row.outcome === 'updated'),
    ) as string;
    const path = join(folder, upsertRun);
    writeFileSync(path, `${readFileSync(path, 'utf8').split('\r\n').slice(0, 21).join('\r\n')}\r\n`);
    await renameOnPlatform('Nome Antigo do ERP');
    await resetCounts(sandbox);

    const resumed = await cli(['customer', 'create', 'customers.csv', '--resume', upsertRun], folder);
    expect(resumed.code).toBe(0);
    // The five past the report: the create refused (400), the question (an update changing nothing), the update.
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 5, [updateRoute]: 10 });
    expect((await storedCustomer(sandbox, document)).name).toBe(inFile);
  });

  it('--upsert given to the resume of a run without it is refused, naming the flag, and nothing is sent', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    expect((await cli(['customer', 'create', 'customers.csv'], folder)).code).toBe(0);
    const report = runFiles(folder, 'customers').reports[0] as string;
    await resetCounts(sandbox);
    const resumed = await cli(['customer', 'create', 'customers.csv', '--upsert', '--resume', report], folder);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain('it was written with no --upsert, this run gives --upsert true');
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a run record of the coming report name, planted ahead by another user, moves the run to -2 (a user test)', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    // Only the run records, as another local user can plant them in a shared folder for every second ahead.
    const planted: string[] = [];
    for (let second = -2; second <= 30; second++) {
      const name = `customers.report-${stamp(Date.now() + second * 1000)}.meta.json`;
      writeFileSync(join(folder, name), '');
      if (process.geteuid?.() === 0) chownSync(join(folder, name), 65534, 65534);
      planted.push(name);
    }
    const result = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(result.stderr).not.toContain('Cannot write the run record');
    expect(result.code).toBe(0);
    const reportLine = result.stderr.split('\n').find((line) => line.startsWith('customer create: report: ')) as string;
    expect(reportLine).toMatch(timed('customer create: report: customers.report-{stamp}-2.csv'));
    const report = reportLine.slice('customer create: report: '.length);
    expect(readdirSync(folder)).toContain(report.replace(/\.csv$/, '.meta.json'));
    for (const name of planted) expect(readFileSync(join(folder, name), 'utf8')).toBe('');
  });

  it('a run never appends to the report or errors file of an earlier run that started in the same second', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv');
    // Files of "earlier runs" for every second this run may start in.
    const taken: string[] = [];
    for (let second = -2; second <= 30; second++) {
      for (const name of [
        `customers.report-${stamp(Date.now() + second * 1000)}.csv`,
        `customers.errors-${stamp(Date.now() + second * 1000)}.csv`,
      ]) {
        writeFileSync(join(folder, name), 'an earlier run\n');
        taken.push(name);
      }
    }
    writeFileSync(
      join(folder, 'customers.csv'),
      readFileSync(join(seedDirectory, 'customers.csv'), 'utf8').replace('01310-100,11,', '99999-999,11,'),
    );
    const result = await cli(['customer', 'create', 'customers.csv'], folder);
    expect(result.code).toBe(1);
    const reportLine = result.stderr.split('\n').find((line) => line.startsWith('customer create: report: ')) as string;
    const errorsLine = result.stderr.split('\n').find((line) => line.startsWith('customer create: errors: ')) as string;
    expect(reportLine).toMatch(timed('customer create: report: customers.report-{stamp}-2.csv'));
    expect(errorsLine).toMatch(
      timed('customer create: errors: customers.errors-{stamp}-2.csv (1 record to fix and feed back)'),
    );
    const report = reportLine.slice('customer create: report: '.length);
    expect(readReport(join(folder, report))).toHaveLength(25);
    for (const name of taken) expect(readFileSync(join(folder, name), 'utf8')).toBe('an earlier run\n');
  });
});
