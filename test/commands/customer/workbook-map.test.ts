/**
 * A workbook's column that no field reads, on a terminal: b2bctl offers the map and asks what the column is, as it
 * does for the same data saved as CSV, showing the column's first value. Before, a workbook's columns had no sample
 * at the header, so `create` of a LibreOffice-made .xlsx stopped at its first row instead of offering the map, and
 * `--write-map` asked about a column "empty in the first rows" that held a date in the first.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const workbook = 'clientes-corrigido.xlsx';

function workspace(): string {
  const folder = temporaryFolder();
  copyFileSync(join(repoRoot, 'test', 'fixtures', 'libreoffice', workbook), join(folder, workbook));
  return folder;
}

describe('a workbook column no field reads, on a terminal', () => {
  it('validate offers the map, as for a CSV; declined, nothing is read', async () => {
    const result = await runCommandLine(['customer', 'validate', workbook], {
      configDir: freshConfigDir(),
      cwd: workspace(),
      tty: { stdin: true, stderr: true },
      answers: ['no'],
    });
    expect(result.prompts.map((prompt) => prompt.message)).toEqual([
      'Read the file with this map, and save it as clientes-corrigido.map.json for --map?',
    ]);
    expect(result.stderr).toContain('column "Data de cadastro" matches no field');
  });

  it('--write-map asks what the column is, showing its first value', async () => {
    const result = await runCommandLine(['customer', 'validate', workbook, '--write-map', 'map.json'], {
      configDir: freshConfigDir(),
      cwd: workspace(),
      tty: { stdin: true, stderr: true },
      answers: [''],
    });
    expect(result.code).toBe(0);
    expect(result.prompts.map((prompt) => prompt.message)).toEqual([
      'Column "Data de cadastro" (holds "2024-03-05") is which field?',
    ]);
  });
});
