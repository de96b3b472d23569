/**
 * A workbook's number cell with a fraction a field refuses (a pt-BR export opened in an English-locale Calc: `80.359`
 * for 80 359): it was told "pass --decimal , to read it so", and with `--decimal ,` the price cell beside it "pass
 * --decimal ." (a user test); --decimal reads text cells only, so neither changed a thing. The advice now says the
 * cell is a number and what does change it, with or without the flag; a text cell keeps its --decimal advice.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { writeXlsx } from '../../support/workbook-writer.js';

const header =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>quantity</t></is></c><c r="C1" t="inlineStr"><is><t>price</t></is></c></row>';
const numberCells =
  '<row r="2"><c r="A2" t="inlineStr"><is><t>N1</t></is></c><c r="B2"><v>80.359</v></c><c r="C2"><v>1.234</v></c></row>';

async function validate(flags: string[]) {
  const folder = freshWorkDir();
  writeXlsx(join(folder, 'f3.xlsx'), `${header}${numberCells}`);
  const args = ['stock', 'validate', 'f3.xlsx', ...flags];
  return await runCommandLine(args, { configDir: freshConfigDir(), cwd: folder });
}

describe('stock validate of a workbook whose number cells hold 3 decimals', () => {
  it.each([[[]], [['--decimal', ',']], [['--decimal', '.']]])(
    'with %j: advice that can be followed, never --decimal, exit 65',
    async (flags) => {
      const result = await validate(flags);
      expect(result.code).toBe(65);
      const problems = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { field: string; message: string });
      expect(problems.map((problem) => problem.field)).toEqual(['quantity', 'price']);
      expect(problems[0]?.message).toBe(
        "Property [quantity] with value [80.359] does not pass validation (quantity must be a whole number of 0 or more; the cell is the number 80.359 (80,359 on a pt-BR screen), which --decimal does not change, as it reads text cells: round it in the sheet; if it was 80359 (a pt-BR export opened with another language's settings), import the CSV again as Portuguese (Brazil), or type the value again)",
      );
      expect(problems[1]?.message).toContain(
        'price must have at most 2 decimals; the cell is the number 1.234 (1,234 on a pt-BR screen)',
      );
      for (const problem of problems) expect(problem.message).not.toMatch(/pass --decimal/);
    },
  );

  it('a text cell 80,5 in a whole-number column is not called a number cell', async () => {
    const folder = freshWorkDir();
    const textRow =
      '<row r="2"><c r="A2" t="inlineStr"><is><t>N1</t></is></c><c r="B2" t="inlineStr"><is><t>80,5</t></is></c></row>';
    writeXlsx(join(folder, 't.xlsx'), `${header}${textRow}`);
    const result = await runCommandLine(['stock', 'validate', 't.xlsx'], { configDir: freshConfigDir(), cwd: folder });
    expect(result.code).toBe(65);
    expect(result.stdout).not.toContain('the cell is the number');
  });
});
