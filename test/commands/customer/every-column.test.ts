/**
 * Every column accounted for: a column is read by a field (by its name in any case, by an ERP alias, or by --map),
 * or left out on purpose (--ignore-column, `null` in the map); data under a header no field reads, or under an
 * empty header, stops the run before anything is sent. Inputs as users have them: a pt-BR export saved by
 * LibreOffice (test/fixtures/libreoffice/README.md), a stock sheet with an upper-case `SKU` header.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { clearSandboxCustomers, repoRoot, requestCounts, resetCounts } from '../../support/sandbox.js';
import { stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
  await resetCounts(sandbox);
});

/** A working folder with the named LibreOffice fixtures (and other files), and a runner of the CLI inside it. */
function workspace(fixtures: string[], files: Record<string, string | Buffer> = {}) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  for (const name of fixtures) copyFileSync(join(repoRoot, 'test', 'fixtures', 'libreoffice', name), join(dir, name));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return {
    dir,
    run: (args: string[], options: { tty?: boolean; answers?: string[] } = {}) =>
      runCommandLine(args, {
        configDir,
        cwd: dir,
        env,
        ...(options.tty ? { tty: { stdin: true, stderr: true } } : {}),
        answers: options.answers,
      }),
  };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('a LibreOffice pt-BR export with "Razão Social / Nome" and "Contribuinte ICMS"', () => {
  const file = 'clientes-erp-nomes.win1252.csv';

  it('the same sheet made UTF-8 twice by LibreOffice (opened as Windows-1252, saved as UTF-8) is refused, nothing sent', async () => {
    const twice = 'clientes-erp-nomes.utf8-twice.csv';
    const { run } = workspace([twice]);
    const result = await run(['customer', 'create', twice, '--write-map', 'm.json']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      `error: ${twice}:1: "RazÃ£o" is UTF-8 text converted to UTF-8 a second time (it was "Razão"); nothing was sent. Export the file from the ERP again as "CSV UTF-8", or convert it back once (iconv -f utf-8 -t windows-1252).`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it.each(['xlsx', 'ods'])(
    'the doubled sheet saved by LibreOffice as .%s: each doubled cell a problem of its record, nothing sent',
    async (extension) => {
      const twice = `clientes-erp-nomes.utf8-twice.${extension}`;
      // The map the user writes for the doubled headers: the cells are what is checked.
      const map = {
        'Tipo Pessoa': 'documentType',
        'CPF/CNPJ': 'document',
        'RazÃ£o Social / Nome': 'name',
        'Nome Fantasia': 'tradingName',
        'E-mail': 'username',
        Telefone: 'phone',
        Senha: 'password',
        'Contribuinte ICMS': 'paysIcms',
        CEP: 'customerRegistrationAddress.zipcode',
        NÃºmero: 'customerRegistrationAddress.number',
        Complemento: 'customerRegistrationAddress.complement',
      };
      const { run } = workspace([twice], { 'm.json': JSON.stringify(map) });
      const result = await run(['customer', 'create', twice, '--map', 'm.json']);
      expect(result.code).toBe(65);
      expect(result.stderr).toContain(
        `${twice}:2: field "name" holds "AÃ§Ãºcar", UTF-8 text converted to UTF-8 a second time (it was "Açúcar"): export the file again from the ERP (as UTF-8 once), or retype the value`,
      );
      expect(result.stderr).toContain(`${twice}:5: field "name" holds "JosÃ©"`);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it('--write-map saves a map with name and paysIcms, and the customers are created with both', async () => {
    const { dir, run } = workspace([file]);
    const result = await run(['customer', 'create', file, '--write-map', 'm.json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('map: column "Razão Social / Nome" reads as name\n');
    expect(result.stderr).toContain('map: column "Contribuinte ICMS" reads as paysIcms\n');
    const map = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as Record<string, string>;
    expect(map['Razão Social / Nome']).toBe('name');
    expect(map['Contribuinte ICMS']).toBe('paysIcms');
    // Sim, Não, S and 0 as the sheet holds them.
    const stored = (await storedCustomers(sandbox)).map(({ document, name, paysIcms }) => ({
      document,
      name,
      paysIcms,
    }));
    expect(stored).toEqual([
      { document: '11.222.333/0001-81', name: 'Açúcar & Café São João Ltda', paysIcms: true },
      { document: '123.456.789-09', name: 'Maria da Conceição', paysIcms: false },
      { document: '00.360.305/0001-04', name: 'Distribuidora Ribeirão Preto Ltda', paysIcms: true },
      { document: '529.982.247-25', name: 'José Araújo', paysIcms: false },
    ]);
  });

  it('headers written other ways read the same: "Nome/Razão Social", "Razao social", "Contribuinte do ICMS"', async () => {
    const text = readFileSync(join(repoRoot, 'test', 'fixtures', 'libreoffice', file), 'latin1')
      .replace('Razão Social / Nome', 'Nome/Razão Social')
      .replace('Contribuinte ICMS', 'contribuinte do icms');
    const { dir, run } = workspace([], { 'clientes.csv': Buffer.from(text, 'latin1') });
    const result = await run(['customer', 'validate', 'clientes.csv', '--write-map', 'm.json']);
    expect(result.code).toBe(0);
    const map = JSON.parse(readFileSync(join(dir, 'm.json'), 'utf8')) as Record<string, string>;
    expect(map['Nome/Razão Social']).toBe('name');
    expect(map['contribuinte do icms']).toBe('paysIcms');
  });
});

describe('data that no field would read stops the run', () => {
  const header =
    'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number';
  const row = 'cpf;123.456.789-09;Maria da Conceição;maria@email.com.br;11987654321;Senha#2001;01310-100;100';

  it('data under an empty header: exit 65 naming the column and its value, nothing sent', async () => {
    const { run } = workspace([], {
      'clientes.csv': `${header};;\r\n${row};;\r\n${row.replace('maria@', 'ana@').replace('123.456.789-09', '529.982.247-25')};Bloco B apto 12;\r\n`,
    });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      'error: clientes.csv:3: column 9 (I) has no header but holds "Bloco B apto 12"; nothing was sent. Give the column a header (a field name, or one --map reads), or delete it.',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it.each(['xlsx', 'ods'])(
    'a .%s whose number header is merged over two columns, the complement typed under its second: exit 65 naming the cell, nothing sent',
    async (extension) => {
      // The typist's "Número / Compl." header: `Apto 5` in I2, right of the header's last cell, was dropped, exit 0.
      const file = `clientes-numero-mesclado.${extension}`;
      const { run } = workspace([file]);
      const result = await run(['customer', 'create', file]);
      expect(result.code).toBe(65);
      expect(lastLine(result.stderr)).toBe(
        `error: ${file}:2: cell C!I2 holds "Apto 5" but column I has no header (the header ends at column H; a header merged over several columns names only the first); nothing was sent. Give the column a header (a field name, or one --map reads), or clear the cell.`,
      );
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it('a stock sheet with a price right of its last header cell: validate exits 65 naming the cell', async () => {
    const file = 'estoque-coluna-sem-cabecalho.xlsx';
    const { run } = workspace([file]);
    const result = await run(['stock', 'validate', file]);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      `error: ${file}:2: cell E!C2 holds "99,90" but column C has no header (the header ends at column B; a header merged over several columns names only the first). Give the column a header (a field name, or one --map reads), or clear the cell.`,
    );
  });

  it('off a terminal, columns no field reads that hold data: exit 65, each with a value and the fix; nothing sent', async () => {
    const { run } = workspace([], {
      'clientes.csv': `${header};Observações;Data de cadastro;Vendedor\r\n${row};cliente antigo;05/03/2024;\r\n`,
    });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      `error: clientes.csv:2: 2 columns hold data no field reads, so it would not be sent; nothing was sent. Map each in a --map file, or leave it out with --ignore-column: column 9 (I) "Observações" holds "cliente antigo" on line 2 ({"Observações":"FIELD"}, or --ignore-column Observações); column 10 (J) "Data de cadastro" holds "05/03/2024" on line 2 ({"Data de cadastro":"FIELD"}, or --ignore-column 'Data de cadastro').`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    // The empty column ("Vendedor") needs nothing; the two that hold data are left out by name, in any case.
    const ignored = await run([
      'customer',
      'create',
      'clientes.csv',
      '--ignore-column',
      'observacoes',
      '--ignore-column',
      'Data de cadastro',
    ]);
    expect(ignored.code).toBe(0);
    expect((await storedCustomers(sandbox)).map(({ document, name }) => ({ document, name }))).toEqual([
      { document: '123.456.789-09', name: 'Maria da Conceição' },
    ]);
  });

  it('validate, which never sends, refuses the same column without "nothing was sent"; a sending command keeps it', async () => {
    const { run } = workspace([], { 'clientes.csv': `${header};Observações\r\n${row};cliente antigo\r\n` });
    const refusal =
      'error: clientes.csv:2: column 9 (I) "Observações" holds "cliente antigo" but no field reads it, so it would not be sent; nothing was sent. Map it with {"Observações":"FIELD"} in a --map file, or leave it out with --ignore-column Observações.';
    const validated = await run(['customer', 'validate', 'clientes.csv']);
    expect(validated.code).toBe(65);
    expect(lastLine(validated.stderr)).toBe(refusal.replace('; nothing was sent', ''));
    const dryRun = await run(['customer', 'create', 'clientes.csv', '--dry-run']);
    expect(dryRun.code).toBe(65);
    expect(lastLine(dryRun.stderr)).toBe(refusal);
    const created = await run(['customer', 'create', 'clientes.csv']);
    expect(created.code).toBe(65);
    expect(lastLine(created.stderr)).toBe(refusal);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a --map entry of null leaves a column out; a map entry to a field reads it', async () => {
    const { run } = workspace([], {
      'clientes.csv': `${header};Obs;Fantasia\r\n${row};cliente antigo;Loja da Maria\r\n`,
      'm.json': JSON.stringify({ Obs: null, Fantasia: 'tradingName' }),
    });
    const result = await run(['customer', 'create', 'clientes.csv', '--map', 'm.json']);
    expect(result.code).toBe(0);
    const [customer] = await storedCustomers(sandbox);
    expect(customer?.tradingName).toBe('Loja da Maria');
    expect(JSON.stringify(customer)).not.toContain('cliente antigo');
  });

  it('on a terminal, a column that holds data is asked about, and the answer read and saved', async () => {
    const { dir, run } = workspace([], { 'clientes.csv': `${header};Apelido\r\n${row};Loja da Maria\r\n` });
    const result = await run(['customer', 'create', 'clientes.csv'], { tty: true, answers: ['yes', 'tradingName'] });
    expect(result.prompts.map((prompt) => prompt.message)).toEqual([
      'Read the file with this map, and save it as clientes.map.json for --map?',
      'Column "Apelido" (holds "Loja da Maria") is which field?',
    ]);
    expect(result.prompts[0]?.choices).toEqual(['yes, and ask which field the other column is', 'no, stop here']);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'clientes.map.json'), 'utf8'))).toEqual({ Apelido: 'tradingName' });
    expect((await storedCustomers(sandbox))[0]?.tradingName).toBe('Loja da Maria');
  });

  it('on a terminal, a map saved before under the offered name is kept: the offer names it and saves beside it', async () => {
    // Yesterday's map, edited by hand to leave Apelido out; today's run forgets --map.
    const edited = `${JSON.stringify({ Apelido: null })}\n`;
    const { dir, run } = workspace([], {
      'clientes.csv': `${header};Apelido\r\n${row};Loja da Maria\r\n`,
      'clientes.map.json': edited,
    });
    const declined = await run(['customer', 'validate', 'clientes.csv'], { tty: true, answers: ['no'] });
    expect(declined.prompts.map((prompt) => [prompt.message, prompt.choices])).toEqual([
      [
        'clientes.map.json exists (a map saved before, perhaps edited since) and is kept. Read the file with this map, and save it as clientes-2.map.json for --map?',
        [
          'yes, and ask which field the other column is',
          'no, stop here (to read the file with it: --map clientes.map.json)',
        ],
      ],
    ]);
    expect(declined.code).toBe(65);
    const accepted = await run(['customer', 'create', 'clientes.csv'], { tty: true, answers: ['yes', 'tradingName'] });
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain(
      'map: saved to clientes-2.map.json; pass --map clientes-2.map.json from now on (edit it to change a column).\n',
    );
    expect(readFileSync(join(dir, 'clientes.map.json'), 'utf8')).toBe(edited);
    expect(JSON.parse(readFileSync(join(dir, 'clientes-2.map.json'), 'utf8'))).toEqual({ Apelido: 'tradingName' });
  });
});

describe('a header that is a field name in another case', () => {
  it('"SKU", "Quantity", "PRICE" are read as sku, quantity and price: no map, no prompt, the stock pushed', async () => {
    const { run } = workspace([], {
      'estoque.csv': 'SKU;Quantity;PRICE\r\nACU-REF-5KG;12;119,90\r\nCAFE-TORR-500G;0;25,00\r\n',
    });
    const result = await run(['stock', 'push', 'estoque.csv'], { tty: true, answers: [] });
    expect(result.code).toBe(0);
    expect(result.prompts).toEqual([]);
    expect(result.stderr).not.toContain('unknown column');
    expect(
      (await stockEntries(sandbox))
        .filter((entry) => entry.updates > 0)
        .map(({ sku, quantity, price }) => ({ sku, quantity, price })),
    ).toEqual([
      { sku: 'ACU-REF-5KG', quantity: 12, price: 119.9 },
      { sku: 'CAFE-TORR-500G', quantity: 0, price: 25 },
    ]);
  });
});

describe('JSON keys no field reads are accounted for as CSV columns are', () => {
  const maria = {
    documentType: 'cpf',
    document: '123.456.789-09',
    name: 'Maria da Conceição',
    username: 'maria@email.com.br',
    phone: '11987654321',
    password: 'Senha#2001',
    customerRegistrationAddress: { zipcode: '01310-100', number: '100' },
  };
  const clientes = (extra: Record<string, unknown>, address: Record<string, unknown> = {}) =>
    `[\n  ${JSON.stringify({ ...maria, ...extra, customerRegistrationAddress: { ...maria.customerRegistrationAddress, ...address } })}\n]\n`;
  const refusal =
    'error: clientes.json:2: key "apelido" holds "Loja da Maria" but no field reads it, so it would not be sent; nothing was sent. Map it with {"apelido":"FIELD"} in a --map file, or leave it out with --ignore-column apelido.';

  it('off a terminal, a key that holds data: exit 65 naming it, a value, the --map entry and --ignore-column; nothing sent', async () => {
    const { run } = workspace([], { 'clientes.json': clientes({ apelido: 'Loja da Maria', dataCadastro: null }) });
    const created = await run(['customer', 'create', 'clientes.json']);
    expect(created.code).toBe(65);
    expect(lastLine(created.stderr)).toBe(refusal);
    // A key holding nothing (null) is told, not refused, as an empty column is.
    expect(created.stderr).toContain(
      'warning: clientes.json:2: unknown key "dataCadastro": no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).\n',
    );
    expect(await requestCounts(sandbox)).toEqual({});
    // validate never sends: its refusal does not say so.
    const validated = await run(['customer', 'validate', 'clientes.json']);
    expect(validated.code).toBe(65);
    expect(lastLine(validated.stderr)).toBe(refusal.replace('; nothing was sent', ''));
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--ignore-column leaves the key out and the customer goes through without it', async () => {
    const { run } = workspace([], { 'clientes.json': clientes({ apelido: 'Loja da Maria' }) });
    const result = await run(['customer', 'create', 'clientes.json', '--ignore-column', 'Apelido']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('clientes.json:2: key "apelido" is left out (--ignore-column).\n');
    const [customer] = await storedCustomers(sandbox);
    expect(customer?.document).toBe('123.456.789-09');
    expect(JSON.stringify(customer)).not.toContain('Loja da Maria');
  });

  it('the --map line maps the key, and a nested key by its path', async () => {
    const { run } = workspace([], {
      'clientes.json': clientes({ apelido: 'Loja da Maria' }, { bloco: 'Bloco B apto 12' }),
      'm.json': JSON.stringify({
        apelido: 'tradingName',
        'customerRegistrationAddress.bloco': 'customerRegistrationAddress.complement',
      }),
    });
    const unmapped = await run(['customer', 'validate', 'clientes.json']);
    expect(unmapped.code).toBe(65);
    expect(lastLine(unmapped.stderr)).toContain(
      'key "customerRegistrationAddress.bloco" holds "Bloco B apto 12" on line 2 ({"customerRegistrationAddress.bloco":"FIELD"}, or --ignore-column customerRegistrationAddress.bloco)',
    );
    const result = await run(['customer', 'create', 'clientes.json', '--map', 'm.json']);
    expect(result.code).toBe(0);
    const [customer] = await storedCustomers(sandbox);
    expect(customer?.tradingName).toBe('Loja da Maria');
    expect(customer?.customerRegistrationAddress?.complement).toBe('Bloco B apto 12');
  });

  it('on a terminal, a key that holds data is asked about, and the answer read and saved', async () => {
    const { dir, run } = workspace([], { 'clientes.json': clientes({ apelido: 'Loja da Maria' }) });
    const result = await run(['customer', 'create', 'clientes.json'], { tty: true, answers: ['yes', 'tradingName'] });
    expect(result.prompts.map((prompt) => prompt.message)).toEqual([
      'Read the file with this map, and save it as clientes.map.json for --map?',
      'Key "apelido" (holds "Loja da Maria") is which field?',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'clientes.map.json'), 'utf8'))).toEqual({ apelido: 'tradingName' });
    expect((await storedCustomers(sandbox))[0]?.tradingName).toBe('Loja da Maria');
  });

  it('--write-map saves the map of keys named as an ERP names them; a key left over still stops the run', async () => {
    const { dir, run } = workspace([], {
      'erp.json': `${JSON.stringify([
        {
          'Tipo Pessoa': 'cpf',
          'CPF/CNPJ': '111.444.777-35',
          'Razão Social': 'Ana Lima',
          'E-mail': 'ana.lima@email.com.br',
          Telefone: '11987654323',
          password: 'Senha#2003',
          customerRegistrationAddress: { zipcode: '01310-100', number: '13' },
          'Data de cadastro': '2024-03-05',
        },
      ])}\n`,
    });
    const mapped = await run(['customer', 'create', 'erp.json', '--write-map', 'erp.map.json']);
    expect(mapped.code).toBe(65);
    expect(JSON.parse(readFileSync(join(dir, 'erp.map.json'), 'utf8'))).toEqual({
      'Tipo Pessoa': 'documentType',
      'CPF/CNPJ': 'document',
      'Razão Social': 'name',
      'E-mail': 'username',
      Telefone: 'phone',
    });
    // The keys the map reads are not first called unknown: only the one left over is.
    expect(mapped.stderr.match(/unknown key "[^"]+"/g)).toEqual(['unknown key "Data de cadastro"']);
    expect(lastLine(mapped.stderr)).toBe(
      `error: erp.json:1: key "Data de cadastro" holds "2024-03-05" but no field reads it, so it would not be sent; nothing was sent. Map it with {"Data de cadastro":"FIELD"} in a --map file, or leave it out with --ignore-column 'Data de cadastro'.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
    const created = await run([
      'customer',
      'create',
      'erp.json',
      '--map',
      'erp.map.json',
      '--ignore-column',
      'data de cadastro',
    ]);
    expect(created.code).toBe(0);
    expect(
      (await storedCustomers(sandbox)).map(({ document, name, documentType }) => ({ document, name, documentType })),
    ).toEqual([{ document: '111.444.777-35', name: 'Ana Lima', documentType: 'pf' }]);
  });

  it('customer status and update read JSON the same way', async () => {
    const { run } = workspace([], {
      'status.json': '[{"document":"123.456.789-09","active":false,"motivo":"inadimplente"}]\n',
    });
    for (const verb of ['status', 'update']) {
      const result = await run(['customer', verb, 'status.json']);
      expect(result.code).toBe(65);
      expect(lastLine(result.stderr)).toBe(
        'error: status.json:1: key "motivo" holds "inadimplente" but no field reads it, so it would not be sent; nothing was sent. Map it with {"motivo":"FIELD"} in a --map file, or leave it out with --ignore-column motivo.',
      );
    }
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('stock: a key that holds data stops push and validate; with --ignore-column the stock is pushed', async () => {
    const { run } = workspace([], {
      'estoque.json': `${JSON.stringify([
        { SKU: 'ACU-REF-5KG', quantity: 12, descricao: 'Açúcar refinado 5 kg', atualizadoEm: null },
        { SKU: 'CAFE-TORR-500G', quantity: 3, descricao: 'Café torrado', atualizadoEm: '2026-11-01' },
      ])}\n`,
    });
    const stop =
      'error: estoque.json:1:2 (element 0): key "descricao" holds "Açúcar refinado 5 kg" but no field reads it, so it would not be sent; nothing was sent. Map it with {"descricao":"FIELD"} in a --map file, or leave it out with --ignore-column descricao.';
    for (const verb of ['push', 'validate']) {
      const result = await run(['stock', verb, 'estoque.json']);
      expect(result.code).toBe(65);
      expect(lastLine(result.stderr)).toBe(verb === 'push' ? stop : stop.replace('; nothing was sent', ''));
    }
    expect(await requestCounts(sandbox)).toEqual({});
    // The date's data starts in the second record: named there once the description is left out.
    const dated = await run(['stock', 'push', 'estoque.json', '--ignore-column', 'descricao']);
    expect(dated.code).toBe(65);
    expect(lastLine(dated.stderr)).toContain('estoque.json:1:93 (element 1): key "atualizadoEm" holds "2026-11-01"');
    expect(await requestCounts(sandbox)).toEqual({});
    const pushed = await run([
      'stock',
      'push',
      'estoque.json',
      '--ignore-column',
      'descricao',
      '--ignore-column',
      'atualizado em',
    ]);
    expect(pushed.code).toBe(0);
    expect(
      (await stockEntries(sandbox))
        .filter((entry) => entry.updates > 0)
        .map(({ sku, quantity }) => ({ sku, quantity })),
    ).toEqual([
      { sku: 'ACU-REF-5KG', quantity: 12 },
      { sku: 'CAFE-TORR-500G', quantity: 3 },
    ]);
  });
});
