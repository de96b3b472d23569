/**
 * `--report` and `--errors` written through another user's symbolic link higher in the path (a user test: `out` in a
 * shared sticky folder, theirs, pointing at a folder of root's): nothing was overwritten, but that user chose, and could
 * re-point between runs, which folder got the rows. Refused before anything is sent, exit 77, as an `--out-dir`
 * through their link is; a link of this user's is followed.
 */
import { chmodSync, lchownSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const asRoot = process.geteuid?.() === 0;

async function push(folder: string, flags: string[]) {
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\n');
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  return runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
  });
}

/** A shared sticky folder (as /tmp) holding `out`, a link another user (uid 65534) made to a folder of root's. */
function theirLinkToMine(): { shared: string; link: string; mine: string } {
  const work = freshWorkDir();
  const shared = join(work, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const mine = join(work, 'private');
  mkdirSync(mine, { mode: 0o700 });
  const link = join(shared, 'out');
  symlinkSync(mine, link);
  lchownSync(link, 65534, 65534);
  return { shared, link, mine };
}

describe.skipIf(!asRoot)(
  'a bulk run whose report or errors folder is reached through another user’s link (root can make a link as another user)',
  () => {
    it('--report through it: refused, exit 77, naming the link and its owner, nothing sent, nothing written', async () => {
      const { link, mine } = theirLinkToMine();
      const result = await push(freshWorkDir(), ['--report', join(link, 'nightly-report')]);
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(
        new RegExp(
          `error: The report's folder ${link} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at another folder of yours, or one of theirs, whenever they like, and so choose where the run's rows are written\\. Nothing was sent\\. Give --report \\(or the outputDir setting\\) a folder of your own, or remove the link \\(rm ${link}\\)\\.\\n`,
        ),
      );
      expect(platform.received).toEqual([]);
      expect(readdirSync(mine)).toEqual([]);
    });

    it('--errors through a folder below it: refused, exit 77, nothing sent, nothing written', async () => {
      const { link, mine } = theirLinkToMine();
      mkdirSync(join(mine, 'errors'), { mode: 0o700 });
      const folder = freshWorkDir();
      const result = await push(folder, ['--errors', join(link, 'errors', 'stock.errors.csv')]);
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(
        new RegExp(
          `error: The errors file's folder ${join(link, 'errors')} leads through ${link}, a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: .* Give --errors \\(or the outputDir setting\\) a folder of your own, or remove the link \\(rm ${link}\\)\\.\\n`,
        ),
      );
      expect(platform.received).toEqual([]);
      expect(readdirSync(join(mine, 'errors'))).toEqual([]);
      expect(readdirSync(folder)).toEqual(['stock.csv']);
    });

    it('a link of this user’s to a folder of theirs is followed: the run writes its report there', async () => {
      const { shared, mine } = theirLinkToMine();
      const own = join(shared, 'mine');
      symlinkSync(mine, own);
      const result = await push(freshWorkDir(), ['--report', join(own, 'nightly-report')]);
      expect(result.code).toBe(0);
      expect(platform.received).toEqual(['PUT /v1/stock/batch']);
      expect(readdirSync(mine).toSorted()).toEqual(['nightly-report', 'nightly-report.meta.json']);
    });
  },
);
