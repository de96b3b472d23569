import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const shipped = join(__dirname, '../../../docs/man');
const root = requireThat(process.getuid?.() === 0, 'giving a folder to another user needs root');
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

  // A user test: a man1 another user made first, or their link in its place, was written into or followed.
  it('a man1 others may write (0777): refused, exit 77, naming the chmod; nothing written', async () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'man1'));
    chmodSync(join(folder, 'man1'), 0o777);
    const result = await docsMan(folder);
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: The man page folder ${join(folder, 'man1')} is writable by its group and others (mode 0777): they could put pages of their own in place of the ones b2bctl writes. Run chmod 755 ${join(folder, 'man1')}.\n`,
    );
    expect(readdirSync(join(folder, 'man1'))).toEqual([]);
  });

  it.skipIf(root.missing)(
    `a man1 another user made (0777, theirs): refused, exit 77; nothing written${root.note}`,
    async () => {
      const folder = temporaryFolder();
      const section = join(folder, 'man1');
      mkdirSync(section);
      chmodSync(section, 0o777);
      chownSync(section, 65534, 65534);
      const result = await docsMan(folder);
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: The man page folder ${section} belongs to \\S+ \\(uid 65534\\), not to root: they could put pages of their own in place of the ones b2bctl writes\\. Give docs man a folder of your own, such as ~/\\.local/share/man, or make it yours \\(sudo chown root ${section} && chmod 755 ${section}\\)\\.\\n$`,
        ),
      );
      expect(readdirSync(section)).toEqual([]);
    },
  );

  it.skipIf(root.missing)(
    `a man1 that is another user's symbolic link: refused, exit 77; nothing written where it points${root.note}`,
    async () => {
      const shared = join(temporaryFolder(), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      chmodSync(shared, 0o1777);
      const target = temporaryFolder();
      const link = join(shared, 'man1');
      symlinkSync(target, link);
      lchownSync(link, 65534, 65534);
      const result = await docsMan(shared);
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: The man page folder ${link} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at a folder of theirs, or another folder of yours, whenever they like\\. Give docs man a folder of your own, such as ~/\\.local/share/man, or remove the link \\(rm ${link}\\)\\.\\n$`,
        ),
      );
      expect(readdirSync(target)).toEqual([]);
    },
  );

  it('a man1 of ours in a shared folder with the sticky bit (as /tmp), or our own link to one: written', async () => {
    const shared = join(temporaryFolder(), 'shared');
    mkdirSync(shared, { mode: 0o1777 });
    chmodSync(shared, 0o1777);
    expect((await docsMan(shared)).code).toBe(0);
    expect(readdirSync(join(shared, 'man1'))).toContain('b2bctl.1');
    const mine = temporaryFolder();
    const target = temporaryFolder();
    symlinkSync(target, join(mine, 'man1'));
    expect((await docsMan(mine)).code).toBe(0);
    expect(readdirSync(target)).toContain('b2bctl.1');
  });
});

/** `docs man FOLDER` run under UMASK, as a hardened server's root runs it (the umask restored after). */
async function docsManUnder(umask: number, folder: string) {
  const previous = process.umask(umask);
  try {
    return await docsMan(folder);
  } finally {
    process.umask(previous);
  }
}

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

describe('b2bctl docs man under a hardened umask (a user test)', () => {
  it('umask 077: the folders it makes are 0755 and the pages 0644, so every user can read them', async () => {
    const base = temporaryFolder();
    const folder = join(base, 'share', 'man');
    expect((await docsManUnder(0o077, folder)).code).toBe(0);
    for (const made of [join(base, 'share'), folder, join(folder, 'man1')]) expect(modeOf(made)).toBe(0o755);
    for (const page of readdirSync(join(folder, 'man1'))) expect(modeOf(join(folder, 'man1', page))).toBe(0o644);
  });

  it('umask 027 in a 0755 folder of the user: man1 0755, the pages 0644; the folder given keeps its mode', async () => {
    const folder = temporaryFolder();
    chmodSync(folder, 0o755);
    expect((await docsManUnder(0o027, folder)).code).toBe(0);
    expect(modeOf(folder)).toBe(0o755);
    expect(modeOf(join(folder, 'man1'))).toBe(0o755);
    expect(modeOf(join(folder, 'man1', 'b2bctl-stock-push.1'))).toBe(0o644);
  });

  it('pages and a man1 an earlier run left private (0600 in 0700) are opened to all when written again', async () => {
    const folder = temporaryFolder();
    mkdirSync(join(folder, 'man1'), { mode: 0o700 });
    chmodSync(join(folder, 'man1'), 0o700);
    writeFileSync(join(folder, 'man1', 'b2bctl.1'), 'an older page\n', { mode: 0o600 });
    expect((await docsManUnder(0o077, folder)).code).toBe(0);
    expect(modeOf(join(folder, 'man1'))).toBe(0o755);
    expect(modeOf(join(folder, 'man1', 'b2bctl.1'))).toBe(0o644);
  });
});
