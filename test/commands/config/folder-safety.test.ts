/**
 * A config folder someone else could change is refused, as ssh refuses such a ~/.ssh: another user who owns it, or
 * anyone who may write it, could swap config.json and have an automatic re-login send B2BCTL_PASSWORD elsewhere.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

const root = requireThat(process.getuid?.() === 0, 'giving a folder to another user needs root');

/** A config folder with a profile in it, as a login leaves it. */
function configFolder(): string {
  const folder = join(temporaryFolder('b2bctl-config-safety-'), 'config');
  mkdirSync(folder, { mode: 0o700 });
  const profile = { baseUrl: 'https://loja.example.com.br', username: 'erp@loja.example.com.br' };
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
  return folder;
}

const readBaseUrl = (configDir: string) => runCommandLine(['config', 'get', 'baseUrl'], { configDir });

describe("the config folder must be this user's and private", () => {
  it("one of this user's, 0700, is used", async () => {
    const result = await readBaseUrl(configFolder());
    expect(result.stderr).not.toContain('writable by');
    expect(result.stdout).toContain('https://loja.example.com.br');
  });

  it.each([
    [0o770, 'its group', '0770'],
    [0o707, 'others', '0707'],
    [0o777, 'its group and others', '0777'],
  ])(
    'a folder of mode %o is refused (exit 77) naming who may write it and the chmod to run',
    async (mode, who, shown) => {
      const folder = configFolder();
      chmodSync(folder, mode);
      const result = await readBaseUrl(folder);
      expect(result.code).toBe(77);
      expect(result.stderr).toContain(
        `error: The config folder ${folder} is writable by ${who} (mode ${shown}): they could change where b2bctl sends your password. Run chmod go-w ${folder} (or chmod 700 ${folder}), and check its config.json is yours.`,
      );
      expect(result.stdout).toBe('');
    },
  );

  it('a config.json that is a symbolic link is refused (exit 77): a login never writes the token where it points', async () => {
    const folder = join(temporaryFolder('b2bctl-config-link-'), 'config');
    mkdirSync(folder, { mode: 0o700 });
    const target = join(folder, '..', 'elsewhere.json');
    symlinkSync(target, join(folder, 'config.json'));
    const result = await runCommandLine(['login', '--base-url', 'http://127.0.0.1:9', '--token-stdin', '--no-verify'], {
      configDir: folder,
      stdin: 'pre-issued-token\n',
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toContain(
      `error: The config file ${join(folder, 'config.json')} is a symbolic link, which b2bctl never writes through: the tokens would go wherever it points.`,
    );
    expect(existsSync(target)).toBe(false);
    // One pointing at a file that exists is refused alike, and the file is left as it was.
    writeFileSync(target, '{}', { mode: 0o644 });
    expect((await readBaseUrl(folder)).code).toBe(77);
    expect(readFileSync(target, 'utf8')).toBe('{}');
  });

  it('a config.json others may write is refused (exit 77)', async () => {
    const folder = configFolder();
    chmodSync(join(folder, 'config.json'), 0o666);
    const result = await readBaseUrl(folder);
    expect(result.code).toBe(77);
    expect(result.stderr).toContain(
      `The config file ${join(folder, 'config.json')} is writable by its group and others (mode 0666)`,
    );
  });

  it('a config.json others may read (0644) is put back to 0600 when read: it holds the tokens', async () => {
    const folder = configFolder();
    const file = join(folder, 'config.json');
    chmodSync(file, 0o644);
    const result = await readBaseUrl(folder);
    expect(result.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a sticky folder open to all (1777) is shown with its sticky bit', async () => {
    const folder = configFolder();
    chmodSync(folder, 0o1777);
    const result = await readBaseUrl(folder);
    expect(result.code).toBe(77);
    expect(result.stderr).toContain(`is writable by its group and others (mode 1777)`);
  });

  // A service user's folder, which root meets checking its cron job: `chown root` it, as the refusal once said, and
  // the service user's job could no longer read its own profiles (a user test). Run as that user instead.
  it.skipIf(root.missing)(
    `a folder another user owns is refused (exit 77) naming the owner, and advising to run as that user, not to chown it${root.note}`,
    async () => {
      const folder = configFolder();
      chownSync(folder, 4321, 4321);
      const unnamed = await readBaseUrl(folder);
      expect(unnamed.code).toBe(77);
      expect(unnamed.stdout).toBe('');
      expect(unnamed.stderr).toBe(
        `error: The config folder ${folder} belongs to uid 4321, not to root: that user could change where b2bctl sends your password. If it is that user's, run b2bctl as its owner (uid 4321), leaving its owner as it is; otherwise point B2BCTL_CONFIG_DIR at a folder of your own.\n`,
      );
      chownSync(folder, 65534, 65534);
      const named = await readBaseUrl(folder);
      expect(named.code).toBe(77);
      expect(named.stderr).toBe(
        `error: The config folder ${folder} belongs to nobody (uid 65534), not to root: that user could change where b2bctl sends your password. If it is that user's, run b2bctl as that user (sudo -u nobody b2bctl …), leaving its owner as it is; otherwise point B2BCTL_CONFIG_DIR at a folder of your own.\n`,
      );
      // Nothing was changed.
      expect(statSync(folder).uid).toBe(65534);
    },
  );

  it.skipIf(root.missing)(
    `a folder in this user's own home that another user owns is offered the chown${root.note}`,
    async () => {
      const folder = configFolder();
      chownSync(folder, 4321, 4321);
      const home = process.env.HOME;
      process.env.HOME = dirname(folder);
      try {
        const result = await readBaseUrl(folder);
        expect(result.code).toBe(77);
        expect(result.stderr).toBe(
          `error: The config folder ${folder} belongs to uid 4321, not to root: that user could change where b2bctl sends your password. Make it yours (sudo chown root ${folder} && chmod 700 ${folder}), or point B2BCTL_CONFIG_DIR at a folder of your own.\n`,
        );
      } finally {
        process.env.HOME = home;
      }
    },
  );

  // Another user's link in a shared folder, named as the config folder: its owner could re-point it at another config
  // folder of this user's (a production profile and its token) between two runs of the job.
  it.skipIf(root.missing)(
    `a config folder named through a link another user owns is refused (exit 77), with or without a trailing slash${root.note}`,
    async () => {
      const folder = configFolder();
      const shared = join(temporaryFolder('b2bctl-config-shared-'), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const link = join(shared, 'cfglink');
      symlinkSync(folder, link);
      lchownSync(link, 4321, 4321);
      for (const named of [link, `${link}/`]) {
        const result = await readBaseUrl(named);
        expect(result.code).toBe(77);
        expect(result.stderr).toBe(
          `error: The config folder ${link} is a symbolic link that belongs to uid 4321, not to root: that user can point it at another config folder (another profile, base URL and token) whenever they like. Point B2BCTL_CONFIG_DIR at the folder itself, one of your own, or remove the link (rm ${link}).\n`,
        );
        expect(result.stdout).toBe('');
      }
      lchownSync(link, 0, 0);
      const ownLink = await readBaseUrl(link);
      expect(ownLink.code).toBe(0);
      expect(ownLink.stdout).toContain('https://loja.example.com.br');
    },
  );

  // A link higher in the path is the same power (a user test): re-pointed at a folder of theirs holding
  // `inner/config.json` with their base URL, the next login would send the password there.
  it.skipIf(root.missing)(
    `a config folder named through another user's link higher in the path (shared/cl/inner) is refused (exit 77)${root.note}`,
    async () => {
      const folder = configFolder();
      const shared = join(temporaryFolder('b2bctl-config-shared-'), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const link = join(shared, 'cl');
      symlinkSync(join(folder, '..'), link);
      lchownSync(link, 4321, 4321);
      const named = join(link, 'config');
      const result = await runCommandLine(['config', 'set', 'baseUrl', 'https://outra.example.com.br'], {
        configDir: named,
      });
      expect(result.code).toBe(77);
      expect(result.stderr).toBe(
        `error: The config folder ${named} leads through ${link}, a symbolic link that belongs to uid 4321, not to root: that user can point it at another config folder (another profile, base URL and token) whenever they like. Point B2BCTL_CONFIG_DIR at the folder itself, one of your own, or remove the link (rm ${link}).\n`,
      );
      // Nothing was written.
      expect(readFileSync(join(folder, 'config.json'), 'utf8')).toContain('https://loja.example.com.br');
    },
  );

  it.skipIf(root.missing)(
    `a login into a folder another user owns is refused before the password is asked for${root.note}`,
    async () => {
      const folder = configFolder();
      chownSync(join(folder, 'config.json'), 4321, 4321);
      const result = await runCommandLine(['login', '--username', 'erp@loja.example.com.br'], {
        configDir: folder,
        env: { B2BCTL_PASSWORD: 'Senha#2001' },
      });
      expect(result.code).toBe(77);
      expect(result.stderr).toContain(`The config file ${join(folder, 'config.json')} belongs to uid 4321`);
    },
  );
});
