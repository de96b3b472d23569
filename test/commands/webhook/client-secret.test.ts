/**
 * Where the receiver's client secret comes from: the file of --client-secret-file, else the environment, else the
 * file of the profile's setting. A secret left in the shell's environment must not override the file the command
 * line names (the platform's token requests would then be refused, with nothing to say why).
 */
import { chmodSync, chownSync, lchownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookClientSecret } from '../../../src/commands/webhook/client-secret.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import type { B2bctlError } from '../../../src/base/errors.js';
import { requireThat } from '../../support/external-tools.js';
import { testContext } from '../../support/test-context.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const root = requireThat(process.getuid?.() === 0, 'giving a file to another user needs root');

const fromEnvironment = 'e'.repeat(40);
const fromFlag = 'f'.repeat(40);
const fromSetting = 's'.repeat(40);

/** A config folder whose profile names a secret file, a file for the flag, and the secret of each. */
function workspace(): { configDir: string; flagFile: string } {
  const folder = temporaryFolder();
  const flagFile = join(folder, 'flag-secret');
  const settingFile = join(folder, 'setting-secret');
  writeFileSync(flagFile, `${fromFlag}\n`);
  writeFileSync(settingFile, `${fromSetting}\n`);
  const configDir = join(folder, 'config');
  new ProfileStore(configDir).update('default', { 'webhook.clientSecretFile': settingFile });
  return { configDir, flagFile };
}

describe('the webhook client secret', () => {
  it('--client-secret-file wins over B2BCTL_WEBHOOK_CLIENT_SECRET', async () => {
    const { configDir, flagFile } = workspace();
    const { context } = testContext({
      env: { B2BCTL_CONFIG_DIR: configDir, B2BCTL_WEBHOOK_CLIENT_SECRET: fromEnvironment },
    });
    expect(await webhookClientSecret(context, flagFile)).toBe(fromFlag);
  });

  it('without the flag, the environment wins over the profile setting, which comes last', async () => {
    const { configDir } = workspace();
    const withVariable = testContext({
      env: { B2BCTL_CONFIG_DIR: configDir, B2BCTL_WEBHOOK_CLIENT_SECRET: fromEnvironment },
    });
    expect(await webhookClientSecret(withVariable.context, undefined)).toBe(fromEnvironment);
    const settingOnly = testContext({ env: { B2BCTL_CONFIG_DIR: configDir } });
    expect(await webhookClientSecret(settingOnly.context, undefined)).toBe(fromSetting);
  });
});

describe('a client secret file as editors and echo leave it', () => {
  it('whitespace around the secret is no part of it; a file others may read is said, with the chmod', async () => {
    const file = join(temporaryFolder(), 'secret');
    writeFileSync(file, `  ${fromFlag}\r\n\n`, { mode: 0o644 });
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    expect(await webhookClientSecret(memory.context, file)).toBe(fromFlag);
    expect(memory.stderr()).toContain(
      `warning: the client secret file ${file} may be read by other users (mode 0644); run chmod 600 ${file}.`,
    );
    chmodSync(file, 0o600);
    const privateFile = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    await webhookClientSecret(privateFile.context, file);
    expect(privateFile.stderr()).toBe('');
  });
});

/** The refusal of a secret file (the error, undefined when it was taken) and what was said on stderr. */
async function refusalOf(file: string) {
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
  const refused = await webhookClientSecret(memory.context, file).then(
    () => undefined,
    (error: unknown) => error as B2bctlError,
  );
  return { refused, stderr: memory.stderr() };
}

// Another user's file (one made first in a shared folder) or one others may write: they know the secret or can change
// it, and with it ask tokens and post forged events. Refused as a config.json of theirs is.
describe('a client secret file another user could change', () => {
  it.skipIf(root.missing)(`one another user owns, even 0600: refused, exit 77${root.note}`, async () => {
    const file = join(temporaryFolder(), 'secret');
    writeFileSync(file, `${fromFlag}\n`, { mode: 0o600 });
    chownSync(file, 65534, 65534);
    const { refused, stderr } = await refusalOf(file);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toMatch(
      new RegExp(
        `^The client secret file ${file} belongs to \\S+ \\(uid 65534\\), not to root: that user knows it and can change it\\. Make one of your own \\(umask 077; openssl rand -hex 32 > FILE\\), or sudo chown root ${file} && chmod 600 ${file} if you trust it\\.$`,
      ),
    );
    expect(stderr).toBe('');
  });

  it('one of ours that others may write (0666): refused, exit 77, naming the chmod', async () => {
    const file = join(temporaryFolder(), 'secret');
    writeFileSync(file, `${fromFlag}\n`);
    chmodSync(file, 0o666);
    const { refused } = await refusalOf(file);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toBe(
      `The client secret file ${file} is writable by its group and others (mode 0666): they could change it. Run chmod 600 ${file}, and check what it holds.`,
    );
  });
});

/** A file of root's that every user may read (as /etc/machine-id is), holding a secret-looking line. */
function rootReadableFile(): string {
  const file = join(temporaryFolder(), 'machine-id');
  writeFileSync(file, `${'a1'.repeat(16)}\n`, { mode: 0o444 });
  chmodSync(file, 0o444);
  return file;
}

/** A shared folder (1777, as /tmp) holding `name`, a link to `target` that another user (nobody) made. */
function othersLink(target: string, name = 'whsecret'): string {
  const shared = join(temporaryFolder(), 'shared');
  mkdirSync(shared, { mode: 0o1777 });
  const link = join(shared, name);
  symlinkSync(target, link);
  lchownSync(link, 65534, 65534);
  return link;
}

// Another user's link is the file they choose: pointed at a file every user may read (/etc/machine-id), they know
// the secret and ask tokens (a user test). Refused as a config folder through their link is, whatever it leads to.
describe.skipIf(root.missing)(`a client secret file through another user's symbolic link${root.note}`, () => {
  it('the link itself is theirs: refused, exit 77, naming the link, its owner and the rm; nothing warned', async () => {
    const link = othersLink(rootReadableFile());
    const { refused, stderr } = await refusalOf(link);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toMatch(
      new RegExp(
        `^The client secret file ${link} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at any file they can read, and so know the secret\\. Make one of your own \\(umask 077; openssl rand -hex 32 > FILE\\) and name that file itself, or remove the link \\(rm ${link}\\)\\.$`,
      ),
    );
    expect(stderr).toBe('');
  });

  it('a link of ours leading through theirs: refused, exit 77, naming their link', async () => {
    const theirs = othersLink(rootReadableFile());
    const mine = join(temporaryFolder(), 'secret');
    symlinkSync(theirs, mine);
    const { refused } = await refusalOf(mine);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toMatch(
      new RegExp(
        `^The client secret file ${mine} leads through ${theirs}, a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: .* or remove the link \\(rm ${theirs}\\)\\.$`,
      ),
    );
  });

  // A link to a folder higher in the path is the same power (a user test): re-pointed at a folder of theirs holding
  // a file of that name, its owner chooses the secret.
  it('their link to a folder higher in the path (shared/lnkdir/machine-id): refused, exit 77, naming it', async () => {
    const file = rootReadableFile();
    const folderLink = othersLink(dirname(file), 'lnkdir');
    const named = join(folderLink, 'machine-id');
    const { refused, stderr } = await refusalOf(named);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toMatch(
      new RegExp(
        `^The client secret file ${named} leads through ${folderLink}, a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at any file they can read, and so know the secret\\. .* or remove the link \\(rm ${folderLink}\\)\\.$`,
      ),
    );
    expect(stderr).toBe('');
  });

  it('a link of ours or root’s to a folder higher in the path: followed, the secret read', async () => {
    const file = join(temporaryFolder(), 'real-secret');
    writeFileSync(file, `${fromFlag}\n`, { mode: 0o600 });
    const folderLink = join(temporaryFolder(), 'lnkdir');
    symlinkSync(dirname(file), folderLink);
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    expect(await webhookClientSecret(memory.context, join(folderLink, 'real-secret'))).toBe(fromFlag);
    expect(memory.stderr()).toBe('');
  });

  it('a file in a folder others may write without the sticky bit (0777): refused, naming the folder and chmod go-w', async () => {
    const open = join(temporaryFolder(), 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const file = join(open, 'secret');
    writeFileSync(file, `${fromFlag}\n`, { mode: 0o600 });
    const { refused } = await refusalOf(file);
    expect(refused?.exitCode).toBe(77);
    expect(refused?.message).toMatch(
      new RegExp(
        `^The client secret file ${file} lies in ${open}, which its group and others may write \\(mode 0777\\) without the sticky bit: any of them can put a link of theirs in place of what it holds, and point it at any file they can read, and so know the secret\\. .*, or run chmod go-w ${open}\\.$`,
      ),
    );
  });

  it('a link of ours to a file others may read: taken, the warning and its chmod name the file it leads to', async () => {
    const file = join(temporaryFolder(), 'real-secret');
    writeFileSync(file, `${fromFlag}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    const link = join(temporaryFolder(), 'secret');
    symlinkSync(file, link);
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    expect(await webhookClientSecret(memory.context, link)).toBe(fromFlag);
    expect(memory.stderr()).toBe(
      `warning: the client secret file ${link} (a link to ${file}) may be read by other users (mode 0644); run chmod 600 ${file}.\n`,
    );
  });
});
