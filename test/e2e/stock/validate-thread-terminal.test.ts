/**
 * A workbook validated on its thread, on a real terminal: what the thread prints (the problems, the closing line) and
 * asks (a prompt drawn by the main thread's prompter, answered with the keyboard) is relayed, so the operator's
 * screen is the one the main thread would have left. Each case runs the same command line with
 * `input.workbookThreadMb` off, then 0 (every workbook on the thread), and compares the rendered screens.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { onTerminal, pseudoTerminal, type RunningOnTerminal } from '../../support/pseudo-terminal.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** The timing of the closing line, the one figure that differs from run to run. */
const untimed = (line: string) => line.replaceAll(/ in \d+\.\d s\./g, ' in N s.');

/** The map a run saved in its folder. */
const savedMap = (folder: string) => JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8')) as unknown;

/** The command line on a terminal 80 columns wide, with the workbook on the main thread, then on the thread. */
async function bothWays(workbook: string, args: string[], during?: (running: RunningOnTerminal) => Promise<void>) {
  const configDir = freshConfigDir();
  // A folder each: the map one run saves would refuse the other's --write-map.
  const run = async (where: 'off' | '0') => {
    const folder = freshWorkDir();
    copyFileSync(workbook, join(folder, workbook.split('/').at(-1) as string));
    const set = await runCli(['config', 'set', 'input.workbookThreadMb', where], { configDir });
    expect(set.code).toBe(0);
    const { code, screen } = await onTerminal(args, {
      cwd: folder,
      env: { B2BCTL_CONFIG_DIR: configDir },
      columns: 80,
      during,
    });
    return { code, ...screen, lines: screen.lines.map(untimed), folder };
  };
  return { here: await run('off'), there: await run('0') };
}

describe.skipIf(pseudoTerminal.missing)(
  `a workbook validated on its thread, on a terminal${pseudoTerminal.note}`,
  () => {
    it.each([
      ['a workbook with problems', 'estoque-variado.xlsx', 65, 'estoque-variado.xlsx: 6 records, 4 valid, 2 invalid'],
      ['3,000 valid rows', 'estoque-3000.xlsx', 0, 'estoque-3000.xlsx: 3000 records, 3000 valid, 0 invalid'],
    ])('%s: the same screen, the cursor shown and wrapping on', async (_case, name, exit, closing) => {
      const workbook = join(repoRoot, 'test', 'fixtures', 'workbooks', name);
      const { here, there } = await bothWays(workbook, ['stock', 'validate', name, '--ignore-column', 'atualizado em']);
      expect(here.code).toBe(exit);
      expect(here.lines.some((line) => line.startsWith(closing))).toBe(true);
      expect(there.cursorHidden).toBe(false);
      expect(there.wraparound).toBe(true);
      expect({ code: there.code, lines: there.lines }).toEqual({ code: here.code, lines: here.lines });
    });

    it('a question asked from the thread is drawn and answered at the keyboard, and the map saved the same', async () => {
      const workbook = join(repoRoot, 'test', 'fixtures', 'libreoffice', 'clientes-corrigido.xlsx');
      const { here, there } = await bothWays(
        workbook,
        ['customer', 'validate', 'clientes-corrigido.xlsx', '--write-map', 'map.json'],
        async ({ printed, type }) => {
          // Once the question is on the screen, Enter takes the choice it offers first.
          await printed('is which field?');
          type('\r');
        },
      );
      expect(here.code).toBe(0);
      expect(here.lines.some((line) => line.startsWith('✔ Column "Data de cadastro"'))).toBe(true);
      expect(here.lines).toContain(
        'map: saved to map.json; pass --map map.json from now on (edit it to change a column).',
      );
      expect({ code: there.code, lines: there.lines }).toEqual({ code: here.code, lines: here.lines });
      expect(savedMap(there.folder)).toEqual(savedMap(here.folder));
      expect(savedMap(there.folder)).toEqual({ 'Data de cadastro': null });
    });
  },
);
