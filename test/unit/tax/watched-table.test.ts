/**
 * The hold of a table written in place that lacks rows of the one in use, on a fake clock: how long it is held, and
 * that it is taken only when its bytes read again are those it was held with. The reloads are called as the watcher
 * calls them; the file's changes are made with the file system's own calls (same inode, times set back).
 */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkTaxRule, TaxTable } from '../../../src/domain/tax/rules.js';
import { WatchedTaxTable } from '../../../src/tax/watched-table.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

/** A table of `ncm,icmsRate` lines (SP → RJ, taxpayer), each line a row: the watcher's part, not the reader's. */
function tableOf(text: string): TaxTable {
  const table = new TaxTable();
  for (const line of text.split('\n').filter(Boolean)) {
    const [ncm, icmsRate] = line.split(',');
    const checked = checkTaxRule({ ncm, from: 'SP', to: 'RJ', buyer: 'taxpayer', icmsRate, ipiRate: '0' });
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    table.add(checked.rule);
  }
  return table;
}

const threeRows = '8471,12\n3926,12\n84713012,4\n';
const clock = { now: 0 };
let lines: string[] = [];
const closers: (() => void)[] = [];
const log = (line: string) => lines.push(line);

beforeEach(() => {
  // Only the timers the hold and the reloads use: the file system's callbacks run as they do.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  lines = [];
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
  vi.useRealTimers();
  removeTemporaryFolders();
});

async function watched(): Promise<{ table: WatchedTaxTable; rules: string }> {
  const rules = join(temporaryFolder('b2bctl-tax-held-'), 'impostos.csv');
  writeFileSync(rules, threeRows);
  // The default wait of tax serve (no settleMs given).
  const table = new WatchedTaxTable(
    rules,
    async () => tableOf(readFileSync(rules, 'utf8')),
    { info: log, error: log },
    () => clock.now,
  );
  closers.push(() => table.close());
  await table.start();
  return { table, rules };
}

describe('a table written in place that lacks rows of the one in use', () => {
  // A user test: an export that wrote its first two rows, paused 6.5 s on a slow query, then wrote the last, had its
  // half table taken at 5 s: the 8-digit NCM's 4% answered 12% with a 200.
  it('is held through an export’s pause of 6.5 s, and taken only once the file has stayed as it is for a minute', async () => {
    const { table, rules } = await watched();
    writeFileSync(rules, '8471,12\n3926,12\n');
    await table.reload();
    expect(lines).toEqual([
      expect.stringMatching(
        /written in place, reads 2 rows without 1 row of the table in use \(the first: NCM 84713012, SP → RJ, taxpayer\); taken if the file stays as it is for 60 s, in case it is still being written \(writing in place is unsafe: an export pausing longer is taken half-written; write the new table under another name and rename it into place, which is taken at once\)\.$/,
      ),
    ]);
    await vi.advanceTimersByTimeAsync(6_500);
    expect(table.current().size).toBe(3);
    expect(table.current().find({ ncm: '84713012', from: 'SP', to: 'RJ', buyer: 'taxpayer' })?.icmsRate).toBe('4');
    await vi.advanceTimersByTimeAsync(60_000 - 6_500);
    // Queued behind the reload the hold's end started: resolves once that one is done.
    await table.reload();
    expect(table.current().size).toBe(2);
    expect(lines).toContainEqual(expect.stringMatching(/reloaded: 2 rows, without 1 row of the table before\.$/));
  });

  it('the rest written within the minute ends the hold: the whole table, nothing lost', async () => {
    const { table, rules } = await watched();
    writeFileSync(rules, '8471,12\n3926,12\n');
    await table.reload();
    await vi.advanceTimersByTimeAsync(59_000);
    writeFileSync(rules, threeRows);
    await table.reload();
    expect(table.current().size).toBe(3);
    expect(lines.at(-1)).toMatch(/reloaded: 3 rows\.$/);
  });

  it('is held again, not taken, when its bytes changed though its size and time did not', async () => {
    const { table, rules } = await watched();
    // Times of whole seconds, as a file system that counts no less shows them: a change within one second shows none.
    const second = Math.floor(Date.now() / 1000);
    writeFileSync(rules, '8471,12\n3926,12\n');
    utimesSync(rules, second, second);
    await table.reload();
    // Another rate of the same length, written within that second.
    writeFileSync(rules, '8471,12\n3926,18\n');
    utimesSync(rules, second, second);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(lines).toContainEqual(
      expect.stringMatching(/changed while held, though its size and time did not: held again\.$/),
    );
    expect(table.current().size).toBe(3);
    // Read again (after the watcher's quiet), it is held anew with the bytes it has now, and taken a minute later.
    await vi.advanceTimersByTimeAsync(300);
    await table.reload();
    expect(table.current().size).toBe(3);
    await vi.advanceTimersByTimeAsync(60_000);
    await table.reload();
    expect(table.current().size).toBe(2);
    expect(table.current().find({ ncm: '39269090', from: 'SP', to: 'RJ', buyer: 'taxpayer' })?.icmsRate).toBe('18');
  });
});
