/**
 * A config folder this user may not read (root's 0700, which a colleague's command meets, a user test) is no empty
 * configuration: every command that reads a profile says the folder cannot be used, as login does, and config list
 * does not present the defaults as the configuration (exit 2, nothing listed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

const root = requireThat(process.getuid?.() === 0, 'running a command as another user needs root');
const nobody = 65534;

/** Root's config folder with a profile in it, as root's login leaves it (0700). */
function rootsConfigFolder(): string {
  const folder = join(temporaryFolder('b2bctl-config-unreadable-'), 'config');
  mkdirSync(folder, { mode: 0o700 });
  const profile = { baseUrl: 'https://loja.example.com.br', username: 'erp@loja.example.com.br' };
  writeFileSync(join(folder, 'config.json'), JSON.stringify({ profiles: { lojaA: profile } }), { mode: 0o600 });
  return folder;
}

/** The command line run as another user (its effective id), as a colleague sharing the folder runs it. */
async function asNobody(args: readonly string[], configDir: string) {
  process.seteuid?.(nobody);
  try {
    return await runCommandLine(args, { configDir });
  } finally {
    process.seteuid?.(0);
  }
}

describe('a config folder this user cannot read', () => {
  it
    .skipIf(root.missing)
    .each([
      [['--profile', 'lojaA', 'whoami']],
      [['--profile', 'lojaA', 'config', 'get', 'baseUrl']],
      [['config', 'list', '-o', 'json']],
      [['config', 'get', 'http.timeout']],
    ])(`%j says the folder cannot be used and who owns it, exit 2${root.note}`, async (args) => {
    // Its temporary folder, root's 0700, is the first on its path this user may not look into.
    const folder = rootsConfigFolder();
    const result = await asNobody(args, folder);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: Cannot use the config folder ${folder} (EACCES: ${dirname(folder)} belongs to root (uid 0)). Set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder this user can write.\n`,
    );
  });
});
