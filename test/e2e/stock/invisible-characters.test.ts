/**
 * Control and invisible characters (issue 10, item 14): rejected in every text field with the line,
 * nothing sent; and what `validate` prints on a terminal is rendered by a real terminal emulator
 * (@xterm/headless) to check an OSC sequence in a SKU cannot set the window title.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import { requestCounts } from '../../support/sandbox.js';
import { stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const header = 'sku;quantity;price;salePrice;warehouse';
/** Enough valid rows that the bad byte sits past the 4 KB the binary sniff looks at. */
const filler = Array.from({ length: 200 }, (_, index) => `PAR-SXT-M8X40-ZN;1;1,00;;WAREHOUSE-${index}`);

function workspace(content: string) {
  const dir = freshWorkDir();
  writeFileSync(join(dir, 'in.csv'), content);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { dir, run: (args: string[]) => runCli(args, { configDir: freshConfigDir(), cwd: dir, env }) };
}

describe('control and invisible characters are refused in every text field, nothing sent', () => {
  const cases: [string, string, string][] = [
    [
      'a NUL after the first 4 KB in a warehouse',
      'PAR-SXT-M8X40-ZN;1;1,00;;Ana\u0000Maria',
      'field "warehouse" holds an invisible or control character (U+0000) at character 4',
    ],
    [
      'U+0085 (NEL) in a SKU',
      'PAR-SXT\u0085M8X40-ZN;1;1,00;;CD',
      'field "sku" holds an invisible or control character (U+0085) at character 8',
    ],
    [
      'U+202E (right-to-left override) in a SKU',
      'PAR-SXT-M8X40-ZN\u202E;1;1,00;;CD',
      'field "sku" holds an invisible or control character (U+202E) at character 17',
    ],
    [
      'U+200B (zero width space) in a warehouse',
      'PAR-SXT-M8X40-ZN;1;1,00;;CD\u200BSP',
      'field "warehouse" holds an invisible or control character (U+200B) at character 3',
    ],
    [
      'U+2028 (line separator) in a warehouse',
      'PAR-SXT-M8X40-ZN;1;1,00;;CD\u2028SP',
      'field "warehouse" holds an invisible or control character (U+2028) at character 3',
    ],
  ];
  for (const [name, row, message] of cases) {
    it(`${name}`, async () => {
      const { run } = workspace(`${header}\r\n${filler.join('\r\n')}\r\n${row}\r\n`);
      const result = await run(['stock', 'push', 'in.csv']);
      expect(result.stderr).toContain(`in.csv:202: ${message}; delete it (in a spreadsheet, retype the cell)`);
      expect(result.code).toBe(65);
      expect(await requestCounts(sandbox)).toEqual({});
      expect((await stockSummary(sandbox)).lines).toBe(0);
    });
  }
});

describe.skipIf(pseudoTerminal.missing)(
  `validate on a terminal prints non-printable characters escaped${pseudoTerminal.note}`,
  () => {
    it('an OSC "set title" sequence in a SKU does not change the window title; the screen shows it escaped', async () => {
      const { dir } = workspace(`${header}\r\nPAR-\u001B]0;pwned\u0007X;1;1,00;;CD\r\n`);
      const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token, B2BCTL_CONFIG_DIR: freshConfigDir() };
      const { code, screen: rendered } = await onTerminal(['stock', 'validate', 'in.csv', '-o', 'table'], {
        cwd: dir,
        env,
        columns: 200,
        rows: 30,
      });
      const screen = rendered.lines.join('\n');
      expect(rendered.titles).toEqual([]);
      expect(screen).toContain('in.csv:2: field "sku" holds an invisible or control character (U+001B) at character 5');
      // One message for the character (issue 10, item 5): the stock rule's own "must not contain control characters" is not repeated.
      expect(screen).not.toContain('with value [PAR-\\u{1B}]0] does not pass validation');
      expect(screen).not.toContain('pwned\u0007');
      expect(code).toBe(65);
      expect(await requestCounts(sandbox)).toEqual({});
    });
  },
);
