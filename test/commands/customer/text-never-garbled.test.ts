/**
 * Text never garbled: a file that mixes UTF-8 and Windows-1252 is refused without offering an encoding that would
 * garble half of it; UTF-8 read as a single-byte encoding (`ConceiÃ§Ã£o`) is refused with its line, even under the
 * --encoding the user gave; an Office encoding is suggested only when it reads the file as Brazilian text.
 */
import { writeFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { clearSandboxCustomers, requestCounts, resetCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
  await resetCounts(sandbox);
});

function workspace(files: Record<string, Buffer>) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });
}

const header =
  'documentType;document;name;username;phone;password;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\n';
const maria = 'cpf;123.456.789-09;Maria da Conceição;maria@email.com.br;11987654321;Senha#2001;01310-100;100\r\n';
const joao = 'cpf;529.982.247-25;São João;joao@email.com.br;11987654322;Senha#2002;01310-100;101\r\n';

async function expectNothingSent(): Promise<void> {
  expect(await requestCounts(sandbox)).toEqual({});
  expect(await storedCustomers(sandbox)).toEqual([]);
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('a file that mixes UTF-8 and Windows-1252', () => {
  // Line 2 saved by an editor in UTF-8, line 3 appended by an ERP in Windows-1252.
  const mixed = Buffer.concat([Buffer.from(header + maria, 'utf8'), Buffer.from(joao, 'latin1')]);

  it('is refused at the Windows-1252 line, naming the UTF-8 line, and no --encoding is offered', async () => {
    const run = workspace({ 'clientes.csv': mixed });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      `error: clientes.csv:3: mixed encodings: line 3 is not UTF-8 (bytes 0xE3 0x6F 0x20 0x4A after byte ${Buffer.byteLength(header + maria) + 'cpf;529.982.247-25;S'.length}) but line 2 holds UTF-8 ("Conceição"); no single encoding reads the file whole, so nothing was sent. Re-export the whole file as "CSV UTF-8", or retype line 3 in UTF-8.`,
    );
    expect(result.stderr).not.toContain('--encoding');
    await expectNothingSent();
  });

  it('read with --encoding windows-1252 (the old hint), its UTF-8 line is refused, not stored as ConceiÃ§Ã£o', async () => {
    const run = workspace({ 'clientes.csv': mixed });
    const result = await run(['customer', 'create', 'clientes.csv', '--encoding', 'windows-1252']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      'error: clientes.csv:2: "ConceiÃ§Ã£o" is UTF-8 text read as windows-1252 (as UTF-8 it reads "Conceição"); nothing was sent. Drop --encoding windows-1252 if the whole file is UTF-8 (b2bctl reads UTF-8 by itself), else re-export it as "CSV UTF-8".',
    );
    await expectNothingSent();
  });
});

describe('UTF-8 read under an explicit single-byte encoding', () => {
  const utf8 = Buffer.from(header + maria + joao, 'utf8');

  it.each([
    ['windows-1252', '"SÃ£o"', 'São'],
    ['cp850', '"S├úo"', 'São'],
    ['latin1', '"SÃ£o"', 'São'],
  ])('--encoding %s: refused at its first accent with the word both ways', async (encoding, misread, word) => {
    const run = workspace({ 'clientes.csv': Buffer.from(header + joao, 'utf8') });
    const result = await run(['customer', 'create', 'clientes.csv', '--encoding', encoding]);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      `error: clientes.csv:2: ${misread} is UTF-8 text read as ${encoding} (as UTF-8 it reads "${word}"); nothing was sent. Drop --encoding ${encoding} if the whole file is UTF-8 (b2bctl reads UTF-8 by itself), else re-export it as "CSV UTF-8".`,
    );
    await expectNothingSent();
  });

  it('without --encoding the same file is created with its accents', async () => {
    const run = workspace({ 'clientes.csv': utf8 });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([
      'Maria da Conceição',
      'São João',
    ]);
  });
});

describe('an Office encoding is named only when it reads the file as Brazilian text', () => {
  it('a Windows-1252 export read with --encoding cp850: refused with the encoding that reads it, nothing sent', async () => {
    const bytes = Buffer.from(header + maria + joao, 'latin1');
    const run = workspace({ 'clientes.csv': bytes });
    const result = await run(['customer', 'create', 'clientes.csv', '--encoding', 'cp850']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toMatch(
      /^error: clientes\.csv:2: "Concei\S+o" is not Brazilian text when read as cp850; the file is probably Windows-1252 \(Excel's "CSV"\), where it reads "Conceição": pass --encoding windows-1252 instead of cp850, or re-export it as "CSV UTF-8"\.$/,
    );
    await expectNothingSent();
  });

  it('bytes Windows-1252 does not define, which CP850 reads as "EuroÇ Xü YìÉ": no CP850 hint, nothing sent', async () => {
    const odd = Buffer.from(
      `${header}cpf;123.456.789-09;Euro\x80 X\x81 Y\x8d\x90;maria@email.com.br;11987654321;Senha#2001;01310-100;100\r\n`,
      'latin1',
    );
    const run = workspace({ 'clientes.csv': odd });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      'error: clientes.csv:2: byte 0x81 is not a character in windows-1252; no encoding Office writes (CP850, MacRoman) reads it as Brazilian text either: re-export the file as "CSV UTF-8", or pass its encoding with --encoding if you know it.',
    );
    await expectNothingSent();
  });

  it('a CP850 export ("CSV (MS-DOS)") is named as CP850, with the word as it reads there', async () => {
    const cp850 = Buffer.from(header + maria + joao, 'latin1');
    // ç ã in CP850: 0x87 0xC6.
    const bytes = Buffer.from(cp850.toString('latin1').replaceAll('ç', '\x87').replaceAll('ã', '\xc6'), 'latin1');
    const run = workspace({ 'clientes.csv': bytes });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(65);
    expect(lastLine(result.stderr)).toBe(
      'error: clientes.csv:2: "Concei‡Æo" is not Brazilian text when read as windows-1252; the file is probably CP850 (Excel\'s "CSV (MS-DOS)"), where it reads "Conceição": pass --encoding cp850, or re-export it as "CSV UTF-8".',
    );
    // The flag that message suggests, kept in a cron line when the ERP's export changes, does not turn the check off.
    const wrongFlag = await run(['customer', 'create', 'clientes.csv', '--encoding', 'windows-1252']);
    expect(wrongFlag.code).toBe(65);
    expect(lastLine(wrongFlag.stderr)).toBe(
      'error: clientes.csv:2: "Concei‡Æo" is not Brazilian text when read as windows-1252; the file is probably CP850 (Excel\'s "CSV (MS-DOS)"), where it reads "Conceição": pass --encoding cp850 instead of windows-1252, or re-export it as "CSV UTF-8".',
    );
    await expectNothingSent();
    const created = await run(['customer', 'create', 'clientes.csv', '--encoding', 'cp850']);
    expect(created.code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([
      'Maria da Conceição',
      'São João',
    ]);
  });
});

/** One customer named `name`, in the encoding an Excel "CSV (MS-DOS)" or "CSV (Macintosh)" export writes. */
const oneCustomer = (name: string, encoding: string) =>
  iconv.encode(header + maria.replace('Maria da Conceição', name), encoding);

describe('a CP850 or MacRoman export whose every accent Windows-1252 also defines (no undefined byte to catch)', () => {
  it.each([
    ['Padaria 1ª Travessa', 'cp850', '"1¦"', '"1ª"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Nº 12 - 3º andar', 'cp850', '"N§"', '"Nº"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Posto Km 2°', 'cp850', '"2ø"', '"2°"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Antônio Lima', 'cp850', '"Ant“nio"', '"Antônio"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Cláudio Reis', 'cp850', '"Cl\\u00a0udio"', '"Cláudio"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Paulo Simões', 'cp850', '"Simäes"', '"Simões"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Luís Reis', 'cp850', '"Lu¡s"', '"Luís"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Ótica Boa Vista', 'cp850', '"àtica"', '"Ótica"', 'CP850 (Excel\'s "CSV (MS-DOS)")'],
    ['Loja 1ª', 'macintosh', '"1»"', '"1ª"', 'MacRoman (Excel\'s "CSV (Macintosh)")'],
  ])(
    '%s in %s: refused naming both readings and --encoding, nothing sent; with --encoding it is created right',
    async (name, encoding, asWindows, asOffice, described) => {
      const run = workspace({ 'clientes.csv': oneCustomer(name, encoding) });
      const result = await run(['customer', 'create', 'clientes.csv']);
      expect(result.code).toBe(65);
      expect(lastLine(result.stderr)).toBe(
        `error: clientes.csv:2: ${asWindows} as windows-1252 is ${asOffice} as ${described}, and b2bctl cannot tell which encoding the file is; nothing was sent. Pass --encoding ${encoding} if it reads ${asOffice} (or --encoding windows-1252 if ${asWindows} is right), or re-export the file as "CSV UTF-8".`,
      );
      await expectNothingSent();
      const created = await run(['customer', 'create', 'clientes.csv', '--encoding', encoding]);
      expect(created.code).toBe(0);
      expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([name]);
    },
  );

  // An ERP export in capitals whose only accent is `Ã` (a user test): CP850's `Ã` is byte 0xC7, Windows-1252's `Ç`.
  it.each([
    ['JOÃO DA SILVA', 'JOÇO'],
    ['PADARIA SÃO PAULO', 'SÇO'],
    ['FALCÃO', 'FALCÇO'],
    ['IRMÃOS LTDA', 'IRMÇOS'],
    ['CAPÃO REDONDO', 'CAPÇO'],
  ])(
    '%s in CP850 (read %s as Windows-1252): refused naming CP850, nothing sent; with --encoding cp850 it is created right',
    async (name, asWindows) => {
      const bytes = oneCustomer(name, 'cp850');
      expect(bytes.includes(0xc7)).toBe(true);
      const run = workspace({ 'clientes.csv': bytes });
      const result = await run(['customer', 'create', 'clientes.csv']);
      expect(result.code).toBe(65);
      const asOffice = name.split(' ')[name.startsWith('PADARIA') ? 1 : 0] as string;
      expect(lastLine(result.stderr)).toBe(
        `error: clientes.csv:2: "${asWindows}" as windows-1252 is "${asOffice}" as CP850 (Excel's "CSV (MS-DOS)"), and b2bctl cannot tell which encoding the file is; nothing was sent. Pass --encoding cp850 if it reads "${asOffice}" (or --encoding windows-1252 if "${asWindows}" is right), or re-export the file as "CSV UTF-8".`,
      );
      await expectNothingSent();
      const created = await run(['customer', 'create', 'clientes.csv', '--encoding', 'cp850']);
      expect(created.code).toBe(0);
      expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([name]);
    },
  );

  it('a Windows-1252 export in capitals with a real Ç (AÇÚCAR, FRANÇA, OPÇÃO, PÇA) is created as it reads', async () => {
    const name = 'AÇÚCAR FRANÇA CONCEIÇÃO AÇO OPÇÃO CONFECÇÕES FICÇÃO DESÇA CALÇA FORÇA JAÇANÃ PÇA DA SÉ';
    const run = workspace({ 'clientes.csv': oneCustomer(name, 'win1252') });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.stderr).not.toContain('encoding');
    expect(result.code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([name]);
  });

  it('a Windows-1252 export with ordinals, degrees and a foreign name is read as it is, no question asked', async () => {
    const name = 'Nº 2º andar - 1ª Travessa Km 2° § 3 Müller D’Ávila à Loja';
    const run = workspace({
      'clientes.csv': iconv.encode(header + maria.replace('Maria da Conceição', name), 'win1252'),
    });
    const result = await run(['customer', 'create', 'clientes.csv']);
    expect(result.code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual([name]);
  });
});
