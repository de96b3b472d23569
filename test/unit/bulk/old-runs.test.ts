import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneOldRuns, removeAbandonedCopiesOfRuns, type RunOwner } from '../../../src/bulk/old-runs.js';
import type { RunState } from '../../../src/bulk/run-meta.js';
import { temporaryFolder } from '../../support/temporary.js';

const owner: RunOwner = { command: 'stock push', profile: 'default', baseUrl: 'https://loja.example.com' };
const finished: RunState = { kind: 'ended', exitCode: 0, resumePending: false };
const interrupted: RunState = { kind: 'ended', exitCode: 75, resumePending: true };

/** How a run stands, or the record of an earlier version, which did not say. */
type Standing = RunState | 'not said';

/** A run record as a run of `owner` writes it, naming `input`. */
function record(input: string, state: Standing = finished, of: RunOwner = owner): string {
  const said = state === 'not said' ? {} : { state };
  return JSON.stringify({ version: 1, ...of, baseUrlFromFlag: false, input: { path: input }, flags: {}, ...said });
}

/** The report and run record of one run of `stock.csv` in `folder`. */
function run(folder: string, stamp: string, state: Standing = finished, of: RunOwner = owner): void {
  writeFileSync(join(folder, `stock.report-${stamp}.csv`), '');
  writeFileSync(join(folder, `stock.report-${stamp}.meta.json`), record(join(folder, 'stock.csv'), state, of));
}

/** No process: above the largest id Linux gives (pid_max is at most 2^22). */
const gonePid = 2 ** 22 + 1;

describe('pruneOldRuns', () => {
  it('keeps the files of the N newest runs of the input and nothing else is touched', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const files = [
      'stock.csv',
      'stock.report-20261120-020000.csv',
      'stock.report-20261120-020000.meta.json',
      'stock.errors-20261120-020000.csv',
      'stock.report-20261121-020000.csv',
      'stock.report-20261121-020000.meta.json',
      'stock.report-20261122-020000.csv',
      'stock.report-20261122-020000-2.csv',
      'stock.report-20261122-020000-2.meta.json',
      'other.report-20261101-020000.csv',
      'stock.report-notes.csv',
    ];
    for (const file of files)
      writeFileSync(join(folder, file), file.endsWith('.meta.json') ? record(join(folder, 'stock.csv')) : '');
    const removed = pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 2, owner });
    expect(removed.map((path) => path.slice(folder.length + 1))).toEqual([
      'stock.errors-20261120-020000.csv',
      'stock.report-20261120-020000.csv',
      'stock.report-20261120-020000.meta.json',
      'stock.report-20261121-020000.csv',
      'stock.report-20261121-020000.meta.json',
    ]);
    expect(readdirSync(folder).toSorted()).toEqual(
      [
        'other.report-20261101-020000.csv',
        'stock.csv',
        'stock.report-20261122-020000-2.csv',
        'stock.report-20261122-020000-2.meta.json',
        'stock.report-20261122-020000.csv',
        'stock.report-notes.csv',
      ].toSorted(),
    );
  });

  it('looks in the outputDir folder when one is set', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    writeFileSync(join(folder, 'stock.report-20261120-020000.csv'), '');
    writeFileSync(join(folder, 'stock.report-20261121-020000.csv'), '');
    expect(pruneOldRuns({ inputPath: '/srv/erp/export/stock.csv', folder, keep: 1, owner })).toEqual([
      join(folder, 'stock.report-20261120-020000.csv'),
    ]);
  });

  it('leaves the runs of another input of the same base name (estoque.json beside estoque.csv)', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const runOf = (stamp: string, input: string) => {
      writeFileSync(join(folder, `estoque.report-${stamp}.csv`), '');
      writeFileSync(join(folder, `estoque.report-${stamp}.meta.json`), record(join(folder, input)));
    };
    runOf('20261120-020000', 'estoque.json');
    runOf('20261121-020000', 'estoque.csv');
    runOf('20261122-020000', 'estoque.csv');
    writeFileSync(join(folder, 'estoque.report-20261119-020000.meta.json'), '{ not a record');
    expect(pruneOldRuns({ inputPath: join(folder, 'estoque.csv'), keep: 1, owner })).toEqual([
      join(folder, 'estoque.report-20261121-020000.csv'),
      join(folder, 'estoque.report-20261121-020000.meta.json'),
    ]);
    expect(readdirSync(folder)).toContain('estoque.report-20261120-020000.meta.json');
    expect(readdirSync(folder)).toContain('estoque.report-20261119-020000.meta.json');
  });

  it('always keeps the run that is ending, whatever the time in its names, and counts it among the N', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const names = ['20261120-020000', '20261121-020000', '20261122-020000'].map((stamp) => `stock.report-${stamp}.csv`);
    for (const name of names) writeFileSync(join(folder, name), '');
    // The ending run's clock was set back: an earlier run's name (the 22nd) carries a later time than its own.
    const current = [
      join(folder, 'stock.report-20261121-020000.csv'),
      join(folder, 'stock.errors-20261121-020000.csv'),
    ];
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 2, current, owner })).toEqual([
      join(folder, 'stock.report-20261120-020000.csv'),
    ]);
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current, owner })).toEqual([
      join(folder, 'stock.report-20261122-020000.csv'),
    ]);
    expect(readdirSync(folder)).toEqual(['stock.report-20261121-020000.csv']);
  });

  it("leaves every run of another profile or store, however many and however old: that owner's to prune", () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const store2 = { ...owner, profile: 's2' };
    const otherStore = { ...owner, baseUrl: 'https://outra.example.com' };
    const otherCommand = { ...owner, command: 'customer create' };
    run(folder, '20261120-020000', finished, store2);
    run(folder, '20261120-030000', finished, otherStore);
    run(folder, '20261120-040000', finished, otherCommand);
    run(folder, '20261121-020000');
    run(folder, '20261122-020000');
    // A record that does not say whose it is (not one b2bctl writes): kept, as one that cannot be read.
    writeFileSync(join(folder, 'stock.report-20261119-020000.csv'), '');
    writeFileSync(
      join(folder, 'stock.report-20261119-020000.meta.json'),
      JSON.stringify({ input: { path: join(folder, 'stock.csv') } }),
    );
    const current = [join(folder, 'stock.report-20261122-020000.csv')];
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current, owner })).toEqual([
      join(folder, 'stock.report-20261121-020000.csv'),
      join(folder, 'stock.report-20261121-020000.meta.json'),
    ]);
    expect(readdirSync(folder).filter((name) => name.endsWith('.meta.json'))).toHaveLength(5);
  });

  it('the same store spelled with a trailing slash is the same owner', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    run(folder, '20261121-020000', finished, { ...owner, baseUrl: `${owner.baseUrl}/` });
    run(folder, '20261122-020000');
    const current = [join(folder, 'stock.report-20261122-020000.csv')];
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current, owner })).toHaveLength(2);
  });

  it('past the N, keeps a run still sending, of a process that is alive', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    run(folder, '20261120-020000', { kind: 'running', pid: process.pid });
    run(folder, '20261121-020000');
    run(folder, '20261122-020000');
    const current = [join(folder, 'stock.report-20261122-020000.csv')];
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current, owner })).toEqual([
      join(folder, 'stock.report-20261121-020000.csv'),
      join(folder, 'stock.report-20261121-020000.meta.json'),
    ]);
    expect(readdirSync(folder)).toContain('stock.report-20261120-020000.csv');
  });

  it('keeps a run whose resume is still to be run until N newer runs of its owner finished', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const input = join(folder, 'stock.csv');
    // Interrupted (exit 75), killed mid-way (its record says running, of a process gone), of an earlier version.
    run(folder, '20261118-020000', interrupted);
    run(folder, '20261119-020000', { kind: 'running', pid: gonePid });
    run(folder, '20261120-020000', 'not said');
    // A newer run stopped too, then the night that ends finished: one finished run newer than the three.
    run(folder, '20261121-020000', interrupted);
    run(folder, '20261122-020000');
    const tonight = [join(folder, 'stock.report-20261122-020000.csv')];
    expect(pruneOldRuns({ inputPath: input, keep: 2, current: tonight, owner })).toEqual([]);
    // The next night finished too: two finished runs are newer than the four pending ones, which then go.
    run(folder, '20261123-020000');
    const next = [join(folder, 'stock.report-20261123-020000.csv')];
    expect(pruneOldRuns({ inputPath: input, keep: 2, current: next, owner }).map((path) => basename(path))).toEqual(
      ['18', '19', '20', '21'].flatMap((day) => [
        `stock.report-202611${day}-020000.csv`,
        `stock.report-202611${day}-020000.meta.json`,
      ]),
    );
    expect(
      readdirSync(folder)
        .filter((name) => name.endsWith('.csv'))
        .toSorted(),
    ).toEqual(['stock.report-20261122-020000.csv', 'stock.report-20261123-020000.csv']);
  });

  it('a night that ends interrupted counts as no finished run: the pending one before it stays', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    run(folder, '20261121-020000', interrupted);
    run(folder, '20261122-020000', interrupted);
    const current = [join(folder, 'stock.report-20261122-020000.csv')];
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current, owner })).toEqual([]);
  });
});

/** The name of a copy a killed rewrite of `file` left (temporaryPathBeside's). */
const copy = (file: string) => `.${file}.0123456789abcdef.tmp`;

describe('removeAbandonedCopiesOfRuns', () => {
  it("removes the copies killed rewrites of a run's files left once the run is not sending; a sending run's, another owner's and any other hidden file stay", () => {
    const folder = temporaryFolder('b2bctl-retention-');
    run(folder, '20261120-020000', { kind: 'running', pid: gonePid });
    run(folder, '20261121-020000');
    run(folder, '20261122-020000', { kind: 'running', pid: process.pid });
    run(folder, '20261123-020000', finished, { ...owner, profile: 'other' });
    const abandoned = [copy('stock.errors-20261120-020000.csv'), copy('stock.report-20261121-020000.csv')];
    const kept = [
      copy('stock.errors-20261122-020000.csv'),
      copy('stock.errors-20261123-020000.csv'),
      copy('stock.errors-20261101-020000.csv'),
      '.stock.errors-20261121-020000.csv.tmp',
      copy('other.errors-20261121-020000.csv'),
    ];
    for (const file of [...abandoned, ...kept]) writeFileSync(join(folder, file), 'half a copy');
    const removed = removeAbandonedCopiesOfRuns({ inputPath: join(folder, 'stock.csv'), owner });
    expect(removed.map((path) => basename(path)).toSorted()).toEqual(abandoned.toSorted());
    const left = readdirSync(folder).filter((file) => file.endsWith('.tmp'));
    expect(left.toSorted()).toEqual(kept.toSorted());
  });
});
