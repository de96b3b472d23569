import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { checkTaxRule, TaxTable } from '../../src/domain/tax/rules.js';
import { readTaxTable } from '../../src/tax/table-file.js';
import { WatchedTaxTable } from '../../src/tax/watched-table.js';
import { temporaryFolder } from './temporary.js';
import { testContext } from './test-context.js';

const fixtures = join(__dirname, '..', 'fixtures', 'tax');

/**
 * The tax table LibreOffice saved (test/fixtures/tax, with its map) copied into a fresh folder and watched as
 * `tax serve` watches it, started; `log` takes its lines. `rules` is the copy a test may change to see a reload, `map`
 * the copy of its map (watched too).
 * With `throughLink`, the copy is `erp/impostos.csv` and the path served is the link `srv/impostos.csv` to it (an
 * ERP's export in its own folder); `target` is the copy either way. With `throughFolderLink`, the copy is
 * `release-1/impostos.csv` and the path served is `current/impostos.csv`, `current` a link to the folder
 * `release-1` (a release switch that swaps `current` to another folder). `settleMs`: how long a table written in place
 * that lacks rows is held before it is taken.
 */
export async function watchedFixtureTable(
  prefix: string,
  log: (line: string) => void = () => {},
  { throughLink = false, throughFolderLink = false, settleMs = 100 } = {},
): Promise<{ table: WatchedTaxTable; rules: string; target: string; map: string }> {
  const folder = temporaryFolder(prefix);
  const target = throughLink
    ? join(folder, 'erp', 'impostos.csv')
    : throughFolderLink
      ? join(folder, 'release-1', 'impostos.csv')
      : join(folder, 'impostos.csv');
  const rules = throughLink
    ? join(folder, 'srv', 'impostos.csv')
    : throughFolderLink
      ? join(folder, 'current', 'impostos.csv')
      : target;
  if (throughFolderLink) {
    mkdirSync(join(folder, 'release-1'));
    symlinkSync('release-1', join(folder, 'current'));
  }
  if (throughLink) {
    mkdirSync(join(folder, 'erp'));
    mkdirSync(join(folder, 'srv'));
    symlinkSync(join('..', 'erp', 'impostos.csv'), rules);
  }
  copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), target);
  const map = join(folder, 'impostos.map.json');
  copyFileSync(join(fixtures, 'impostos.map.json'), map);
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: join(folder, 'config') } });
  const table = new WatchedTaxTable(
    rules,
    () => readTaxTable(memory.context, rules, { strict: false, map }),
    { info: log, error: log },
    () => Date.now(),
    () => [map],
    // A table written in place that lacks rows is held this long (a minute in tax serve): short, unless a test holds it.
    settleMs,
  );
  await table.start();
  return { table, rules, target, map };
}

/**
 * A table of a row for each NCM (or prefix), from SP to SP, RJ and MG, for both buyers: `rates` gives each row's
 * other columns (read as a table file's). A row a check refuses throws, naming its problems.
 */
export function tableOfRows(
  ncms: readonly string[],
  rates: (row: { ncm: string; to: string; buyer: string }) => Record<string, string | undefined>,
): TaxTable {
  const table = new TaxTable();
  for (const ncm of ncms)
    for (const to of ['SP', 'RJ', 'MG'])
      for (const buyer of ['taxpayer', 'non-taxpayer'])
        addRow(table, { ncm, from: 'SP', to, buyer, ...rates({ ncm, to, buyer }) });
  return table;
}

/** A row checked as a table file's and added to `table`; a row the check refuses throws, naming its problems. */
export function addRow(table: TaxTable, fields: Record<string, string | undefined>): void {
  const checked = checkTaxRule(fields);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  table.add(checked.rule);
}
