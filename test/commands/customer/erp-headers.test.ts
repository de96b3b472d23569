/**
 * A pt-BR ERP's customer export, its headers as the ERP names them (the rows of the real Windows-1252 exports in
 * test/fixtures/real-exports): one run lists every column it would map and every one it cannot, `--write-map`
 * saves the map the next runs take with `--map` (asking about the rest on a terminal, never with --no-input), and
 * the errors file of a mapped run feeds back with the same map.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  clearSandboxCustomers,
  fetchToken,
  repoRoot,
  requestCounts,
  resetCounts,
  startTestSandbox,
} from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const erpHeader =
  'Tipo Pessoa;CPF/CNPJ;Razão Social;Nome Fantasia;Contato;E-mail;Telefone;Senha;Inscrição Estadual;Contribuinte ICMS;CEP;Número;Complemento;Cidade;customerGroupList;ssoConfigId;Data de cadastro;;';
const expectedMap = {
  'Tipo Pessoa': 'documentType',
  'CPF/CNPJ': 'document',
  'Razão Social': 'name',
  'Nome Fantasia': 'tradingName',
  Contato: 'contactName',
  'E-mail': 'username',
  Telefone: 'phone',
  Senha: 'password',
  'Inscrição Estadual': 'stateRegistration',
  'Contribuinte ICMS': 'paysIcms',
  CEP: 'customerRegistrationAddress.zipcode',
  Número: 'customerRegistrationAddress.number',
  Complemento: 'customerRegistrationAddress.complement',
  Cidade: 'customerRegistrationAddress.city',
};

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: await fetchToken(sandbox) };
});
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
  await resetCounts(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

/** A real export with its header line as the ERP names the columns (Windows-1252, `;`, CRLF, as Excel saves it). */
function erpExport(name: 'clientes-corrigido' | 'clientes-digitado'): { folder: string; configDir: string } {
  const folder = temporaryFolder('b2bctl-erp-');
  const bytes = readFileSync(join(repoRoot, 'test', 'fixtures', 'real-exports', `${name}.win1252.csv`));
  const rows = bytes.subarray(bytes.indexOf(0x0a) + 1);
  writeFileSync(join(folder, 'clientes.csv'), Buffer.concat([Buffer.from(`${erpHeader}\r\n`, 'latin1'), rows]));
  return { folder, configDir: join(folder, 'config') };
}

describe('a status sheet with the usual Portuguese headers', () => {
  it.each(['Ativo', 'Situação', 'STATUS'])(
    'its "%s" column reads as active, in the map the run offers; exit 65, nothing sent',
    async (state) => {
      const folder = temporaryFolder('b2bctl-erp-');
      writeFileSync(join(folder, 's.csv'), `CPF/CNPJ;${state}\r\n100.007.919-89;inativo\r\n`);
      const result = await runCommandLine(['customer', 'status', 's.csv'], {
        configDir: join(folder, 'config'),
        cwd: folder,
        env,
      });
      expect(result.code).toBe(65);
      expect(result.stderr.trimEnd().split('\n').slice(1)).toEqual([
        'warning: s.csv:1: column "CPF/CNPJ" reads as document',
        `warning: s.csv:1: column "${state}" reads as active`,
        `error: s.csv:1: 2 columns are named as an ERP names them (listed above); nothing was sent. Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding {"CPF/CNPJ":"document","${state}":"active"}.`,
      ]);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );
});

describe('a status sheet with two columns that could each be active', () => {
  it('the first is read, the other named as its rival and left out (null) in the map offered, which then reads the sheet', async () => {
    const folder = temporaryFolder('b2bctl-erp-');
    writeFileSync(join(folder, 's.csv'), 'CPF/CNPJ;Situação;Ativo\r\n100.007.919-89;inativo;0\r\n');
    const run = (args: string[]) =>
      runCommandLine(['customer', 'status', 's.csv', ...args], { configDir: join(folder, 'config'), cwd: folder, env });
    const refused = await run([]);
    expect(refused.code).toBe(65);
    const map = { 'CPF/CNPJ': 'document', Situação: 'active', Ativo: null };
    expect(refused.stderr.trimEnd().split('\n').slice(1)).toEqual([
      'warning: s.csv:1: column "CPF/CNPJ" reads as document',
      'warning: s.csv:1: column "Situação" reads as active',
      'warning: s.csv:1: column "Ativo" could be active too, but column "Situação" reads as active; the map below leaves "Ativo" out (null): to read it instead, swap the two in the map',
      `error: s.csv:1: 2 columns are named as an ERP names them (listed above); nothing was sent. Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding ${JSON.stringify(map)}.`,
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
    writeFileSync(join(folder, 'm.json'), JSON.stringify(map));
    expect((await run(['--map', 'm.json', '--dry-run'])).code).toBe(0);
  });
});

describe('an export with the ERP’s own headers', () => {
  it('one run names every column it would map and the one it cannot, with the map; exit 65, nothing sent', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const result = await runCommandLine(['customer', 'create', 'clientes.csv'], { configDir, cwd: folder, env });
    expect(result.code).toBe(65);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(1, -1)).toEqual([
      ...Object.entries(expectedMap).map(
        ([header, field]) => `warning: clientes.csv:1: column "${header}" reads as ${field}`,
      ),
      'warning: clientes.csv:1: column "Data de cadastro" matches no field but holds data ("05/03/2024"): map it, or leave it out with --ignore-column',
    ]);
    expect(lines.at(-1)).toBe(
      `error: clientes.csv:1: 14 columns are named as an ERP names them (listed above); nothing was sent. Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding ${JSON.stringify(expectedMap)}.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--write-map saves the map and reads the file with it; the next run takes it with --map', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const checked = await runCommandLine(
      ['customer', 'validate', 'clientes.csv', '--write-map', 'map.json', '--ignore-column', 'data de cadastro'],
      { configDir, cwd: folder, env },
    );
    expect(checked.stderr).toContain('map: saved to map.json; pass --map map.json from now on');
    expect(checked.code).toBe(0);
    // The column left out is saved as null: the next runs with --map leave it out without the flag.
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toEqual({
      ...expectedMap,
      'Data de cadastro': null,
    });
    const created = await runCommandLine(['customer', 'create', 'clientes.csv', '--map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(created.code).toBe(0);
    expect(created.closingLine).toMatch(/: 6 created; exit 0$/);
  });

  it.each([
    ['UTF-16 LE with a BOM (Notepad\'s "Unicode")', (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le')],
    ['UTF-16 BE with a BOM', (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16()],
    ['UTF-8 with a BOM', (text: string) => Buffer.from(`\ufeff${text}`, 'utf8')],
  ])('a --map saved as %s is read as the UTF-8 one: the customers are created', async (_, encode) => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    writeFileSync(
      join(folder, 'map.json'),
      encode(JSON.stringify({ ...expectedMap, 'Data de cadastro': null }, undefined, 2).replaceAll('\n', '\r\n')),
    );
    const created = await runCommandLine(['customer', 'create', 'clientes.csv', '--map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(created.code).toBe(0);
    expect(created.closingLine).toMatch(/: 6 created; exit 0$/);
  });

  it('a --map that is not JSON is refused on one line, its line breaks and NULs written out', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    writeFileSync(
      join(folder, 'map.json'),
      Buffer.from('Mapa:\r\n{\u0000"CEP": "customerRegistrationAddress.zipcode"}'),
    );
    const result = await runCommandLine(['customer', 'create', 'clientes.csv', '--map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(result.code).toBe(65);
    const message = result.stderr.trimEnd().split('\n').at(-1) as string;
    expect(message).toMatch(/^error: map\.json: the --map file is not valid JSON \(.+\)\.$/);
    expect(message).not.toContain('\u0000');
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('off a terminal, --write-map saves the map but a column holding data that no field reads stops the run', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const result = await runCommandLine(['customer', 'create', 'clientes.csv', '--write-map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `error: clientes.csv:2: column 17 (Q) "Data de cadastro" holds "05/03/2024" but no field reads it, so it would not be sent; nothing was sent. Map it with {"Data de cadastro":"FIELD"} in a --map file, or leave it out with --ignore-column 'Data de cadastro'.\n`,
    );
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toEqual(expectedMap);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('on a terminal, --write-map asks about each unmapped column (skip first) and saves the answer', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const tty = { stdin: true, stderr: true };
    const result = await runCommandLine(['customer', 'validate', 'clientes.csv', '--write-map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
      tty,
      answers: ['customerRegistrationAddress.street'],
    });
    // The operator picked a field from the list for the one column nothing matched (an unscripted prompt would fail).
    expect(result.code).toBe(0);
    const saved = JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8')) as Record<string, string>;
    expect(saved).toEqual({ ...expectedMap, 'Data de cadastro': 'customerRegistrationAddress.street' });
  });

  it('on a terminal without --write-map, offers to read the file with the map and save it beside', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const tty = { stdin: true, stderr: true };
    const accepted = await runCommandLine(['customer', 'validate', 'clientes.csv'], {
      configDir,
      cwd: folder,
      env,
      tty,
      answers: ['yes', ''],
    });
    expect(accepted.code).toBe(0);
    // Enter on the column nothing matched takes the pre-selected answer: leave it out, saved as null.
    expect(JSON.parse(readFileSync(join(folder, 'clientes.map.json'), 'utf8'))).toEqual({
      ...expectedMap,
      'Data de cadastro': null,
    });
    const declined = await runCommandLine(['customer', 'create', 'clientes.csv'], {
      configDir,
      cwd: folder,
      env,
      tty,
      answers: ['no'],
    });
    expect(declined.code).toBe(65);
    expect(declined.stderr).toContain('14 columns are named as an ERP names them (listed above); nothing was sent.');
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--no-input never asks: the unmapped column stays out of the map', async () => {
    const { folder, configDir } = erpExport('clientes-corrigido');
    const result = await runCommandLine(
      [
        'customer',
        'validate',
        'clientes.csv',
        '--write-map',
        'map.json',
        '--no-input',
        '--ignore-column',
        'Data de cadastro',
      ],
      { configDir, cwd: folder, env, tty: { stdin: true, stderr: true }, answers: [] },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toEqual({
      ...expectedMap,
      'Data de cadastro': null,
    });
  });

  it('a mapped run prints the feed-back line with its profile, store and --map (not --skip-invalid), and the errors file reads with the same map', async () => {
    const { folder, configDir } = erpExport('clientes-digitado');
    writeFileSync(join(folder, 'map.json'), JSON.stringify({ ...expectedMap, 'Data de cadastro': null }));
    const result = await runCommandLine(['customer', 'create', 'clientes.csv', '--map', 'map.json', '--skip-invalid'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(result.code).toBe(1);
    const errorsFile = readdirSync(folder).find((name) => name.startsWith('clientes.errors-')) as string;
    expect(result.stderr).toContain(
      `customer create: once fixed, feed it back with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create ${errorsFile} --profile default --base-url ${sandbox.url} --map ${join(folder, 'map.json')}\n`,
    );
    // The input's own headers, then b2bctl's row and error columns.
    const errorsHeader = readFileSync(join(folder, errorsFile), 'utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)[0];
    expect(errorsHeader).toBe(`${erpHeader};row;error`);
    const fedBack = await runCommandLine(['customer', 'validate', errorsFile, '--map', 'map.json'], {
      configDir,
      cwd: folder,
      env,
    });
    // Read with the map: no header problem; all seven still invalid (nothing was fixed): both rows of the repeated
    // document are there, for the operator to keep one.
    expect(fedBack.stderr).not.toContain('named as an ERP names');
    expect(fedBack.stderr).toMatch(/: 7 records, 0 valid, 7 invalid/);
  });
});
