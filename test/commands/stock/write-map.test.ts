/**
 * `--write-map` on a terminal asks which field each column no field reads is: the fields offered are those no other
 * column feeds. A field another column already feeds, chosen for a second column, made a map that the next read
 * refused ("column sku appears 2 times"), saved for every later run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe('stock validate --write-map on a terminal', () => {
  it('offers for an unknown column only the fields no other column feeds', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'estoque.csv'),
      'sku;quantity;price;descrição\r\nPAR-SXT-M8X40-ZN;1500;1234,50;Parafuso sextavado M8 x 40 mm\r\n',
    );
    const result = await runCommandLine(['stock', 'validate', 'estoque.csv', '--write-map', 'map.json'], {
      configDir: freshConfigDir(),
      cwd: folder,
      tty: { stdin: true, stderr: true },
      answers: [''],
    });
    expect(result.code).toBe(0);
    expect(result.prompts).toHaveLength(1);
    const offered = result.prompts[0]?.choices ?? [];
    expect(offered).toContain('leave it out (its data is not sent)');
    expect(offered.filter((choice) => ['sku', 'quantity', 'price'].includes(choice))).toEqual([]);
    expect(offered).toEqual(expect.arrayContaining(['salePrice', 'warehouse']));
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toEqual({ descrição: null });
  });

  it('asks nothing about a column when every field is read from another one: it is left out', async () => {
    const folder = temporaryFolder();
    writeFileSync(
      join(folder, 'estoque.csv'),
      'sku;quantity;price;salePrice;warehouse;descrição\r\nPAR-SXT-M8X40-ZN;1500;1234,50;;CD-SP;Parafuso\r\n',
    );
    const configDir = freshConfigDir();
    const written = await runCommandLine(['stock', 'validate', 'estoque.csv', '--write-map', 'map.json'], {
      configDir,
      cwd: folder,
      tty: { stdin: true, stderr: true },
      answers: [],
    });
    expect(written.code).toBe(0);
    expect(written.prompts).toEqual([]);
    expect(JSON.parse(readFileSync(join(folder, 'map.json'), 'utf8'))).toEqual({ descrição: null });
    // Without --write-map, the offer says so rather than promising a question.
    const offered = await runCommandLine(['stock', 'validate', 'estoque.csv'], {
      configDir,
      cwd: folder,
      tty: { stdin: true, stderr: true },
      answers: ['yes'],
    });
    expect(offered.code).toBe(0);
    expect(offered.prompts.map((prompt) => prompt.choices?.[0])).toEqual([
      'yes, and leave out the column no field reads (every field has one)',
    ]);
  });
});
