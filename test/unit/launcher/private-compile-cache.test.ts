import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateCompileCacheFolder } from '../../../bin/private-compile-cache.js';
import { temporaryFolder } from '../../support/temporary.js';

/*
 * Node's compile cache lives in the user's own cache folder. A home that is not there (`HOME=/nonexistent`, the "no
 * home" of system users) is never made for it: root's every command made /nonexistent/.cache (a user test).
 */
describe("the compile cache's folder", () => {
  const saved = { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  const uid = process.getuid?.() ?? 0;
  beforeEach(() => {
    delete process.env.XDG_CACHE_HOME;
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it.skipIf(process.getuid === undefined)('is none, and nothing is made, when the home is not there', () => {
    const home = join(temporaryFolder('b2bctl-compile-cache-'), 'nonexistent');
    process.env.HOME = home;
    expect(privateCompileCacheFolder(uid)).toBeUndefined();
    expect(existsSync(home)).toBe(false);
  });

  it.skipIf(process.getuid === undefined)('is made 0700 in .cache of a home that is there', () => {
    const home = join(temporaryFolder('b2bctl-compile-cache-'), 'home');
    mkdirSync(home, { mode: 0o700 });
    process.env.HOME = home;
    const folder = join(home, '.cache', 'b2bctl', 'compile-cache');
    expect(privateCompileCacheFolder(uid)).toBe(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
});
