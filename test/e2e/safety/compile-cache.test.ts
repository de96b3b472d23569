/**
 * Node's compile cache holds code Node runs on the next start. Node's default folder, $TMPDIR/node-compile-cache, is
 * in the shared /tmp and belongs to whoever makes it first: the launcher keeps the cache in the user's own cache
 * folder instead, and uses none rather than one another user could write.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../../support/cli.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

const root = requireThat(process.getuid?.() === 0, 'planting a folder of another user needs root');
const nobody = 65534;

/** A run of the built CLI with a home and a TMPDIR of its own, and no NODE_COMPILE_CACHE (cleanEnv sets one). */
async function helpRun(home: string, tmp: string, extra: Record<string, string> = {}): Promise<void> {
  const env = { HOME: home, TMPDIR: tmp, NODE_COMPILE_CACHE: '', ...extra };
  const result = await runCli(['sellers', 'list', '--help'], { configDir: freshConfigDir(), env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** Every file under a folder, by its path inside it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("Node's compile cache", () => {
  it('is kept in ~/.cache/b2bctl/compile-cache, 0700, and nothing is left in TMPDIR', async () => {
    const home = temporaryFolder();
    const tmp = temporaryFolder();
    await helpRun(home, tmp);
    await helpRun(home, tmp);
    expect(readdirSync(tmp)).toEqual([]);
    for (const folder of ['.cache', '.cache/b2bctl', '.cache/b2bctl/compile-cache'])
      expect(`${folder} ${(statSync(join(home, folder)).mode & 0o777).toString(8)}`).toBe(`${folder} 700`);
    expect(filesUnder(join(home, '.cache/b2bctl/compile-cache')).length).toBeGreaterThan(0);
  });

  it('is kept under $XDG_CACHE_HOME when it is set, and in NODE_COMPILE_CACHE when the user chose a folder', async () => {
    const home = temporaryFolder();
    const tmp = temporaryFolder();
    const xdg = temporaryFolder();
    await helpRun(home, tmp, { XDG_CACHE_HOME: xdg });
    expect(filesUnder(join(xdg, 'b2bctl/compile-cache')).length).toBeGreaterThan(0);
    const chosen = temporaryFolder();
    await helpRun(home, tmp, { NODE_COMPILE_CACHE: chosen });
    expect(filesUnder(chosen).length).toBeGreaterThan(0);
    expect(readdirSync(home)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a link in place of its folder is not followed, and no cache is used', async () => {
    const home = temporaryFolder();
    const tmp = temporaryFolder();
    const elsewhere = temporaryFolder();
    mkdirSync(join(home, '.cache/b2bctl'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(home, '.cache/b2bctl/compile-cache'));
    await helpRun(home, tmp);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.skipIf(root.missing)(
    `a folder another user made first, or that others may write, is not used: no cache rather than theirs${root.note}`,
    async () => {
      const home = temporaryFolder();
      const tmp = temporaryFolder();
      // Node's default folder in the shared TMPDIR, made first by another user, as in the report that found it.
      const ours = join(home, '.cache/b2bctl/compile-cache');
      const planted = [join(tmp, 'node-compile-cache'), ours];
      mkdirSync(join(home, '.cache'), { mode: 0o700 });
      mkdirSync(join(home, '.cache/b2bctl'), { mode: 0o700 });
      for (const folder of planted) {
        mkdirSync(folder);
        chownSync(folder, nobody, nobody);
        chmodSync(folder, 0o777);
      }
      await helpRun(home, tmp);
      for (const folder of planted) expect(filesUnder(folder)).toEqual([]);
      // Ours but writable by others: the same.
      chownSync(ours, 0, 0);
      await helpRun(home, tmp);
      expect(filesUnder(ours)).toEqual([]);
      // Another user's b2bctl folder holding one of ours: they could swap it.
      chmodSync(ours, 0o700);
      chownSync(join(home, '.cache/b2bctl'), nobody, nobody);
      await helpRun(home, tmp);
      expect(filesUnder(ours)).toEqual([]);
    },
  );
});
