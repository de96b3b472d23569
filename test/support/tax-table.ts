import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTaxTable } from '../../src/tax/table-file.js';
import { WatchedTaxTable } from '../../src/tax/watched-table.js';
import { temporaryFolder } from './temporary.js';
import { testContext } from './test-context.js';

const fixtures = join(__dirname, '..', 'fixtures', 'tax');

/**
 * The tax table LibreOffice saved (test/fixtures/tax, with its map) copied into a fresh folder and watched as
 * `tax serve` watches it, started; `log` takes its lines. `rules` is the copy a test may change to see a reload.
 */
export async function watchedFixtureTable(
  prefix: string,
  log: (line: string) => void = () => {},
): Promise<{ table: WatchedTaxTable; rules: string }> {
  const folder = temporaryFolder(prefix);
  const rules = join(folder, 'impostos.csv');
  copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), rules);
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: join(folder, 'config') } });
  const table = new WatchedTaxTable(
    rules,
    () => readTaxTable(memory.context, rules, { strict: false, map: join(fixtures, 'impostos.map.json') }),
    { info: log, error: log },
    () => Date.now(),
  );
  await table.start();
  return { table, rules };
}
