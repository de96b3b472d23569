/**
 * rewriteFileDurably, the one way b2bctl replaces a file by a new version (orders, cursors, run records, the report
 * and the errors file rewritten): a failure leaves the file as it was and no temporary; what a killed rewrite left
 * is removed by the next one, in the one name grammar of temporaryPathBeside.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rewriteFileDurably, writeFileDurably } from '../../../../src/io/output/durable-file.js';
import { removeAbandonedTemporariesIn, temporaryPathBeside } from '../../../../src/lib/private-file.js';
import { writeWholeSync } from '../../../../src/lib/whole-write.js';
import { removeTemporaryFolders, temporaryFolder } from '../../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

function fileWith(name: string, text: string): string {
  const path = join(temporaryFolder('b2bctl-durable-'), name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

describe('rewriteFileDurably', () => {
  it('replaces the file with what `write` wrote, in the mode asked, and leaves no temporary', () => {
    const path = fileWith('errors.csv', 'old\n');
    rewriteFileDurably(path, (descriptor) => writeWholeSync(descriptor, 'new\n'), { mode: 0o640 });
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(path, '..'))).toEqual(['errors.csv']);
  });

  it('an asynchronous write: the file is replaced once it is done', async () => {
    const path = fileWith('report.csv', 'old\n');
    await rewriteFileDurably(path, async (descriptor) => {
      await Promise.resolve();
      writeWholeSync(descriptor, 'new\n');
    });
    expect(readFileSync(path, 'utf8')).toBe('new\n');
    expect(readdirSync(join(path, '..'))).toEqual(['report.csv']);
  });

  const failure = new Error('ENOSPC: no space left on device, write');
  const failing = (descriptor: number) => {
    writeWholeSync(descriptor, 'half');
    throw failure;
  };

  it('a write that fails leaves the file as it was and no temporary, and the failure is thrown', () => {
    const path = fileWith('report.csv', 'old\n');
    expect(() => rewriteFileDurably(path, failing)).toThrow(failure);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(join(path, '..'))).toEqual(['report.csv']);
  });

  it('an asynchronous write that fails: the same, the failure rejected', async () => {
    const path = fileWith('report.csv', 'old\n');
    const rewriting = rewriteFileDurably(path, async (descriptor) => {
      await Promise.resolve();
      failing(descriptor);
    });
    await expect(rewriting).rejects.toBe(failure);
    expect(readFileSync(path, 'utf8')).toBe('old\n');
    expect(readdirSync(join(path, '..'))).toEqual(['report.csv']);
  });

  it("removes the temporaries killed rewrites of this file left, and nothing else's", () => {
    const path = fileWith('c.errors.csv', 'old\n');
    const folder = join(path, '..');
    const left = temporaryPathBeside(path);
    writeFileSync(left, 'a killed copy');
    const others = ['.other.csv.0123456789abcdef.tmp', '.c.errors.csv.notsixteenhex.tmp', 'c.errors.csv.tmp'];
    for (const other of others) writeFileSync(join(folder, other), 'not a copy of this file');
    writeFileDurably(path, 'new\n');
    expect(existsSync(left)).toBe(false);
    expect(readdirSync(folder).toSorted()).toEqual([...others, 'c.errors.csv'].toSorted());
  });

  it('swept: true leaves them to the caller, who swept the folder once (removeAbandonedTemporariesIn)', () => {
    const path = fileWith('217--20261127T101500123Z.json', '{}\n');
    const folder = join(path, '..');
    const left = temporaryPathBeside(join(folder, 'A%2D1--20261127T101500123Z.json'));
    writeFileSync(left, 'a killed copy');
    writeFileDurably(path, '{"id":217}\n', { swept: true });
    expect(existsSync(left)).toBe(true);
    writeFileSync(join(folder, 'notes.tmp'), 'a file of the user');
    removeAbandonedTemporariesIn(folder);
    expect(readdirSync(folder).toSorted()).toEqual(['217--20261127T101500123Z.json', 'notes.tmp']);
  });
});
