/** withShortLock: the lock of a few milliseconds around a read-modify-write of config.json. */
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withShortLock } from '../../../src/lib/short-lock.js';
import { temporaryFolder } from '../../support/temporary.js';

describe('withShortLock', () => {
  it('holds the lock file while the work runs, and removes it after, also when the work throws', () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    expect(withShortLock(path, () => existsSync(path))).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(() =>
      withShortLock(path, () => {
        throw new Error('the work failed');
      }),
    ).toThrow('the work failed');
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock left by a killed writer (older than staleMs)', () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    writeFileSync(path, '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    expect(withShortLock(path, () => 'done', { staleMs: 10_000 })).toBe('done');
  });

  it('gives up on a lock that is held and fresh once waitMs has passed, naming the file', () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    writeFileSync(path, '');
    expect(() => withShortLock(path, () => 'never', { waitMs: 30, staleMs: 60_000 })).toThrow(
      `${path} has been held for over 0.03 s by another b2bctl; try again`,
    );
  });
});
