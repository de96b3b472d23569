/**
 * On a terminal, the offer to save the map beside the input, when a map saved before (yesterday's, edited by hand)
 * holds that name: answering yes replaced it without a word, while `--write-map` refuses such a file. The question
 * now names the kept file and saves under the next free name; this is what the operator sees and answers. Ctrl-Z
 * at the question and `fg` go on with it.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { inRawMode, onTerminal, pseudoTerminal } from '../../support/pseudo-terminal.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe.skipIf(pseudoTerminal.missing)(`the map offered on a terminal${pseudoTerminal.note}`, () => {
  it('keeps a map saved before under its name: the question names it, and yes saves beside it', async () => {
    const folder = freshWorkDir();
    copyFileSync(join(repoRoot, 'samples', 'clientes-erp.csv'), join(folder, 'clientes-erp.csv'));
    // Yesterday's map, the complement left out by hand.
    const edited = `${JSON.stringify({ 'CPF/CNPJ': 'document', Complemento: null })}\n`;
    writeFileSync(join(folder, 'clientes-erp.map.json'), edited);
    const { code, screen } = await onTerminal(['customer', 'validate', 'clientes-erp.csv'], {
      cwd: folder,
      env: { B2BCTL_CONFIG_DIR: freshConfigDir() },
      columns: 200,
      during: async ({ printed, type }) => {
        // Enter takes the first choice, yes.
        await printed('for --map?');
        type('\r');
      },
    });
    expect(code).toBe(0);
    expect(
      screen.lines.some((line) =>
        line.endsWith(
          'clientes-erp.map.json exists (a map saved before, perhaps edited since) and is kept. Read the file with this map, and save it as clientes-erp-2.map.json for --map? yes',
        ),
      ),
    ).toBe(true);
    expect(screen.lines).toContain(
      'map: saved to clientes-erp-2.map.json; pass --map clientes-erp-2.map.json from now on (edit it to change a column).',
    );
    expect(readFileSync(join(folder, 'clientes-erp.map.json'), 'utf8')).toBe(edited);
    expect(JSON.parse(readFileSync(join(folder, 'clientes-erp-2.map.json'), 'utf8'))).toMatchObject({
      'CPF/CNPJ': 'document',
      Complemento: 'customerRegistrationAddress.complement',
    });
  });

  it('Ctrl-Z at the question, then fg: the question goes on, and Enter answers it', async () => {
    const folder = freshWorkDir();
    copyFileSync(join(repoRoot, 'samples', 'clientes-erp.csv'), join(folder, 'clientes-erp.csv'));
    const { code, screen } = await onTerminal(['customer', 'validate', 'clientes-erp.csv'], {
      cwd: folder,
      env: { B2BCTL_CONFIG_DIR: freshConfigDir() },
      columns: 200,
      during: async ({ pid, printed, type }) => {
        await printed('for --map?');
        type('\x1a');
        // Ctrl-Z makes readline give the terminal back (line mode) and stop the process. Here the kernel ignores
        // the stop (the process leads its own session, an orphaned job), so SIGCONT is sent as `fg` would send it.
        while (inRawMode(pid)) await sleep(20);
        process.kill(pid, 'SIGCONT');
        while (!inRawMode(pid)) await sleep(20);
        type('\r');
      },
    });
    expect(code).toBe(0);
    expect(screen.lines).toContain(
      'map: saved to clientes-erp.map.json; pass --map clientes-erp.map.json from now on (edit it to change a column).',
    );
  });
});
