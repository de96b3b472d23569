/**
 * `--write-map` on a terminal asks which field each column no field reads is: the fields offered are those no other
 * column feeds. A field another column already feeds, chosen for a second column, made a map that the next read
 * refused ("column sku appears 2 times"), saved for every later run. Seen with the LibreOffice export
 * `estoque.win1252.csv`, whose own columns feed every stock field.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** `stock validate ARGS` with stdin and stderr a terminal, the prompts answered with `answers`, in `folder`. */
const onTerminal = (folder: string, configDir: string, args: string[], answers: string[]) =>
  runCommandLine(['stock', 'validate', ...args], {
    configDir,
    cwd: folder,
    tty: { stdin: true, stderr: true },
    answers,
  });

const savedMap = (folder: string) => JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8')) as unknown;

describe('stock validate --write-map on a terminal', () => {
  it('refuses a map file that exists (a hand-edited one), asking nothing, and leaves it as it was', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'estoque.csv'),
      'sku;quantity;price;descrição\r\nPAR-SXT-M8X40-ZN;1500;1234,50;Parafuso sextavado M8 x 40 mm\r\n',
    );
    const handEdited = '{"descrição":null,"Depósito":"warehouse"}\n';
    writeFileSync(join(folder, 'map.json'), handEdited);
    const result = await onTerminal(folder, freshConfigDir(), ['estoque.csv', '--write-map', 'map.json'], ['']);
    expect(result.code).toBe(2);
    expect(result.prompts).toEqual([]);
    expect(result.stderr).toBe(
      'error: --write-map map.json: the file exists (a map saved before, perhaps edited since); nothing was written. Read the file with it: --map map.json; to save a new map, delete it or give --write-map another file.\n',
    );
    expect(readFileSync(join(folder, 'map.json'), 'utf8')).toBe(handEdited);
  });

  it('offers for an unknown column only the fields no other column feeds', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'estoque.csv'),
      'sku;quantity;price;descrição\r\nPAR-SXT-M8X40-ZN;1500;1234,50;Parafuso sextavado M8 x 40 mm\r\n',
    );
    const result = await onTerminal(folder, freshConfigDir(), ['estoque.csv', '--write-map', 'map.json'], ['']);
    expect(result.code).toBe(0);
    expect(result.prompts).toHaveLength(1);
    const offered = result.prompts[0]?.choices ?? [];
    expect(offered).toContain('leave it out (its data is not sent)');
    expect(offered.filter((choice) => ['sku', 'quantity', 'price'].includes(choice))).toEqual([]);
    expect(offered).toEqual(expect.arrayContaining(['salePrice', 'warehouse']));
    expect(savedMap(folder)).toEqual({ descrição: null });
  });

  it('asks nothing about a column when every field is read from another one: it is left out', async () => {
    const folder = temporaryFolder();
    const file = 'estoque.win1252.csv';
    copyFileSync(join(repoRoot, 'test', 'fixtures', 'real-exports', file), join(folder, file));
    const configDir = freshConfigDir();
    const written = await onTerminal(folder, configDir, [file, '--write-map', 'map.json'], []);
    expect(written.code).toBe(0);
    expect(written.prompts).toEqual([]);
    expect(savedMap(folder)).toEqual({ descrição: null, 'atualizado em': null });
    // Without --write-map, the offer says so rather than promising a question.
    const offered = await onTerminal(folder, configDir, [file], ['yes']);
    expect(offered.code).toBe(0);
    expect(offered.prompts.map((prompt) => prompt.choices?.[0])).toEqual([
      'yes, and leave out the columns no field reads (every field has one)',
    ]);
  });
});
