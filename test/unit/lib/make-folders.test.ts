/** makeFolders: `mkdir -p` a level at a time, so a path under /proc fails at once instead of spinning. */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolders } from '../../../src/lib/private-file.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

const proc = requireThat(existsSync('/proc/self'), 'no /proc on this system');

describe('makeFolders', () => {
  it('makes every missing level, each with the mode, and leaves a folder that exists as it is', () => {
    const base = temporaryFolder();
    makeFolders(join(base, 'a', 'b', 'c'), 0o700);
    for (const path of ['a', 'a/b', 'a/b/c']) expect(statSync(join(base, path)).mode & 0o777).toBe(0o700);
    expect(() => makeFolders(join(base, 'a', 'b'), 0o755)).not.toThrow();
    expect(statSync(join(base, 'a', 'b')).mode & 0o777).toBe(0o700);
  });

  it('a file in the way is EEXIST (the folder itself) or ENOTDIR (a level above), as mkdir says', () => {
    const base = temporaryFolder();
    writeFileSync(join(base, 'file'), '');
    expect(() => makeFolders(join(base, 'file'), 0o700)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => makeFolders(join(base, 'file', 'x'), 0o700)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it.skipIf(proc.missing)(`a path under /proc fails with ENOENT at once${proc.note}`, () => {
    expect(() => makeFolders('/proc/b2bctl-nope/man1', 0o755)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
