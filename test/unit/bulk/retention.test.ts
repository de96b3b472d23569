import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneOldRuns } from '../../../src/bulk/retention.js';
import { temporaryFolder } from '../../support/temporary.js';

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
    const record = JSON.stringify({ input: { path: join(folder, 'stock.csv') } });
    for (const file of files) writeFileSync(join(folder, file), file.endsWith('.meta.json') ? record : '');
    const removed = pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 2 });
    expect(removed.map((path) => path.slice(folder.length + 1)).toSorted()).toEqual([
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
    expect(pruneOldRuns({ inputPath: '/srv/erp/export/stock.csv', folder, keep: 1 })).toEqual([
      join(folder, 'stock.report-20261120-020000.csv'),
    ]);
  });

  it('leaves the runs of another input of the same base name (estoque.json beside estoque.csv)', () => {
    const folder = temporaryFolder('b2bctl-retention-');
    const run = (stamp: string, input: string) => {
      writeFileSync(join(folder, `estoque.report-${stamp}.csv`), '');
      writeFileSync(
        join(folder, `estoque.report-${stamp}.meta.json`),
        JSON.stringify({ input: { path: join(folder, input) } }),
      );
    };
    run('20261120-020000', 'estoque.json');
    run('20261121-020000', 'estoque.csv');
    run('20261122-020000', 'estoque.csv');
    writeFileSync(join(folder, 'estoque.report-20261119-020000.meta.json'), '{ not a record');
    expect(pruneOldRuns({ inputPath: join(folder, 'estoque.csv'), keep: 1 })).toEqual([
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
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 2, current })).toEqual([
      join(folder, 'stock.report-20261120-020000.csv'),
    ]);
    expect(pruneOldRuns({ inputPath: join(folder, 'stock.csv'), keep: 1, current })).toEqual([
      join(folder, 'stock.report-20261122-020000.csv'),
    ]);
    expect(readdirSync(folder)).toEqual(['stock.report-20261121-020000.csv']);
  });
});
