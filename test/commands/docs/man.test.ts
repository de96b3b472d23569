import { lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const shipped = join(__dirname, '../../../docs/man');
const docsMan = (folder: string) => runCommandLine(['docs', 'man', folder], { configDir: freshConfigDir() });

describe('b2bctl docs man', () => {
  it('copies every shipped man page into FOLDER/man1, readable by all, and says how to read them', async () => {
    const folder = join(temporaryFolder(), 'share', 'man');
    const result = await docsMan(folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const pages = readdirSync(shipped).filter((name) => name.endsWith('.1'));
    expect(pages).toContain('b2bctl-stock-push.1');
    expect(readdirSync(join(folder, 'man1')).toSorted()).toEqual(pages.toSorted());
    for (const page of pages)
      expect(readFileSync(join(folder, 'man1', page), 'utf8')).toBe(readFileSync(join(shipped, page), 'utf8'));
    expect(lstatSync(join(folder, 'man1', 'b2bctl.1')).mode & 0o777).toBe(0o644);
    expect(result.stderr).toBe(
      `Wrote ${pages.length} man pages to ${join(folder, 'man1')}; read one with MANPATH=${folder} man b2bctl-stock-push.\n`,
    );
  });

  it("replaces an older b2bctl's pages", async () => {
    const folder = temporaryFolder();
    expect((await docsMan(folder)).code).toBe(0);
    writeFileSync(join(folder, 'man1', 'b2bctl-stock-push.1'), 'an older page\n');
    expect((await docsMan(folder)).code).toBe(0);
    expect(readFileSync(join(folder, 'man1', 'b2bctl-stock-push.1'), 'utf8')).toBe(
      readFileSync(join(shipped, 'b2bctl-stock-push.1'), 'utf8'),
    );
  });

  it('never writes through a symbolic link in the place of a page: exit 2, and the target is untouched', async () => {
    const folder = temporaryFolder();
    expect((await docsMan(folder)).code).toBe(0);
    const target = join(temporaryFolder(), 'elsewhere');
    writeFileSync(target, 'not a man page\n');
    const page = join(folder, 'man1', 'b2bctl-login.1');
    rmSync(page);
    symlinkSync(target, page);
    const result = await docsMan(folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: Cannot write ${page} (ELOOP); pass a folder you can write to, with no link in the place of a page.\n`,
    );
    expect(readFileSync(target, 'utf8')).toBe('not a man page\n');
  });

  it('says which folder it cannot make: exit 2', async () => {
    const parent = temporaryFolder();
    writeFileSync(join(parent, 'file'), '');
    const result = await docsMan(join(parent, 'file'));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: Cannot make ${join(parent, 'file', 'man1')} (ENOTDIR); pass a folder you can write to.\n`,
    );
  });
});
