/**
 * The real customer workbook created as it is (test/fixtures/libreoffice/README.md): in one run, storing exactly
 * what its own CSV export stores, phones typed as numbers included.
 */
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { maskClock } from '../../support/run-files.js';
import { clearSandboxCustomers, repoRoot, requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** `customer create NAME` of the fixture `source` copied as NAME into a fresh folder; `flags` after it. */
async function create(
  source: string,
  name: string,
  flags: readonly string[] = ['--ignore-column', 'Data de cadastro'],
) {
  const dir = freshWorkDir();
  copyFileSync(join(repoRoot, 'test', 'fixtures', source), join(dir, name));
  return runCommandLine(['customer', 'create', name, ...flags], {
    configDir: freshConfigDir(),
    cwd: dir,
    env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
  });
}

/** A stored customer without what the store assigns (its id, its times). */
function asTyped(customer: object): unknown {
  const assigned = new Set(['id', 'dateCreated', 'lastUpdated']);
  return JSON.parse(JSON.stringify(customer), (key, value: unknown) => (assigned.has(key) ? undefined : value));
}

describe('customer create clientes.xlsx', () => {
  it('stores what the CSV export of the same workbook stores', async () => {
    const fromCsv = await create('real-exports/clientes-corrigido.win1252.csv', 'clientes.csv');
    expect(fromCsv.code).toBe(0);
    const csvCustomers = await storedCustomers(sandbox);
    await clearSandboxCustomers(sandbox);

    const fromWorkbook = await create('libreoffice/clientes-corrigido.xlsx', 'clientes.xlsx');
    expect(maskClock(fromWorkbook.stderr)).toContain('customer create: 6 records, 6 valid, 0 invalid (T s)');
    expect(fromWorkbook.code).toBe(0);
    const workbookCustomers = await storedCustomers(sandbox);
    expect(workbookCustomers).toHaveLength(6);
    expect(workbookCustomers.map(asTyped)).toEqual(csvCustomers.map(asTyped));
    // Typed as numbers in the workbook (cells G5 to G7), stored as the digits typed.
    expect(workbookCustomers.map((customer) => customer.phone)).toContain('(21) 2555-1234');
  });
});

describe('a text cell the spreadsheet took for a date', () => {
  it('a complement typed 1/2 (now the date 2026-02-01) is refused, naming the cell; nothing is sent', async () => {
    const dir = freshWorkDir();
    copyFileSync(
      join(repoRoot, 'test', 'fixtures', 'libreoffice', 'clientes-complemento.xlsx'),
      join(dir, 'clientes.xlsx'),
    );
    await clearSandboxCustomers(sandbox);
    const result = await runCommandLine(['customer', 'create', 'clientes.xlsx'], {
      configDir: freshConfigDir(),
      cwd: dir,
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(
      /clientes\.xlsx:2: \S+!I2 \(customerRegistrationAddress\.complement\): 2026-02-01: the cell is a date \(the spreadsheet read what was typed, such as 1\/2, as one\), so the text typed is lost; format the column as Text and type the value again/,
    );
    expect(await storedCustomers(sandbox)).toEqual([]);
  });

  it('an address number typed 10:30 in an .ods (now a time cell) is refused as the date it became; nothing is sent', async () => {
    await clearSandboxCustomers(sandbox);
    const result = await create('libreoffice/clientes-hora.ods', 'clientes.ods', []);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain('(tradingName): 12:30:00: the cell is a date');
    expect(result.stderr).toContain('(customerRegistrationAddress.number): 10:30:00: the cell is a date');
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});

describe('a number cell with a fraction in a text column', () => {
  it('an address number typed 12,5 (stored 12.5) is refused, naming the cell, not sent as "12.5"', async () => {
    await clearSandboxCustomers(sandbox);
    const result = await create('libreoffice/clientes-fracao.xlsx', 'clientes.xlsx', []);
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(
      /\nclientes\.xlsx:2: \S+!H2 \(customerRegistrationAddress\.number\): 12\.5: the cell is a number with a fraction \(12,5 on a pt-BR screen\), which an address number does not hold as typed; format the column as Text and type the value again\n/,
    );
    expect(await storedCustomers(sandbox)).toEqual([]);
  });
});

describe('a number cell of more than 15 digits in a text column', () => {
  // Calc stores a typed number to 15 digits: 12345678901234567 is 12345678901234600, digits never typed.
  it.each(['xlsx', 'ods'])(
    'is refused in any text column of an .%s, naming the cell; only the good row would be sent, and nothing is',
    async (format) => {
      await clearSandboxCustomers(sandbox);
      const result = await create(`libreoffice/clientes-numero-longo.${format}`, `clientes.${format}`, []);
      expect(result.code).toBe(65);
      const reason =
        'the cell is a number of more than 15 digits, so the digits past the 15th are lost (the sheet shows it in scientific notation); format the column as Text and type the value again';
      // The .xlsx holds 12345678901234600, the .ods 1.23456789012346E+016: both the digits the sheet kept.
      const numbers =
        format === 'xlsx' ? ['12345678901234600', '1234567890123460'] : ['12345678901234600', '1234567890123456'];
      expect(result.stderr).toContain(
        `clientes.${format}:2: Clientes!H2 (customerRegistrationAddress.number): ${numbers[0]}: ${reason}`,
      );
      expect(result.stderr).toContain(`clientes.${format}:3: Clientes!J3 (tradingName): ${numbers[0]}: ${reason}`);
      expect(result.stderr).toContain(`clientes.${format}:4: Clientes!K4 (contactName): ${numbers[1]}: ${reason}`);
      expect(result.stderr).toContain(`3 invalid`);
      expect(await storedCustomers(sandbox)).toEqual([]);
    },
  );
});

describe('money and yes/no cells in text columns, refused as dates are; a percentage sent as shown', () => {
  it.each(['xlsx', 'ods'])(
    'R$ 1.500,50 in a complement and VERDADEIRO in a trading name (.%s): both refused naming the cell, the 10 percent row created',
    async (extension) => {
      await clearSandboxCustomers(sandbox);
      const result = await create(`libreoffice/clientes-moeda-sim.${extension}`, `clientes.${extension}`, [
        '--skip-invalid',
      ]);
      expect(result.stderr).toContain(
        `clientes.${extension}:2: 'clientes-moeda-sim.source'!I2 (customerRegistrationAddress.complement): 1500.5: the cell is an amount of money (shown such as R$ 1.500,50), not the text typed; format the column as Text and type the value again`,
      );
      expect(result.stderr).toContain(
        `clientes.${extension}:3: 'clientes-moeda-sim.source'!J3 (tradingName): TRUE: the cell is a yes/no (TRUE or FALSE), not the text typed; format the column as Text and type the value again`,
      );
      // Neither "1500.5" nor "true" was sent; the percentage went as the sheet shows it.
      const stored = await storedCustomers(sandbox);
      expect(stored.map((customer) => customer.name)).toEqual(['Ana Dez']);
      expect(JSON.stringify(stored)).toContain('"complement":"10%"');
    },
  );
});

describe('a plain number cell with a fraction in a text column', () => {
  // Typed 1500,5 and 12,75 on a pt-BR screen, stored as the numbers 1500.5 and 12.75: "1500.5" was sent, a form
  // neither typed nor shown (a user test). Whole numbers (an address number and a complement 120, phones) stay as they are.
  it.each(['xlsx', 'ods'])(
    'a complement 1500,5 and a trading name 12,75 (.%s) are refused naming the cell; the row of whole numbers is created as typed',
    async (extension) => {
      await clearSandboxCustomers(sandbox);
      const dir = freshWorkDir();
      copyFileSync(
        join(repoRoot, 'test', 'fixtures', 'libreoffice', `clientes-decimal.${extension}`),
        join(dir, `clientes.${extension}`),
      );
      const result = await runCommandLine(['customer', 'create', `clientes.${extension}`, '--skip-invalid'], {
        configDir: freshConfigDir(),
        cwd: dir,
        env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `clientes.${extension}:2: 'clientes-decimal.source'!I2 (customerRegistrationAddress.complement): 1500.5: the cell is a number with a fraction (1500,5 on a pt-BR screen, 1500.5 on an English one), not the text typed; format the column as Text and type the value again`,
      );
      expect(result.stderr).toContain(
        `clientes.${extension}:3: 'clientes-decimal.source'!J3 (tradingName): 12.75: the cell is a number with a fraction (12,75 on a pt-BR screen, 12.75 on an English one), not the text typed; format the column as Text and type the value again`,
      );
      // Only the whole-number row was sent: neither "1500.5" nor "12.75" reached the platform.
      const stored = await storedCustomers(sandbox);
      expect(stored.map((customer) => customer.name)).toEqual(['Ana Inteiro']);
      expect(stored[0]?.customerRegistrationAddress).toMatchObject({ number: '120', complement: '120' });
      expect(stored[0]?.phone).toBe('(11) 98765-4323');
      // The errors file marks both cells, so fed back unchanged they are refused until typed again.
      const errorsName = readdirSync(dir).find((name) => /^clientes\.errors-.*\.csv$/.test(name)) as string;
      const errors = readFileSync(join(dir, errorsName), 'utf8');
      expect(errors).toContain(',#RETYPE! 1500.5,');
      expect(errors).toContain(',#RETYPE! 12.75,');
    },
  );
});

describe("a workbook's errors file fed back", () => {
  it('marks a cell whose value the spreadsheet lost: refused until typed again, then sent as typed', async () => {
    const dir = freshWorkDir();
    copyFileSync(
      join(repoRoot, 'test', 'fixtures', 'libreoffice', 'clientes-complemento.xlsx'),
      join(dir, 'clientes.xlsx'),
    );
    await clearSandboxCustomers(sandbox);
    const run = (args: string[]) =>
      runCommandLine(['customer', 'create', ...args], {
        configDir: freshConfigDir(),
        cwd: dir,
        env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
      });
    const first = await run(['clientes.xlsx', '--skip-invalid']);
    // The run on the workbook quotes the cell as the sheet shows it, once: the mark is the errors file's alone.
    expect(first.stderr).not.toContain('#RETYPE!');
    expect(first.stderr.match(/customerRegistrationAddress\.complement/g)).toHaveLength(1);
    const created = (await storedCustomers(sandbox)).length;
    const errorsName = readdirSync(dir).find((name) => /^clientes\.errors-.*\.csv$/.test(name)) as string;
    expect(first.stderr).toContain(errorsName);
    const errors = readFileSync(join(dir, errorsName), 'utf8');
    expect(errors).toContain(',#RETYPE! 2026-02-01,');

    // Fed back as it is (the operator fixed other rows, not this one): refused, nothing sent.
    const unchanged = await run([errorsName]);
    expect(unchanged.code).toBe(65);
    expect(unchanged.stderr).toContain(
      'field "customerRegistrationAddress.complement" holds #RETYPE! 2026-02-01: the run that wrote this errors file could not trust that value (the error column says why); type the value in its place, then feed the file back',
    );
    expect(await storedCustomers(sandbox)).toHaveLength(created);

    // Typed again: sent as typed.
    writeFileSync(join(dir, errorsName), errors.replace('#RETYPE! 2026-02-01', '1/2'));
    const retyped = await run([errorsName]);
    expect(retyped.code).toBe(0);
    const customers = await storedCustomers(sandbox);
    expect(customers).toHaveLength(created + 1);
    expect(customers.map((customer) => customer.customerRegistrationAddress?.complement)).toContain('1/2');
  });
});

describe('a code cell the spreadsheet read as a number', () => {
  it('is said once, in the reader words, quoting the cell as the sheet shows it', async () => {
    const dir = freshWorkDir();
    copyFileSync(
      join(repoRoot, 'test', 'fixtures', 'libreoffice', 'clientes-documento-numero.xlsx'),
      join(dir, 'clientes.xlsx'),
    );
    const result = await runCommandLine(['customer', 'validate', 'clientes.xlsx', '-o', 'ndjson'], {
      configDir: freshConfigDir(),
      cwd: dir,
    });
    expect(result.code).toBe(65);
    const problems = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { field: string; message: string });
    // The CPF rules' "a CPF has 11 digits" about the number read from it was a second line, quoting the errors
    // file's mark (#RETYPE!) in a run on the workbook itself.
    expect(problems).toEqual([
      expect.objectContaining({
        field: 'document',
        message: expect.stringMatching(
          /!B2 \(document\): 1234567890: the cell is a number, so leading zeros and digits past the 15th are lost/,
        ),
      }),
    ]);
    expect(result.stdout + result.stderr).not.toContain('#RETYPE!');
  });
});

describe('a workbook whose first sheet is a summary and whose customers are on the second (LibreOffice saved)', () => {
  it.each(['clientes-abas.xlsx', 'clientes-abas.ods'])(
    '%s: the header error names the sheet that has the columns and the --sheet that reads it; nothing is sent',
    async (name) => {
      const dir = freshWorkDir();
      copyFileSync(join(repoRoot, 'test', 'fixtures', 'libreoffice', name), join(dir, name));
      const run = (...extra: string[]) =>
        runCommandLine(['customer', 'create', name, ...extra], {
          configDir: freshConfigDir(),
          cwd: dir,
          env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
        });
      const refused = await run();
      expect(refused.code).toBe(65);
      expect(refused.stderr.trimEnd().split('\n').at(-1)).toBe(
        `error: ${name}:1: no "documentType", "document", "username", "phone" or "password" column (the columns are Cadastro de clientes - março). Name the columns "documentType", "document", "username", "phone", "password", or map yours to them with --map. Sheet "Clientes" looks like the data (it has those columns): add --sheet "Clientes".`,
      );
      expect(await requestCounts(sandbox)).toEqual({});
      expect((await run('--sheet', 'Clientes')).code).toBe(0);
      expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual(['Ana Souza', 'Bruno Lima']);
    },
  );
});
