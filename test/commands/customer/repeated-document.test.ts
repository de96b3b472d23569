/**
 * Two rows for one customer in one file (a corrected row appended at the bottom of the sheet): with --skip-invalid
 * neither is sent, both are reported naming the other and go to the errors file, for the operator to choose; without
 * it the run is refused naming both. The file's order never decides which instruction is applied.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, type RunResult, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  createHeader,
  createRoute,
  spareCpfs,
  statusRoute,
  storedCustomer,
  updateRoute,
} from '../../support/customers.js';
import { expectLines, onlyErrorsFile, onlyReport, readErrorsCsv, readReport, timed } from '../../support/run-files.js';
import { repoRoot, requestCounts, resetCounts } from '../../support/sandbox.js';
import { ndjsonOf } from '../../support/ndjson.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

function cli(args: readonly string[], cwd: string): Promise<RunResult> {
  return runCommandLine(args, { configDir, cwd });
}

const [ana, dora, eva] = spareCpfs;

/** Ana, Dora and Eva registered (and active), the sandbox's counts cleared: a folder to run in. */
async function threeCustomers(): Promise<string> {
  const folder = freshWorkDir();
  const rows = [ana, dora, eva].map(
    (document, index) =>
      `cpf,${document},Cliente ${index},c${index}@example.com,11987654321,Senha#1,01310-100,1${index}`,
  );
  writeFileSync(join(folder, 'novos.csv'), [createHeader, ...rows, ''].join('\n'));
  expect((await cli(['customer', 'create', 'novos.csv'], folder)).code).toBe(0);
  await resetCounts(sandbox);
  return folder;
}

const repeated = (document: string, line: number) =>
  `Property [document] with value [${document}] does not pass validation (the same document is also on line ${line} of this file)`;

describe('customer status --skip-invalid with two rows for one customer', () => {
  it('sends neither (the stale row above the corrected one is not applied), reports both naming the other, and puts both in the errors file', async () => {
    const folder = await threeCustomers();
    writeFileSync(
      join(folder, 'estados.csv'),
      `document;active\r\n${ana};inativo\r\n${dora};bloqueado\r\n${eva};liberado\r\n${dora};ativo\r\n`,
    );
    const result = await cli(['customer', 'status', 'estados.csv', '--skip-invalid'], folder);
    expect(result.code).toBe(1);
    const report = onlyReport(folder, 'estados');
    const errors = onlyErrorsFile(folder, 'estados');
    expectLines(result.stderr, [
      'customer status: validating estados.csv',
      `estados.csv:5: ${repeated(dora, 3)}`,
      `estados.csv:3: ${repeated(dora, 5)}`,
      timed('customer status: 4 records, 2 valid, 2 invalid ({s} s)'),
      'customer status: sending 2 customers, one request each, to the status route (concurrency 8)',
      timed('customer status: 2 updated, 2 invalid; 2 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      `customer status: report: ${report}`,
      `customer status: errors: ${errors} (2 records to fix and feed back)`,
      `customer status: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer status ${errors} --profile default`,
      `error: 2 customers did not go through (2 invalid); the report ${report} and the errors file ${errors} say why.`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({ [statusRoute]: 2 });
    expect((await storedCustomer(sandbox, dora)).active).toBe(true);
    expect((await storedCustomer(sandbox, ana)).active).toBe(false);
    const rows = readReport(join(folder, report)).toSorted((a, b) => Number(a.line) - Number(b.line));
    expect(rows.map((row) => [row.line, row.key, row.outcome, row.message])).toEqual([
      ['2', ana, 'updated', 'inactive'],
      ['3', dora, 'invalid', repeated(dora, 5)],
      ['4', eva, 'updated', 'active'],
      ['5', dora, 'invalid', repeated(dora, 3)],
    ]);
    const errorsFile = readErrorsCsv(join(folder, errors), ';');
    expect(errorsFile.header).toEqual(['document', 'active', 'row', 'error']);
    expect(errorsFile.rows).toEqual([
      [dora, 'bloqueado', '3', repeated(dora, 5)],
      [dora, 'ativo', '5', repeated(dora, 3)],
    ]);

    // The operator deletes the stale row and feeds the errors file back: the row kept is the one applied.
    const [header, , kept] = readFileSync(join(folder, errors), 'utf8').split(/\r?\n/);
    writeFileSync(join(folder, 'corrigido.csv'), `${header}\r\n${kept}\r\n`);
    await resetCounts(sandbox);
    expect((await cli(['customer', 'status', 'corrigido.csv'], folder)).code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [statusRoute]: 1 });
    expect((await storedCustomer(sandbox, dora)).active).toBe(true);
  });
});

describe('customer update with two rows for one customer', () => {
  it('without --skip-invalid: exit 65 naming both lines, nothing sent', async () => {
    const folder = await threeCustomers();
    writeFileSync(
      join(folder, 'fones.csv'),
      `document,phone\n${ana},11911112222\n${dora},11933334444\n${ana},11955556666\n`,
    );
    const result = await cli(['customer', 'update', 'fones.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer update: validating fones.csv',
      `fones.csv:4: ${repeated(ana, 2)}`,
      `fones.csv:2: ${repeated(ana, 4)}`,
      timed('customer update: 3 records, 1 valid, 2 invalid ({s} s)'),
      'error: 2 records of fones.csv are invalid (listed above); nothing was sent. Fix them, or pass --skip-invalid to send the rest.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('with --skip-invalid: only the customer named once is updated', async () => {
    const folder = await threeCustomers();
    writeFileSync(
      join(folder, 'fones.csv'),
      `document,phone\n${ana},11911112222\n${dora},11933334444\n${ana},11955556666\n`,
    );
    const result = await cli(['customer', 'update', 'fones.csv', '--skip-invalid'], folder);
    expect(result.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 1 });
    expect((await storedCustomer(sandbox, ana)).phone).toBe('(11) 98765-4321');
    expect((await storedCustomer(sandbox, dora)).phone).toBe('(11) 93333-4444');
    const errorsFile = readErrorsCsv(join(folder, onlyErrorsFile(folder, 'fones')));
    expect(errorsFile.rows).toEqual([
      [ana, '11911112222', '2', repeated(ana, 4)],
      [ana, '11955556666', '4', repeated(ana, 2)],
    ]);
  });
});

/** A create row of Ana's with this document and e-mail. */
const anaRow = (document: string, email: string) => `cpf,${document},Ana,${email},11987654321,Senha#1,01310-100,10`;

describe('customer create with one document written two ways', () => {
  it('quotes each line as the document it holds, never as the other line wrote it, and sends nothing', async () => {
    // Line 2 quoted line 3's `660 487 647 07`, a value it does not hold (a fresh user test).
    const folder = freshWorkDir();
    writeFileSync(
      join(folder, 'dup.csv'),
      [createHeader, anaRow('66048764707', 'a@example.com'), anaRow('660 487 647 07', 'b@example.com'), ''].join('\n'),
    );
    await resetCounts(sandbox);
    const result = await cli(['customer', 'create', 'dup.csv'], folder);
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'customer create: validating dup.csv',
      `dup.csv:3: Property [document] with value [660 487 647 07] does not pass validation (the same document is also on line 2 of this file)`,
      `dup.csv:2: ${repeated('66048764707', 3)}`,
      timed('customer create: 2 records, 0 valid, 2 invalid ({s} s)'),
      'error: Every record of dup.csv is invalid (listed above); nothing was sent.',
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/** Three rows of one customer's document as people type it, the first too (a tester's file). */
const threeRowsOfOneDocument = [
  createHeader,
  anaRow('529.982.247-25', 'a@example.com'),
  anaRow('529.982.247-25', 'b@example.com'),
  anaRow(' 529 982 247 25 ', 'c@example.com'),
  '',
].join('\n');

describe('a document repeated on three rows, the first written with its dots and dash', () => {
  // Line 2's problem is known once the file is read: it came last and quoted `52998224725`, a text the file does not hold.
  const firstRow =
    'Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 3 and on line 4 of this file)';

  it('customer validate quotes every row as the file writes it, line 2 too, and exits 65', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'd3.csv'), threeRowsOfOneDocument);
    const result = await cli(['customer', 'validate', 'd3.csv'], folder);
    expect(result.code).toBe(65);
    expect(ndjsonOf(result.stdout)).toEqual([
      { file: 'd3.csv', line: 3, field: 'document', value: '529.982.247-25', message: repeated('529.982.247-25', 2) },
      {
        file: 'd3.csv',
        line: 4,
        field: 'document',
        value: ' 529 982 247 25 ',
        message: repeated(' 529 982 247 25 ', 2),
      },
      { file: 'd3.csv', line: 2, field: 'document', value: '529.982.247-25', message: firstRow },
    ]);
  });

  it('customer create --skip-invalid sends none of them, and the errors file quotes each row as it holds it', async () => {
    const folder = freshWorkDir();
    writeFileSync(
      join(folder, 'd3.csv'),
      `${threeRowsOfOneDocument}${anaRow(dora!, 'd@example.com').replace('Ana', 'Dora')}\n`,
    );
    await resetCounts(sandbox);
    const result = await cli(['customer', 'create', 'd3.csv', '--skip-invalid'], folder);
    expect(result.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 1 });
    const errorsFile = readErrorsCsv(join(folder, onlyErrorsFile(folder, 'd3')));
    expect(errorsFile.rows.map((row) => [row[1], row.at(-2), row.at(-1)])).toEqual([
      ['529.982.247-25', '2', firstRow],
      ['529.982.247-25', '3', repeated('529.982.247-25', 2)],
      [' 529 982 247 25 ', '4', repeated(' 529 982 247 25 ', 2)],
    ]);
  });
});

describe('the real Windows-1252 export: line 6 writes 529.982.247-25, line 10 the same document in digits', () => {
  const realExport = join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-digitado.win1252.csv');
  const line6 =
    'Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 10 (row 9) of this file)';
  const line10 =
    'Property [document] with value [52998224725] does not pass validation (the same document is also on line 6 (row 5) of this file)';

  it('customer validate quotes each line as it writes the document', async () => {
    const folder = freshWorkDir();
    copyFileSync(realExport, join(folder, 'clientes.csv'));
    const result = await cli(['customer', 'validate', 'clientes.csv', '--ignore-column', 'Data de cadastro'], folder);
    expect(result.code).toBe(65);
    const repeats = ndjsonOf(result.stdout).filter((problem) =>
      (problem as { message: string }).message.includes('the same document'),
    );
    expect(repeats).toEqual([
      { file: 'clientes.csv', line: 10, row: 9, field: 'document', value: '52998224725', message: line10 },
      { file: 'clientes.csv', line: 6, row: 5, field: 'document', value: '529.982.247-25', message: line6 },
    ]);
  });

  it("customer create --skip-invalid: the errors file's error cell quotes the document its row holds", async () => {
    const folder = freshWorkDir();
    copyFileSync(realExport, join(folder, 'clientes.csv'));
    await resetCounts(sandbox);
    const result = await cli(
      ['customer', 'create', 'clientes.csv', '--ignore-column', 'Data de cadastro', '--skip-invalid'],
      folder,
    );
    expect(result.code).toBe(1);
    const errorsFile = readErrorsCsv(join(folder, onlyErrorsFile(folder, 'clientes')), ';');
    const repeats = errorsFile.rows.filter((row) => row.at(-1)!.includes('the same document'));
    expect(repeats.map((row) => [row[1], row.at(-2), row.at(-1)])).toEqual([
      ['529.982.247-25', '5', line6],
      ['52998224725', '9', line10],
    ]);
  });
});
