/**
 * `b2bctl tax quote` in process: the worked examples of docs/tax.md through the command, from a table that
 * LibreOffice saved as a pt-BR ERP exports it (`;`, Windows-1252, Portuguese headers read with --map), and its
 * refusals: a wrong table, an item without a row.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { shellWords } from '../../support/command-words.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { saleFlags } from '../../support/tax-sale.js';
import { workedExample2, workedExample3, workedExample6 } from '../../support/tax-examples.js';

afterAll(removeTemporaryFolders);

const fixtures = join(__dirname, '..', '..', 'fixtures', 'tax');
const folder = temporaryFolder('b2bctl-tax-');
copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), join(folder, 'impostos.csv'));
copyFileSync(join(fixtures, 'impostos.map.json'), join(folder, 'impostos.map.json'));

function quote(args: readonly string[]) {
  return runCommandLine(['tax', 'quote', '--rules', 'impostos.csv', '--map', 'impostos.map.json', ...args], {
    configDir: freshConfigDir(),
    cwd: folder,
  });
}

/** `tax quote` from the table `rules` (without a map, with `extra` flags) of one item inside São Paulo, or between the states given. */
function quoteFrom(rules: string, item: string, to = 'SP', extra: readonly string[] = []) {
  return runCommandLine(
    ['tax', 'quote', '--rules', rules, ...extra, '--from', 'SP', '--to', to, '--buyer', 'taxpayer', '--item', item],
    { configDir: freshConfigDir(), cwd: folder },
  );
}

/** Example 2's sale: SP to RJ, a taxpayer, ten of NCM 3926.90.90 at 45.90 with 12 of freight. */
const example2Sale = saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,10,45.90,0,12');

/** A sale inside SP to a taxpayer of `item` (NCM,QUANTITY,PRICE…). */
const saleInSp = (item: string) => saleFlags('SP', 'SP', 'taxpayer', '--item', item);

/** `tax quote` of example 2's item (ICMS-ST, SP → RJ, a taxpayer) from the table `table` names: the run, and its items. */
async function quoteExample2(table: readonly string[]) {
  const result = await runCommandLine(['tax', 'quote', ...table, ...example2Sale], {
    configDir: freshConfigDir(),
    cwd: folder,
  });
  const items = result.code === 0 ? (JSON.parse(result.stdout) as { items: unknown[] }).items : undefined;
  return { ...result, items };
}

/** `tax quote --rules RULES` of a sale (`--from … --item …`) in the folder `cwd`, each run with a fresh config. */
function quoteSale(rules: string, cwd: string, sale: readonly string[]) {
  return runCommandLine(['tax', 'quote', '--rules', rules, ...sale], { configDir: freshConfigDir(), cwd });
}

/** `tax quote` of one item of example 2 (SP → RJ, a taxpayer) from the table `rules` in the folder `cwd`. */
function quoteSpToRj(rules: string, cwd: string) {
  return quoteSale(rules, cwd, saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,10,45.90'));
}

describe('tax quote', () => {
  it('computes example 6 from the gross value rounded as an NF-e writes it (vProd), then less the discount', async () => {
    const result = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1235,0.387,12.35,15'));
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toEqual([workedExample6]);
  });

  // A user test: the IPI and the ST base were taken on 10.005 while the answer showed, and the ICMS used, 10.00.
  it('rounds a freight share of 0.005 to centavos (vFrete) before every base: IPI, ICMS and ICMS-ST on 10.00', async () => {
    const result = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,10,0,0.005'));
    expect(result.code).toBe(0);
    const [item] = (JSON.parse(result.stdout) as { items: Record<string, unknown>[] }).items;
    // 10.00 × 6.5% = 0.65; (10.00 + 0.65) × 1.54 = 16.401 → 16.40 (10.005 would give 16.41); 16.40 × 20% − 1.20.
    expect(item).toMatchObject({
      ipi: { base: '10.00', rate: '6.5', value: '0.65' },
      icms: { base: '10.00', rate: '12', value: '1.20' },
      icmsSt: { base: '16.40', rate: '20', value: '2.08', mva: '54' },
    });
  });

  it('computes example 2 (ICMS-ST with the adjusted MVA) and the NCM prefix rule of example 5', async () => {
    const result = await quote([
      ...saleFlags('SP', 'rj', 'taxpayer', '--item', '39269090,10,45.90,0,12', '--item', '84713019,1,100'),
    ]);
    expect(result.code).toBe(0);
    const quoted = JSON.parse(result.stdout) as { items: Record<string, unknown>[]; totals: Record<string, string> };
    expect(quoted.items[0]).toEqual(workedExample2);
    // 8471.30.19 has no row of its own: the heading 8471's 12% applies.
    expect(quoted.items[1]).toMatchObject({ ncm: '84713019', icms: { base: '100.00', rate: '12', value: '12.00' } });
    expect(quoted.totals).toMatchObject({ merchandise: '559.00', icms: '68.52', icmsSt: '97.98', added: '128.60' });
  });

  it('reads the table from a workbook LibreOffice saved, its rates number cells: example 2 to the centavo', async () => {
    copyFileSync(join(fixtures, 'impostos-libreoffice.xlsx'), join(folder, 'impostos.xlsx'));
    const result = await quoteExample2(['--rules', 'impostos.xlsx', '--map', 'impostos.map.json']);
    expect(result.code).toBe(0);
    expect(result.items).toEqual([workedExample2]);
  });

  // A user test: a LibreOffice CSV writes a percentage cell `12.0%`, and `tax quote` echoed "12.0" where the same table as
  // .xlsx gave "12": one rate, two texts.
  it('writes a rate one way whatever the table wrote: 12.0%, 6.50 and 040 as 12, 6.5 and 40', async () => {
    writeFileSync(
      join(folder, 'zeros.csv'),
      'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n39269090;SP;RJ;taxpayer;12.0%;;6.50;040;20.00%;0.0\n',
    );
    const result = await quoteExample2(['--rules', 'zeros.csv']);
    expect(result.stderr).toBe('');
    expect(result.items).toEqual([workedExample2]);
  });

  // A user test: between states the MVA was always adjusted, also to a destination whose internal rate is below the
  // interstate one, where the adjustment lowers the margin and the agreements apply the original MVA (docs/tax.md,
  // formula 4, its worked case by hand: ST 34.00, not 25.72).
  it('applies the original MVA between states where the destination rate is below the interstate one', async () => {
    const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';
    writeFileSync(
      join(folder, 'mva.csv'),
      `${header}22030000,SP,PR,taxpayer,12,,10,100,7,\n22030000,SP,RJ,taxpayer,12,,10,100,20,\n`,
    );
    const below = await quoteFrom('mva.csv', '22030000,1,1000', 'PR', ['-o', 'json']);
    expect(below.code).toBe(0);
    const lower = JSON.parse(below.stdout) as { items: { icmsSt: unknown }[] };
    expect(lower.items[0]?.icmsSt).toMatchObject({ base: '2200.00', rate: '7', value: '34.00', mva: '100' });
    // Above it, the adjusted MVA: 2 × 0.88 / 0.80 − 1 = 120%; base 1,100.00 × 2.2 = 2,420.00; 484.00 − 120.00.
    const above = await quoteFrom('mva.csv', '22030000,1,1000', 'RJ', ['-o', 'json']);
    const higher = JSON.parse(above.stdout) as { items: { icmsSt: unknown }[] };
    expect(higher.items[0]?.icmsSt).toMatchObject({ base: '2420.00', rate: '20', value: '364.00', mva: '120' });
  });

  // A user test: `0402101` saved by a spreadsheet as 402101 loaded as a subheading, and 0402.10.10 took the chapter's 12%
  // with no word; a 6-digit row is said at load unless written with its dot or its zero.
  it('warns of a bare 6-digit NCM row that may be a 7-digit item of chapters 01-09 without its zero', async () => {
    const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';
    writeFileSync(join(folder, 'z.csv'), `${header}04,SP,RJ,taxpayer,12,,0,,20,\n402101,SP,RJ,taxpayer,4,,0,,20,\n`);
    const lost = await quoteFrom('z.csv', '04021010,1,100', 'RJ');
    expect(lost.code).toBe(0);
    expect(lost.stderr).toContain(
      "warning: z.csv:3: ncm 402101 has 6 digits, not written as a subheading: if it is the item 0402.10.1 of chapter 04 whose leading zero a spreadsheet lost, its products are answered from a shorter prefix's row: store the column as text; if it is the subheading 4021.01, write it so.",
    );
    // As a pt-BR LibreOffice CSV shows the number 402101: dots where an NCM has none, refused.
    writeFileSync(join(folder, 'z3.csv'), `${header}04,SP,RJ,taxpayer,12,,0,,20,\n402.101,SP,RJ,taxpayer,4,,0,,20,\n`);
    const grouped = await quoteFrom('z3.csv', '04021010,1,100', 'RJ');
    expect(grouped.code).toBe(65);
    expect(grouped.stderr).toContain('z3.csv:3: ncm "402.101" has its dots where an NCM has none');
    for (const written of ['0402101', '4021.01']) {
      writeFileSync(
        join(folder, 'z2.csv'),
        `${header}04,SP,RJ,taxpayer,12,,0,,20,\n${written},SP,RJ,taxpayer,4,,0,,20,\n`,
      );
      const kept = await quoteFrom('z2.csv', '04021010,1,100', 'RJ');
      expect(kept.code).toBe(0);
      expect(kept.stderr).toBe('');
    }
  });

  it('-o csv writes fcp.base as -o json does, and the sale (from, to, buyer) on every row', async () => {
    const result = await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--item', '85166000,1,2000,0,100', '-o', 'csv'));
    expect(result.code).toBe(0);
    const [header, row] = result.stdout.trimEnd().split(/\r?\n/);
    const columns = (header ?? '').split(',');
    const cells = Object.fromEntries(columns.map((column, index) => [column, (row ?? '').split(',')[index]]));
    const json = JSON.parse(
      (await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--item', '85166000,1,2000,0,100'))).stdout,
    ) as {
      items: { fcp: { base: string } }[];
    };
    expect(columns.slice(-7)).toEqual(['fcp.base', 'fcp.rate', 'fcp.value', 'added', 'from', 'to', 'buyer']);
    expect(cells).toMatchObject({ 'fcp.base': json.items[0]?.fcp.base, from: 'SP', to: 'MG', buyer: 'non-taxpayer' });
  });

  it.each(['impostos-percentual.xlsx', 'impostos-percentual.ods'])(
    'reads rates typed as percentages in %s (0.12 shown as 12%%) as 12: example 2 to the centavo',
    async (workbook) => {
      copyFileSync(join(fixtures, workbook), join(folder, workbook));
      const result = await quoteExample2(['--rules', workbook, '--map', 'impostos.map.json']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.items).toEqual([workedExample2]);
    },
  );

  it('refuses NCMs a workbook turned into numbers that lost their leading zero (0402 → 402), naming the cell', async () => {
    copyFileSync(join(fixtures, 'impostos-ncm-numero.xlsx'), join(folder, 'ncm.xlsx'));
    const result = await quoteExample2(['--rules', 'ncm.xlsx', '--map', 'impostos.map.json']);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "ncm.xlsx:2: 'impostos-ncm-numero.source'!A2 (ncm): 402: the cell is a number, so the NCM's leading zero is lost (0402 was probably typed); format the column as Text and type the value again",
    );
    expect(result.stderr).toContain(
      "ncm.xlsx:3: 'impostos-ncm-numero.source'!A3 (ncm): 4021010: the cell is a number, so the NCM's leading zero is lost (04021010 was probably typed)",
    );
    // An eight-digit NCM typed as a number lost nothing: no problem of its own.
    expect(result.stderr).not.toContain('ncm.xlsx:4:');
    // A user test: one cell gave two lines, the reader's and the NCM rule's ("has 7 digits…"): the reader's alone.
    expect(result.stderr.match(/ncm\.xlsx:3:/g)).toHaveLength(1);
  });

  // A user test: an NCM number cell formatted `00000000` shows 04021010, and was refused as having lost its zero.
  it.each(['impostos-ncm-zeros.xlsx', 'impostos-ncm-zeros.ods'])(
    'reads an NCM number cell formatted with zeros in %s as it shows, its leading zero kept',
    async (workbook) => {
      copyFileSync(join(fixtures, workbook), join(folder, workbook));
      // The workbook's headers are impostos.map.json's but two: `NCM/SH` and `MVA original`.
      const headers = JSON.parse(readFileSync(join(fixtures, 'impostos.map.json'), 'utf8')) as Record<string, string>;
      const renamed = Object.entries(headers).map(([header, field]) =>
        header === 'NCM' ? ['NCM/SH', field] : header === 'MVA' ? ['MVA original', field] : [header, field],
      );
      writeFileSync(join(folder, 'zeros.map.json'), JSON.stringify(Object.fromEntries(renamed)));
      const result = await quoteFrom(workbook, '04021010,1,100', 'RJ', ['--map', 'zeros.map.json', '-o', 'json']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        items: [{ ncm: '04021010', icms: { rate: '12', value: '12.00' } }],
      });
    },
  );

  // A user test: a formula's #N/D in a rate cell gave two lines, "holds #N/D…" and "must be a percentage".
  it('refuses a rate cell holding a formula’s error with one line, the reader’s, nothing quoted', async () => {
    const header = 'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n';
    writeFileSync(join(folder, 'nd.csv'), `${header}22021000;SP;RJ;taxpayer;12;;0;40;"#N/D";\n`);
    const result = await quoteFrom('nd.csv', '22021000,1,100', 'RJ');
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: nd.csv: 1 problem in the tax table, which is not used:\nnd.csv:2: field "destinationRate" holds #N/D, the error a spreadsheet formula gave, not a value; correct the formula or type the value, and export again\n',
    );
  });

  it('refuses a CSV NCM of 7 digits that lost its leading zero (4021010), with file:line; takes 8471.3 and 8471.30.1', async () => {
    const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';
    writeFileSync(
      join(folder, 'lz7.csv'),
      `${header}04,SP,SP,taxpayer,12,,0,,18,\n4021010,SP,SP,taxpayer,18,,0,,18,\n`,
    );
    const lost = await quoteFrom('lz7.csv', '04021010,1,100');
    expect(lost.code).toBe(65);
    expect(lost.stdout).toBe('');
    expect(lost.stderr).toBe(
      'error: lz7.csv: 1 problem in the tax table, which is not used:\nlz7.csv:3: ncm "4021010" has 7 digits: a leading zero was probably lost in a spreadsheet (04021010); store the column as text. If it is an item (an NCM level of 7 digits), write it with its dots: 4021.01.0\n',
    );
    writeFileSync(
      join(folder, 'niveis.csv'),
      `${header}8471.3,SP,SP,taxpayer,5,,0,,18,\n8471.30.1,SP,SP,taxpayer,7,,0,,18,\n`,
    );
    const levels = await quoteFrom('niveis.csv', '84713012,1,100', 'SP', ['-o', 'json']);
    expect(levels.stderr).toBe('');
    expect(JSON.parse(levels.stdout)).toHaveProperty('items.0.icms.rate', '7');
    const subheading = await quoteFrom('niveis.csv', '84713090,1,100', 'SP', ['-o', 'json']);
    expect(JSON.parse(subheading.stdout)).toHaveProperty('items.0.icms.rate', '5');
  });

  it('refuses an empty rate a row uses, instead of reading it as 0; an empty FCP, reduction or MVA is 0', async () => {
    writeFileSync(
      join(folder, 'vazio.csv'),
      'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n' +
        '85166000;SP;MG;non-taxpayer;;;;;;\n' +
        '39269090;SP;RJ;taxpayer;12;;6,5;40;;\n' +
        '84713012;SP;SP;taxpayer;18;;10;;;\n',
    );
    const result = await quoteFrom('vazio.csv', '84713012,1,100');
    expect(result.code).toBe(65);
    expect(result.stderr).toContain('vazio.csv: 4 problems in the tax table, which is not used:');
    expect(result.stderr).toContain('vazio.csv:2: icmsRate is empty: write the rate, 0 when there is none');
    expect(result.stderr).toContain('vazio.csv:2: ipiRate is empty: write the rate, 0 when there is none');
    expect(result.stderr).toContain(
      "vazio.csv:2: destinationRate is empty, and the row needs it (for ICMS-ST or for DIFAL): write the destination's internal rate",
    );
    expect(result.stderr).toContain('vazio.csv:3: destinationRate is empty, and the row needs it');
  });

  // `"ipiRate": true` was refused as "is empty" (a user test): it is a value, of the wrong kind.
  it('refuses a JSON table’s rate that is true, an object or a list as no number, not as empty', async () => {
    writeFileSync(
      join(folder, 'tipos.json'),
      JSON.stringify([
        { ncm: '84713012', from: 'SP', to: 'RJ', buyer: 'taxpayer', icmsRate: 7, ipiRate: true, destinationRate: 20 },
        { ncm: '39269090', from: 'SP', to: 'RJ', buyer: 'taxpayer', icmsRate: {}, ipiRate: [6.5], destinationRate: 20 },
      ]),
    );
    const result = await quoteFrom('tipos.json', '84713012,1,100', 'RJ');
    expect(result.code).toBe(65);
    expect(result.stderr).toContain('tipos.json:1:2 (element 0): ipiRate true must be a number, such as 18 or 4.5');
    expect(result.stderr).toMatch(
      /tipos\.json:1:\d+ \(element 1\): icmsRate \{\} must be a number, such as 18 or 4\.5/,
    );
    expect(result.stderr).toMatch(/\(element 1\): ipiRate \[6\.5\] must be a number, such as 18 or 4\.5/);
    expect(result.stderr).not.toContain('is empty');
    expect(result.stdout).toBe('');
  });

  it('refuses a discount above the item’s value and a price written 1.500 on the command line', async () => {
    const over = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '84713012,1,100,150'));
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`discount "150" is more than the item's value (quantity × unit price, 100.00)`);
    // The item is worth its gross value as the taxes round it: 1 × 0.015 is 0.02, which a discount of 0.02 is not above.
    const rounded = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,0.015,0.02'));
    expect(rounded.code).toBe(0);
    expect((JSON.parse(rounded.stdout) as { items: { merchandise: string }[] }).items[0]?.merchandise).toBe('0.00');
    const above = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,0.015,0.03'));
    expect(above.code).toBe(2);
    expect(above.stderr.split('\n')[0]).toBe(
      `error: option '--item <ncm,qty,price[,discount[,freight]]>' argument '39269090,1,0.015,0.03' is invalid. discount "0.03" is more than the item's value (quantity × unit price, 0.02); write NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]], such as 39269090,10,45.90.`,
    );
    const grouped = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '84713012,2,1.500,00'));
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toContain(
      '"1.500" reads as 1.5, with a decimal point, though it looks like 1500 with its thousands grouped',
    );
    expect(over.stdout + grouped.stdout).toBe('');
  });

  it('refuses a quantity, discount or freight written 1.500 on the command line as it refuses the price', async () => {
    for (const [field, written] of [
      ['quantity', '1.500,10.00'],
      ['discount', '1,100.00,1.500'],
      ['freight', '1,100.00,0,1.500'],
    ] as const) {
      const result = await quote(saleInSp(`39269090,${written}`));
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        `error: option '--item <ncm,qty,price[,discount[,freight]]>' argument '39269090,${written}' is invalid. ${field} "1.500" reads as 1.5, with a decimal point, though it looks like 1500 with its thousands grouped: write 1500 (or 1500.00) for that, or 1.5000 for the decimal; write NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]], such as 39269090,10,45.90.`,
      );
    }
  });

  // Two groups said "reads as NaN" and offered `1.000.0000 for the decimal`, which is no number either.
  it.each([
    ['39269090,1,100,1.000.000', 'discount "1.000.000" is 1000000', '1000000'],
    ['39269090,1,1.234.567', 'unitPrice "1.234.567" is 1234567', '1234567'],
  ])('refuses %s naming only the thousands reading', async (written, start, whole) => {
    const result = await quote(saleInSp(written));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      `error: option '--item <ncm,qty,price[,discount[,freight]]>' argument '${written}' is invalid. ${start} with its thousands grouped: write ${whole} (or ${whole}.00); write NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]], such as 39269090,10,45.90.`,
    );
  });

  it('refuses a quantity of more digits than it is computed exactly with (2^53 + 1), in --item and in a cart file', async () => {
    const item = await quote(saleInSp('39269090,9007199254740993,1'));
    expect(item.code).toBe(2);
    expect(item.stdout).toBe('');
    expect(item.stderr.split('\n')[0]).toBe(
      `error: option '--item <ncm,qty,price[,discount[,freight]]>' argument '39269090,9007199254740993,1' is invalid. quantity "9007199254740993" has more digits than a quantity is computed exactly with (at most 15); write NCM,QUANTITY,UNIT_PRICE[,DISCOUNT[,FREIGHT]], such as 39269090,10,45.90.`,
    );
    writeFileSync(join(folder, 'enorme.csv'), 'ncm;quantity;unitPrice\n39269090;9007199254740993;1\n');
    const file = await quote(saleFlags('SP', 'SP', 'taxpayer', '--items', 'enorme.csv'));
    expect(file.code).toBe(65);
    expect(file.stderr).toBe(
      'error: enorme.csv: 1 problem in the items; nothing was quoted:\nenorme.csv:2: quantity "9007199254740993" has more digits than a quantity is computed exactly with (at most 15)\n',
    );
    // Zeros after the decimals are no digits of the quantity.
    const zeros = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,2.00000000000000000,1'));
    expect(zeros.code).toBe(0);
    expect(JSON.parse(zeros.stdout)).toHaveProperty('items.0.merchandise', '2.00');
  });

  it('takes a price of three decimals that cannot be a grouping (0.125), and names one that works for 1.234', async () => {
    const screw = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,100,0.125'));
    expect(screw.code).toBe(0);
    expect(JSON.parse(screw.stdout)).toHaveProperty('items.0.merchandise', '12.50');
    const grouped = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,1.234'));
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toContain('write 1234 (or 1234.00) for that, or 1.2340 for the decimal');
    const written = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,1.2340'));
    expect(written.code).toBe(0);
  });

  it("refuses a table's rate written 1.800 or 12.500 (1.8 or 1800?) unless --decimal says which", async () => {
    const header = 'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n';
    writeFileSync(
      join(folder, 'agrupada.csv'),
      `${header}0408;SP;SP;taxpayer;1.800;;0;;;\n0409;SP;SP;taxpayer;4,5;;1.5;;;\n`,
    );
    const grouped = await quoteFrom('agrupada.csv', '04090000,1,100');
    expect(grouped.code).toBe(65);
    expect(grouped.stderr).toContain(
      'agrupada.csv:2: icmsRate: 1.800 is 1800 written the pt-BR way, or 1.8 with a decimal point: pass --decimal , or --decimal . to say which the file writes',
    );
    const quoteWith = (rules: string, decimal: string, item: string) =>
      quoteFrom(rules, item, 'SP', ['--decimal', decimal]);
    // The pt-BR reading: 1800, no percentage.
    const comma = await quoteWith('agrupada.csv', ',', '04090000,1,100');
    expect(comma.code).toBe(65);
    expect(comma.stderr).toContain(
      'agrupada.csv:2: icmsRate "1.800" must be a percentage such as 18 or 4.5, at most 100',
    );
    writeFileSync(join(folder, 'ponto.csv'), `${header.replaceAll(';', ',')}0408,SP,SP,taxpayer,12.500,,0,,,\n`);
    expect((await quoteFrom('ponto.csv', '04080000,1,100')).code).toBe(65);
    const point = await quoteWith('ponto.csv', '.', '04080000,1,100');
    expect(point.code).toBe(0);
    expect(JSON.parse(point.stdout)).toHaveProperty('items.0.icms.value', '12.50');
    expect(grouped.stdout + comma.stdout).toBe('');
  });

  it('names the Portuguese headers it recognises and stops without --map; --write-map saves the map and reads the table', async () => {
    const refused = await quoteExample2(['--rules', 'impostos.csv']);
    expect(refused.code).toBe(65);
    expect(refused.stdout).toBe('');
    const committedMap = JSON.parse(readFileSync(join(fixtures, 'impostos.map.json'), 'utf8')) as Record<
      string,
      string
    >;
    // NCM and MVA are the fields' own names; every other column is recognised and proposed.
    const proposed = Object.fromEntries(
      Object.entries(committedMap).filter(([header]) => header !== 'NCM' && header !== 'MVA'),
    );
    // A tax command sends nothing: the refusal does not say "nothing was sent" as if it could have.
    expect(refused.stderr).toContain(
      `\nerror: impostos.csv:1: 8 columns are named as an ERP names them (listed above). Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding ${JSON.stringify(proposed)}.\n`,
    );
    const written = await quoteExample2(['--rules', 'impostos.csv', '--write-map', 'saved.map.json']);
    expect(written.code).toBe(0);
    expect(written.items).toEqual([workedExample2]);
    expect(JSON.parse(readFileSync(join(folder, 'saved.map.json'), 'utf8'))).toEqual(proposed);
  });

  it('--write-map over a map saved before is refused, saying nothing was written (a tax command sends nothing)', async () => {
    const tableFolder = temporaryFolder();
    copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), join(tableFolder, 'impostos.csv'));
    writeFileSync(join(tableFolder, 'saved.map.json'), '{"NCM":"ncm"}\n');
    const refused = await quoteSale('impostos.csv', tableFolder, [...example2Sale, '--write-map', 'saved.map.json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'error: --write-map saved.map.json: the file exists (a map saved before, perhaps edited since); nothing was written. Read the file with it: --map saved.map.json; to save a new map, delete it or give --write-map another file.\n',
    );
    expect(readFileSync(join(tableFolder, 'saved.map.json'), 'utf8')).toBe('{"NCM":"ncm"}\n');
  });

  it('the sample table (samples/impostos.csv) computes example 2 as docs/tax.md shows it, with the map it saves', async () => {
    const sample = join(__dirname, '..', '..', '..', 'samples', 'impostos.csv');
    const result = await quoteExample2(['--rules', sample, '--write-map', 'sample.map.json']);
    expect(result.code).toBe(0);
    expect(result.items).toEqual([workedExample2]);
  });

  it("docs/tax.md's cart example runs as written from the package's root: samples/carrinho.csv gives example 3", async () => {
    const root = join(__dirname, '..', '..', '..');
    const page = readFileSync(join(root, 'docs', 'tax.md'), 'utf8');
    const commands = page
      .split('\n')
      .filter((line) => line.startsWith('b2bctl tax quote --rules samples/impostos.csv'));
    const saving = commands.find((line) => line.includes('--write-map impostos.map.json'));
    const cart = commands.find((line) => line.includes('--items samples/carrinho.csv'));
    expect({ saving, cart }).toEqual({ saving: expect.any(String), cart: expect.any(String) });
    // The package's root as a user has it: the shipped samples, no map yet (the page's first command saves it).
    const packageRoot = temporaryFolder('b2bctl-tax-page-');
    mkdirSync(join(packageRoot, 'samples'));
    for (const file of ['impostos.csv', 'carrinho.csv'])
      copyFileSync(join(root, 'samples', file), join(packageRoot, 'samples', file));
    const asWritten = (line: string) =>
      runCommandLine(shellWords(line).slice(1), { configDir: freshConfigDir(), cwd: packageRoot });
    expect((await asWritten(saving as string)).code).toBe(0);
    const result = await asWritten(cart as string);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toEqual([{ sku: 'FORNO-1', ...workedExample3 }]);
  });

  it('computes example 3 (DIFAL and FCP) from a cart file', async () => {
    writeFileSync(
      join(folder, 'carrinho.csv'),
      'sku;ncm;quantity;unitPrice;freight\nFORNO-1;85166000;1;2000,00;100,00\n',
    );
    const result = await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--items', 'carrinho.csv'));
    expect(result.code).toBe(0);
    const quoted = JSON.parse(result.stdout) as { items: Record<string, unknown>[] };
    expect(quoted.items).toEqual([{ sku: 'FORNO-1', ...workedExample3 }]);
  });

  it('computes example 3 from a JSON cart file whose amounts are JSON numbers, and refuses a "1.500" there as the callback does', async () => {
    // A quantity of JSON number 1 was refused as "quantity 1 must be a number above 0" (found by a fix helper).
    writeFileSync(
      join(folder, 'carrinho.json'),
      JSON.stringify([{ sku: 'FORNO-1', ncm: '85166000', quantity: 1, unitPrice: 2000, freight: 100 }]),
    );
    const sale = ['--from', 'SP', '--to', 'MG', '--buyer', 'non-taxpayer'];
    const result = await quote([...sale, '--items', 'carrinho.json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toEqual([{ sku: 'FORNO-1', ...workedExample3 }]);
    writeFileSync(join(folder, 'ambiguo.json'), JSON.stringify([{ ncm: '85166000', quantity: 1, unitPrice: '1.500' }]));
    const ambiguous = await quote([...sale, '--items', 'ambiguo.json']);
    expect(ambiguous.code).toBe(65);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toBe(
      'error: ambiguo.json: 1 problem in the items; nothing was quoted:\nambiguo.json:1: unitPrice "1.500" reads as 1.5 with a decimal point or as 1500 with its thousands grouped: send 1500 for that, or 1.5 for the decimal\n',
    );
  });

  it("reads a pt-BR cart file's amounts as written (2.000 is two thousand), and names the cart, not the table, for its problems", async () => {
    writeFileSync(
      join(folder, 'grande.csv'),
      'sku;ncm;quantity;unitPrice;freight\r\nFORNO-1;85166000;1;2.000;100,00\r\n',
    );
    const read = await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--items', 'grande.csv'));
    expect(read.code).toBe(0);
    expect((JSON.parse(read.stdout) as { items: unknown[] }).items).toEqual([{ sku: 'FORNO-1', ...workedExample3 }]);
    // The same cart as LibreOffice writes a grouped amount: 2.000,00.
    copyFileSync(join(fixtures, 'carrinho-libreoffice.csv'), join(folder, 'carrinho-libreoffice.csv'));
    const saved = await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--items', 'carrinho-libreoffice.csv'));
    expect(saved.code).toBe(0);
    expect((JSON.parse(saved.stdout) as { items: unknown[] }).items).toEqual([{ sku: 'FORNO-1', ...workedExample3 }]);

    writeFileSync(join(folder, 'errado.csv'), 'ncm;quantity;unitPrice\r\n85166000;1;dois mil\r\n');
    const refused = await quote(saleFlags('SP', 'MG', 'non-taxpayer', '--items', 'errado.csv'));
    expect(refused.code).toBe(65);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error: errado.csv: 1 problem in the items; nothing was quoted:\n');
    expect(refused.stderr).toContain('errado.csv:2: unitPrice "dois mil" must be an amount such as 1234.50');
    expect(refused.stderr).not.toContain('tax table');
  });

  it('reads a ";" cart that writes decimal points by them, and refuses its 1.250 (1.25 or 1250?) until --decimal says', async () => {
    writeFileSync(join(folder, 'ponto.csv'), 'ncm;quantity;unitPrice\r\n85166000;1;2000.5\r\n85166000;2;1.250\r\n');
    const args = saleFlags('SP', 'MG', 'non-taxpayer', '--items', 'ponto.csv');
    const refused = await quote(args);
    expect(refused.code).toBe(65);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'ponto.csv:3: unitPrice: 1.250 is 1250 written the pt-BR way, or 1.25 with a decimal point: pass --decimal , or --decimal . to say which the file writes',
    );
    const pointed = await quote([...args, '--decimal', '.']);
    expect(pointed.code).toBe(0);
    const items = (JSON.parse(pointed.stdout) as { items: { merchandise: string }[] }).items;
    expect(items.map((item) => item.merchandise)).toEqual(['2000.50', '2.50']);
  });

  it('--excel writes every amount and rate with a decimal comma, as a pt-BR Excel reads numbers', async () => {
    const result = await quote(['--excel', ...example2Sale]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      '\uFEFFsku;ncm;merchandise;ipi.base;ipi.rate;ipi.value;icms.base;icms.rate;icms.value;icmsSt.base;icmsSt.mva;icmsSt.rate;icmsSt.value;difal.base;difal.rate;difal.value;fcp.base;fcp.rate;fcp.value;added;from;to;buyer\r\n' +
        ';39269090;459,00;471,00;6,5;30,62;471,00;12;56,52;772,49;54;20;97,98;;;;;;;128,60;SP;RJ;taxpayer\r\n',
    );
  });

  it('prints a table and the totals on a terminal', async () => {
    const result = await quote(saleFlags('SP', 'SP', 'taxpayer', '--item', '84596100,1,10000', '-o', 'table'));
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]).toMatch(/^84596100\s+10000\.00\s+0\.00\s+1200\.06\s+-\s+-\s+-\s+0\.00$/);
    expect(result.stderr).toContain('SP → SP, taxpayer: merchandise 10000.00; IPI 0.00, ICMS 1200.06');
  });

  it('refuses an item the table has no row for, naming it, and prints no tax', async () => {
    const result = await quote(saleFlags('SP', 'RJ', 'non-taxpayer', '--item', '39269090,1,10'));
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'error: The tax table has no row for NCM 39269090, SP → RJ, non-taxpayer: add a row for the NCM or a prefix of it; no tax is guessed.',
    );
  });

  it('refuses a row a decimal comma split in a comma CSV (6,5) though its cell past the header is empty, and such a cart', async () => {
    const split =
      'in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes';
    writeFileSync(
      join(folder, 'shift.csv'),
      'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n39269090,SP,RJ,taxpayer,12,,6,5,40,20,\n',
    );
    const table = await quoteFrom('shift.csv', '39269090,10,45.90,0,12', 'RJ');
    expect(table.code).toBe(65);
    expect(table.stdout).toBe('');
    expect(table.stderr).toBe(
      `error: shift.csv: 1 problem in the tax table, which is not used:\nshift.csv:2: the row has 11 cells but the header has 10 columns: ${split}\n`,
    );
    writeFileSync(join(folder, 'cshift.csv'), 'ncm,quantity,unitPrice,discount,freight\n39269090,10,45,90,,\n');
    const cart = await quote(saleFlags('SP', 'RJ', 'taxpayer', '--items', 'cshift.csv'));
    expect(cart.code).toBe(65);
    expect(cart.stdout).toBe('');
    expect(cart.stderr).toBe(
      `error: cshift.csv: 1 problem in the items; nothing was quoted:\ncshift.csv:2: the row has 6 cells but the header has 5 columns: ${split}\n`,
    );
  });

  // The first refusal advised ending the header with a delimiter when every row ends with one; followed, the header's
  // spare unnamed column took the shifted row's last, empty, cell and the row loaded: ICMS-ST 251.02 for 97.98, exit 0.
  it('refuses the split row again once the header ends with a delimiter, and takes the right row beside it', async () => {
    const rows = '39269090,SP,RJ,taxpayer,12,,6,5,40,20,\n39,SP,SP,taxpayer,18,,6.5,40,18,,\n';
    const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate';
    const split =
      'the row has 11 cells but the header has 10 columns: in a comma-separated file a decimal comma splits its number into two cells (6,5 is 6 and 5); quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself, else check the delimiter and quotes';
    writeFileSync(join(folder, 'adv.csv'), `${header}\n${rows}`);
    const before = await quoteFrom('adv.csv', '39269090,10,45.90,0,12', 'RJ');
    expect(before.code).toBe(65);
    expect(before.stdout).toBe('');
    expect(before.stderr).toBe(
      `error: adv.csv: 2 problems in the tax table, which is not used:\nadv.csv:2: ${split}\nadv.csv:3: ${split}\n`,
    );
    writeFileSync(join(folder, 'adv2.csv'), `${header},\n${rows}`);
    const after = await quoteFrom('adv2.csv', '39269090,10,45.90,0,12', 'RJ');
    expect(after.code).toBe(65);
    expect(after.stdout).toBe('');
    expect(after.stderr).toBe(
      `error: adv2.csv: 1 problem in the tax table, which is not used:\nadv2.csv:2: the row fills column 10, the header's last named one, leaves its unnamed column 11 empty and holds whole numbers side by side, as a row does whose decimal comma split a number into two cells (6,5 is 6 and 5) and moved every later value one column right; quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself (in a comma-separated file whose header ends with a delimiter, such a row cannot be told from a right one)\n`,
    );
    writeFileSync(join(folder, 'adv3.csv'), `${header},\n${rows.split('\n')[1]}\n`);
    const right = await quoteFrom('adv3.csv', '39269090,10,45.90,0,12', 'SP', ['-q']);
    expect(right.code).toBe(0);
    expect(right.stderr).toBe('');
  });

  // A computed rate was refused as "must be a percentage such as 18 or 4.5, at most 100", which it is.
  it('refuses a rate of 5 decimals or more naming the rule it breaks, and takes 4', async () => {
    writeFileSync(join(folder, 'dz4.csv'), difalTable('18.1234'));
    expect((await quoteDifal('dz4.csv')).code).toBe(0);
    for (const rate of ['18.12345', '99.999999']) {
      writeFileSync(join(folder, 'dz5.csv'), difalTable(rate));
      const result = await quoteDifal('dz5.csv');
      expect(result.code).toBe(65);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: dz5.csv: 1 problem in the tax table, which is not used:\ndz5.csv:2: destinationRate "${rate}" has more than 4 decimals: a rate takes at most 4 (round it, such as 17.999999 to 18)\n`,
      );
    }
  });

  it('refuses a table with a wrong row or a repeated one, with file:line and the column', async () => {
    writeFileSync(
      join(folder, 'errado.csv'),
      'ncm;from;to;buyer;icmsRate;ipiRate\n8471;SP;XX;taxpayer;12;0\n8471;SP;RJ;Sim;12;0\n8471;SP;RJ;taxpayer;7;0\n84;SP;RJ;taxpayer;doze;0\n',
    );
    const result = await quoteFrom('errado.csv', '84713012,1,10', 'RJ');
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('errado.csv: 3 problems in the tax table, which is not used:');
    expect(result.stderr).toContain('errado.csv:2: to "XX" must be a state (UF) such as RJ');
    expect(result.stderr).toContain(
      'errado.csv:4: repeats the row of line 3 (NCM 8471, SP → RJ, taxpayer); keep one of them',
    );
    expect(result.stderr).toContain(
      'errado.csv:5: icmsRate "doze" must be a percentage such as 18 or 4.5, at most 100',
    );
  });
});

describe("an NF-e style table's pMVAST (the MVA applied, already adjusted between states)", () => {
  const nfeTable =
    'NCM/SH;UF origem;UF destino;Contribuinte;pICMS;pRedBC;pIPI;pMVAST;pICMSUFDest;pFCPUFDest\n3926.90.90;SP;RJ;Sim;12;;6,5;54;20;\n';
  const note =
    "Note: an NF-e's pMVAST is the MVA applied, already adjusted between states, not the original MVA that mva takes (b2bctl adjusts it itself, so read as mva an interstate row's MVA is adjusted twice): map the table's original MVA (MVA original) to mva; with no mva column, no row computes ICMS-ST.";

  function quoteNfe(extra: readonly string[], options: { answers?: string[] } = {}) {
    const tableFolder = temporaryFolder();
    writeFileSync(join(tableFolder, 'nfe.csv'), nfeTable);
    return runCommandLine(
      ['tax', 'quote', '--rules', 'nfe.csv', ...extra, '--from', 'SP', '--to', 'RJ', '--buyer', 'taxpayer'],
      {
        configDir: freshConfigDir(),
        cwd: tableFolder,
        ...(options.answers === undefined ? {} : { answers: options.answers, tty: { stdin: true, stderr: true } }),
      },
    );
  }

  it('is not mapped to mva without a word: the stop says what it holds', async () => {
    const result = await quoteNfe(['--write-map', 'nfe.map.json', '--item', '39269090,10,45.90,0,12']);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `\nerror: nfe.csv:2: column 8 (H) "pMVAST" holds "54" but no field reads it, so it would not be sent. Map it with {"pMVAST":"FIELD"} in a --map file, or leave it out with --ignore-column pMVAST. ${note}\n`,
    );
  });

  it('is asked about on a terminal with what it holds, mva offered as the original MVA', async () => {
    const result = await quoteNfe(['--write-map', 'nfe.map.json', '--item', '39269090,10,45.90,0,12'], {
      answers: [''],
    });
    expect(result.prompts).toEqual([
      {
        kind: 'select',
        message: `Column "pMVAST" (holds "54") is which field? (${note.slice('Note: '.length, -1)})`,
        // The fields no column reads: the MVA, and the destination's base reduction (a table of NF-e fields has none).
        choices: [
          'leave it out (its data is not sent)',
          "mva (the original MVA, not this column's adjusted one)",
          'destinationBaseReduction',
        ],
      },
    ]);
    expect(result.code).toBe(0);
  });

  it('left out with --ignore-column, the note says that no row computes ICMS-ST', async () => {
    const result = await quoteNfe([
      '--ignore-column',
      'pMVAST',
      '--write-map',
      'nfe.map.json',
      '--item',
      '39269090,10,45.90',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`nfe.csv:1: column "pMVAST" is left out (--ignore-column). ${note}\n`);
  });
});

/** `tax quote` of a SP → RJ taxpayer sale from a pt-BR table whose MVA column is headed `header`. */
function quoteLabelled(header: string, extra: readonly string[]) {
  const tableFolder = temporaryFolder();
  writeFileSync(
    join(tableFolder, 'mvast.csv'),
    `NCM;UF origem;UF destino;Contribuinte;Alíquota ICMS;Alíquota IPI;${header};Alíquota interna destino\n3926.90.90;SP;RJ;Sim;12;6,5;54;20\n`,
  );
  const sale = saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,1000');
  return runCommandLine(['tax', 'quote', '--rules', 'mvast.csv', ...extra, ...sale, '-o', 'json'], {
    configDir: freshConfigDir(),
    cwd: tableFolder,
  });
}

// A user test: a DIFAL of R$ 0.01 where the destination's internal rate equals the interstate rate.
describe('a sale to a non-taxpayer in another state whose internal rate equals the interstate rate', () => {
  it('owes no DIFAL: the double base may be a centavo above the operation, the value is 0.00', async () => {
    const tableFolder = temporaryFolder();
    writeFileSync(
      join(tableFolder, 'eq.csv'),
      'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n22021000,SP,PR,non-taxpayer,12,,0,,12,\n',
    );
    const items = ['--item', '22021000,1,2.04', '--item', '22021000,1,3.37', '--item', '22021000,1,100'];
    const result = await quoteSale(
      'eq.csv',
      tableFolder,
      saleFlags('SP', 'PR', 'non-taxpayer', ...items, '-o', 'json'),
    );
    expect(result.code).toBe(0);
    const quoted = JSON.parse(result.stdout) as { items: Record<string, unknown>[]; totals: Record<string, string> };
    expect(quoted.items.map((item) => item.difal)).toEqual([
      { base: '2.05', rate: '12', value: '0.00' },
      { base: '3.38', rate: '12', value: '0.00' },
      { base: '100.00', rate: '12', value: '0.00' },
    ]);
    expect(quoted.items.map((item) => (item.icms as { value: string }).value)).toEqual(['0.24', '0.40', '12.00']);
    expect(quoted.totals.difal).toBe('0.00');
  });
});

// A user test: `MVA-ST` was read as the original MVA, and the 54% already adjusted for 12% was adjusted again (69.4).
describe('a table whose MVA column is labelled MVA-ST, MVA ST or % MVA (as ERPs label the MVA applied)', () => {
  const note =
    "Note: a column labelled MVA-ST, MVA ST or % MVA is, as ERPs, DANFE screens and the states' tables of MVA-ST ajustada label it, most often the MVA applied (an NF-e's pMVAST), already adjusted between states, where mva takes the original MVA (b2bctl adjusts it itself, so read as mva an adjusted MVA is adjusted twice): map it to mva only if it holds the original MVA of the agreement, else map the table's original MVA (MVA original) to mva; with no mva column, no row computes ICMS-ST.";

  it.each(['MVA-ST', 'MVA ST', '% MVA'])('%s is not read as mva: the first run says what it holds', async (header) => {
    const result = await quoteLabelled(header, []);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `warning: mvast.csv:1: column "${header}" matches no field but holds data ("54"): map it, or leave it out with --ignore-column. ${note}\n`,
    );
    expect(result.stderr).not.toContain(`column "${header}" reads as mva`);
  });

  it.each(['MVA-ST', 'MVA ST', '% MVA'])('%s stops --write-map naming the column, nothing computed', async (header) => {
    const result = await quoteLabelled(header, ['--write-map', 'mvast.map.json']);
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: mvast.csv:2: column 7 (G) "${header}" holds "54" but no field reads it`);
    expect(result.stderr).toContain(note);
  });

  it('mapped to mva by the operator (it holds the original MVA), it is adjusted as the original', async () => {
    const tableFolder = temporaryFolder();
    const map = { 'UF origem': 'from', 'UF destino': 'to', Contribuinte: 'buyer', 'Alíquota ICMS': 'icmsRate' };
    const fields = {
      ...map,
      'Alíquota IPI': 'ipiRate',
      'MVA-ST': 'mva',
      'Alíquota interna destino': 'destinationRate',
    };
    writeFileSync(join(tableFolder, 'mvast.map.json'), JSON.stringify(fields));
    writeFileSync(
      join(tableFolder, 'mvast.csv'),
      'NCM;UF origem;UF destino;Contribuinte;Alíquota ICMS;Alíquota IPI;MVA-ST;Alíquota interna destino\n3926.90.90;SP;RJ;Sim;12;6,5;40;20\n',
    );
    const result = await quoteSale(
      'mvast.csv',
      tableFolder,
      saleFlags('SP', 'RJ', 'taxpayer', '--map', 'mvast.map.json', '--item', '39269090,10,45.90,0,12', '-o', 'json'),
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toEqual([workedExample2]);
  });
});

/** The load warning of an interstate row of inter.csv whose icmsRate is not the pair's. */
const warning = (line: number, rate: string, to: string, expected: number) =>
  `warning: inter.csv:${line}: icmsRate "${rate}" is not the interstate rate from SP to ${to}, which is ${expected} (4 for imported goods; Resoluções do Senado Federal 22/1989 and 13/2012): taken as written, as a special rule may set it, but if it is the destination's internal rate it belongs in destinationRate`;

// A user test: 18% and 20% (internal rates typed in the interstate column) and 7% SP → MG loaded without a word.
describe('a row between two states whose icmsRate is not the interstate rate of the pair', () => {
  const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';

  function quoteInter(rows: string, buyer = 'non-taxpayer') {
    const tableFolder = temporaryFolder();
    writeFileSync(join(tableFolder, 'inter.csv'), `${header}${rows}`);
    const sale = saleFlags('SP', 'RJ', buyer, '--item', '84713012,1,100', '-o', 'json');
    return quoteSale('inter.csv', tableFolder, sale);
  }

  it('warns at load with file:line (18% SP → RJ), counts the other rows, and computes as written', async () => {
    const result = await quoteInter(
      '84713012,SP,RJ,taxpayer,18,,0,,20,\n84713012,SP,RJ,non-taxpayer,20,,0,,20,2\n84713012,SP,MG,taxpayer,7,,0,,18,\n',
    );
    expect(result.code).toBe(0);
    // A user test: the other rows were only counted, and the consultant had to hunt them.
    expect(result.stderr).toBe(
      `${warning(2, '18', 'RJ', 12)} (and 2 more rows between states at another rate: inter.csv:3 (SP → RJ at 20, not 12), inter.csv:4 (SP → MG at 7, not 12)).\n`,
    );
    expect(JSON.parse(result.stdout)).toHaveProperty('items.0.icms.value', '20.00');
  });

  it('names the first 100 other rows by their place and counts the rest, in one line', async () => {
    const rows = Array.from({ length: 103 }, (_, index) => `${1000 + index},SP,MG,taxpayer,7,,0,,18,\n`).join('');
    const result = await quoteInter(`84713012,SP,RJ,taxpayer,12,,0,,20,\n${rows}`, 'taxpayer');
    expect(result.code).toBe(0);
    const named = Array.from({ length: 100 }, (_, index) => `inter.csv:${index + 4} (SP → MG at 7, not 12)`);
    expect(result.stderr).toBe(
      `${warning(3, '7', 'MG', 12)} (and 102 more rows between states at another rate: ${named.join(', ')} and 2 more, not named one by one).\n`,
    );
  });

  it('names 7% from SP to MG (12 there), and says nothing of 12% to RJ, 7% to BA, 4% anywhere or a row inside SP', async () => {
    const alone = await quoteInter('84713012,SP,RJ,non-taxpayer,12,,0,,20,\n84713012,SP,MG,taxpayer,7,,0,,18,\n');
    expect(alone.stderr).toBe(`${warning(3, '7', 'MG', 12)}.\n`);
    const right = await quoteInter(
      '84713012,SP,RJ,non-taxpayer,12,,0,,20,\n84713012,SP,BA,taxpayer,7,,0,,20.5,\n84713012,SP,MG,taxpayer,4,,0,,18,\n84713012,SP,SP,taxpayer,18,,0,,18,\n',
    );
    expect(right.code).toBe(0);
    expect(right.stderr).toBe('');
  });
});

describe('a table that states an FCP rate on a row where b2bctl applies none', () => {
  const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';

  function quoteFst(rows: string) {
    const tableFolder = temporaryFolder();
    writeFileSync(join(tableFolder, 'fst.csv'), `${header}${rows}`);
    return runCommandLine(['tax', 'quote', '--rules', 'fst.csv', ...example2Sale], {
      configDir: freshConfigDir(),
      cwd: tableFolder,
    });
  }

  it('warns with the row’s file:line that an ICMS-ST row’s FCP is not applied, and quotes without it', async () => {
    const result = await quoteFst('39,SP,RJ,taxpayer,12,,6.5,40,20,2\n');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('totals.added', '128.60');
    expect(result.stderr).toContain(
      'warning: fst.csv:2: fcpRate "2" is not applied: b2bctl adds FCP only with DIFAL (a non-taxpayer buyer in another state) and computes no FCP retained by ICMS-ST nor FCP on own ICMS (docs/tax.md), so this row\'s products get no FCP.\n',
    );
  });

  it('says it once for the table, counting the other rows; a DIFAL row’s FCP is applied and not warned of', async () => {
    const result = await quoteFst(
      '39,SP,RJ,taxpayer,12,,6.5,40,20,2\n39,SP,RJ,non-taxpayer,12,,6.5,,20,2\n39,SP,SP,taxpayer,18,,6.5,,18,2\n39,SP,SP,non-taxpayer,18,,6.5,,18,2\n',
    );
    expect(result.code).toBe(0);
    expect(result.stderr.match(/fcpRate/g)).toHaveLength(1);
    expect(result.stderr).toContain(
      "so this row's products get no FCP (and 2 more rows with an FCP rate that is not applied: fst.csv:4, fst.csv:5).\n",
    );
  });
});

describe('a table whose destination rate is 100 (the ST and DIFAL formulas divide by 100% minus it)', () => {
  it.each([
    ['a final consumer in another state (DIFAL)', '85,SP,MG,non-taxpayer,12,,5,,100,2', 'MG', 'non-taxpayer'],
    ['a taxpayer under ICMS-ST', '85,SP,RJ,taxpayer,12,,5,40,100,', 'RJ', 'taxpayer'],
  ])('is refused at load with its file:line for %s, nothing quoted', async (_what, row, to, buyer) => {
    const tableFolder = temporaryFolder();
    writeFileSync(
      join(tableFolder, 'dz.csv'),
      `ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n${row}\n`,
    );
    const result = await runCommandLine(
      ['tax', 'quote', '--rules', 'dz.csv', '--from', 'SP', '--to', to, '--buyer', buyer, '--item', '85166000,1,2000'],
      { configDir: freshConfigDir(), cwd: tableFolder },
    );
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `dz.csv:2: destinationRate "100" must be under 100: the ICMS-ST and DIFAL bases are divided by (100% − the destination's internal rate); write that state's internal rate, such as 18\n`,
    );
  });
});

describe('a table whose ICMS rates are written as fractions', () => {
  it('0.12 (12% as a fraction) is refused with the fix, not read as 0.12%', async () => {
    const tableFolder = temporaryFolder();
    writeFileSync(
      join(tableFolder, 't1.csv'),
      'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n39269090,SP,RJ,taxpayer,0.12,,6.5,40,0.2,\n',
    );
    const result = await quoteSpToRj('t1.csv', tableFolder);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      't1.csv:2: icmsRate "0.12" 0.12 reads as 0.12%, and no ICMS rate is that low: write the percentage (12 for 12%, not 0.12)',
    );
    expect(result.stdout).toBe('');
  });
});

describe('a table whose other rates are written as fractions', () => {
  it.each([
    [
      'ipiRate',
      '12,0,0.065,40,20,',
      'ipiRate "0.065" 0.065 reads as 0.065%, and no IPI rate above 0 is that low: write the percentage (6.5 for 6.5%, not 0.065)',
    ],
    [
      'mva',
      '12,,6.5,0.40,20,',
      'mva "0.40" 0.4 reads as 0.4%, and no MVA is that low: write the percentage (40 for 40%, not 0.40)',
    ],
    [
      'icmsBaseReduction',
      '12,0.3333,6.5,40,20,',
      'icmsBaseReduction "0.3333" 0.3333 reads as 0.3333%, and no base reduction is that low',
    ],
    ['fcpRate', '12,,6.5,40,20,0.02', 'fcpRate "0.02" 0.02 reads as 0.02%, and no FCP rate above 0 is that low'],
  ])('%s as a fraction is refused with the fix, nothing quoted', async (_field, rates, message) => {
    const tableFolder = temporaryFolder();
    writeFileSync(
      join(tableFolder, 't.csv'),
      `ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n39269090,SP,RJ,taxpayer,${rates}\n`,
    );
    const result = await quoteSpToRj('t.csv', tableFolder);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(`t.csv:2: ${message}`);
    expect(result.stdout).toBe('');
  });
});

/** A table of one DIFAL row (SP → MG, a non-taxpayer) whose destination rate is `rate`. */
function difalTable(rate: string): string {
  return `ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n85,SP,MG,non-taxpayer,12,,5,,${rate},2\n`;
}

/** `tax quote -q` of one oven (NCM 8516.60.00, 2,000) sold SP → MG to a non-taxpayer, from the table `rules`. */
function quoteDifal(rules: string) {
  return quoteSale(rules, folder, saleFlags('SP', 'MG', 'non-taxpayer', '--item', '85166000,1,2000', '-q'));
}

// A user test: a Convênio ICMS 52/91 machine sold SP → MG to a final consumer (8.80% in both operations) was given a
// DIFAL of R$ 536.56 per R$ 10,000 where none is owed, with no word at load.
describe('a DIFAL row with a base reduction', () => {
  const header =
    'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate,destinationBaseReduction\n';
  const machineSale = saleFlags('SP', 'MG', 'non-taxpayer', '--item', '84596100,1,10000', '-o', 'json');

  function quoteMachine(rows: string) {
    const tableFolder = temporaryFolder();
    writeFileSync(join(tableFolder, 'conv52.csv'), `${header}${rows}`);
    return runCommandLine(['tax', 'quote', '--rules', 'conv52.csv', ...machineSale], {
      configDir: freshConfigDir(),
      cwd: tableFolder,
    });
  }

  it('takes the destination’s own reduction from destinationBaseReduction: equal loads owe no DIFAL, no warning', async () => {
    const result = await quoteMachine('84596100,SP,MG,non-taxpayer,12,26.6667,0,,18,,51.1111\n');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).items[0]).toMatchObject({
      icms: { base: '7333.33', rate: '12', value: '880.00' },
      difal: { base: '4888.89', rate: '18', value: '0.00' },
    });
  });

  it('without it, warns with the row’s file:line that the destination is taken to reduce alike, and computes so', async () => {
    const result = await quoteMachine('84596100,SP,MG,non-taxpayer,12,26.67,0,,18,,\n');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).items[0]).toMatchObject({
      icms: { base: '7333.00', value: '879.96' },
      difal: { base: '7704.70', rate: '18', value: '506.89' },
    });
    expect(result.stderr).toBe(
      'warning: conv52.csv:2: icmsBaseReduction "26.67" on a row with DIFAL, and no destinationBaseReduction: the DIFAL takes the destination\'s internal operation as reduced alike (18% on 26.67% less of the value); where the destination reduces its base otherwise (Convênio ICMS 52/91 sets one load in both operations) or not at all, write its reduction in destinationBaseReduction, 0 for none.\n',
    );
    const none = await quoteMachine('84596100,SP,MG,non-taxpayer,12,26.67,0,,18,,0\n');
    expect(none.stderr).toBe('');
    expect(JSON.parse(none.stdout).items[0]).toMatchObject({ difal: { base: '11122.00', value: '1122.00' } });
  });
});

// A user test: rows a consultant would check, loaded without a word; rates an ERP writes, refused without the fix.
describe('a table’s rows that load with a warning, and rates refused saying what to write', () => {
  const header = 'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate\n';

  function quoteRows(rows: string, sale = example2Sale) {
    const tableFolder = temporaryFolder();
    writeFileSync(join(tableFolder, 'checks.csv'), `${header}${rows}`);
    return runCommandLine(['tax', 'quote', '--rules', 'checks.csv', ...sale], {
      configDir: freshConfigDir(),
      cwd: tableFolder,
    });
  }

  it('warns with file:line of an MVA on a non-taxpayer’s row, and of an ST row inside a state at two rates', async () => {
    const result = await quoteRows(
      '39,SP,RJ,taxpayer,12,,6.5,40,20,\n22021000,SP,RJ,non-taxpayer,12,,0,40,20,2\n22021000,SP,SP,taxpayer,18,,0,40,17,\n22021000,SP,SP,non-taxpayer,18,,0,,18,\n',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('totals.added', '128.60');
    expect(result.stderr).toBe(
      'warning: checks.csv:3: mva "40" is not applied: ICMS-ST is computed only for a taxpayer buyer (docs/tax.md), and this row is a non-taxpayer\'s.\n' +
        'warning: checks.csv:4: destinationRate "17" differs from icmsRate "18" on a row inside SP, which has one internal rate for a product: the own ICMS is computed at 18% and ICMS-ST at 17%.\n',
    );
  });

  it('refuses NT saying to write 0, and reads an ERP’s 5,00000 as 5; nothing else loads', async () => {
    const nt = await quoteRows('39,SP,RJ,taxpayer,12,,NT,40,20,\n');
    expect(nt.code).toBe(65);
    expect(nt.stdout).toBe('');
    expect(nt.stderr).toContain(
      'checks.csv:2: ipiRate "NT" must be a percentage such as 18 or 4.5, at most 100: write 0 for NT (não tributado), isento or suspenso\n',
    );
    const fixed = await quoteRows('39,SP,RJ,taxpayer,"12,00000",,"6,50000",40,20,\n');
    expect(fixed.stderr).toBe('');
    expect(JSON.parse(fixed.stdout)).toHaveProperty('totals.added', '128.60');
    expect(JSON.parse(fixed.stdout)).toHaveProperty('items.0.ipi.rate', '6.5');
    const fifth = await quoteRows('39,SP,RJ,taxpayer,12,,6.50001,40,20,\n');
    expect(fifth.stderr).toContain('ipiRate "6.50001" has more than 4 decimals');
  });
});
