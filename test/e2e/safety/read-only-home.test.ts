/**
 * A cron user whose home cannot be written (a read-only mount; `HOME=/nonexistent` for a system user) and that names
 * its store in B2BCTL_BASE_URL and B2BCTL_TOKEN, with no profile, as settings.md allows: every stock push and orders
 * poll failed with exit 2 writing its lock under ~/.config/b2bctl/locks (a user test). The lock now goes to the user's
 * runtime folder ($XDG_RUNTIME_DIR, else the temporary folder's b2bctl-<uid>).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import {
  cleanEnv,
  cliPath,
  collect,
  copySamples,
  freshConfigDir,
  freshWorkDir,
  useSandboxPerFile,
} from '../../support/cli.js';
import { requireThat } from '../../support/external-tools.js';
import { requestCounts } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let token: string;
useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const readOnlyMount = requireThat(
  spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp'], {
    stdio: 'ignore',
  }).status === 0,
  'mounting a folder read-only needs root and unshare (util-linux)',
);

/** Runs the CLI in `work` with `home` mounted read-only as HOME, no config folder named, the store in the environment. */
function runWithReadOnlyHome(home: string, work: string, runtime: string, args: string[]) {
  const env = cleanEnv(freshConfigDir(), {
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    B2BCTL_BASE_URL: sandbox.url,
    B2BCTL_TOKEN: token,
  });
  delete env.B2BCTL_CONFIG_DIR;
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn(
    'unshare',
    ['-m', 'sh', '-c', `mount --bind '${home}' '${home}' && mount -o remount,ro,bind '${home}' && exec ${quoted}`],
    { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return collect(child);
}

describe('a read-only home, the store and token in the environment', () => {
  it.skipIf(readOnlyMount.missing)(
    `stock push and orders poll --cursor run, their locks in $XDG_RUNTIME_DIR/b2bctl${readOnlyMount.note}`,
    async () => {
      const home = temporaryFolder('b2bctl-home-');
      const work = freshWorkDir();
      const runtime = temporaryFolder('b2bctl-runtime-');
      chmodSync(runtime, 0o700);
      copySamples(work, 'stock.csv');
      const push = await runWithReadOnlyHome(home, work, runtime, ['stock', 'push', 'stock.csv', '--quiet']);
      expect([push.code, push.stderr]).toEqual([0, '']);
      expect((await requestCounts(sandbox))['PUT /v1/stock/batch']).toBeGreaterThan(0);
      const poll = await runWithReadOnlyHome(home, work, runtime, [
        'orders',
        'poll',
        '--since',
        '1h',
        '--cursor',
        join(work, 'cursor.json'),
        '-o',
        'ndjson',
        '--quiet',
      ]);
      expect([poll.code, poll.stderr]).toEqual([0, '']);
      expect(readdirSync(work).toSorted()).toContain('cursor.json');
      // The locks were taken there and released; nothing was written in the home.
      expect(readdirSync(join(runtime, 'b2bctl', 'locks'))).toEqual([]);
      expect(readdirSync(home)).toEqual([]);
    },
  );
});

/**
 * A home that is not there at all (`HOME=/nonexistent`): root, whom no permission stops, made it, with
 * .config/b2bctl/locks in it, to take a push's lock (a user test). A home is never b2bctl's to make: the lock goes to
 * the runtime folder, as for a home that cannot be written.
 */
describe('a home that is not there, the store and token in the environment', () => {
  it('stock push runs, its lock in $XDG_RUNTIME_DIR/b2bctl, and the home is not made', async () => {
    const home = join(temporaryFolder('b2bctl-home-'), 'nonexistent');
    const work = freshWorkDir();
    const runtime = temporaryFolder('b2bctl-runtime-');
    chmodSync(runtime, 0o700);
    copySamples(work, 'stock.csv');
    const env = cleanEnv(freshConfigDir(), {
      HOME: home,
      XDG_RUNTIME_DIR: runtime,
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_TOKEN: token,
    });
    delete env.B2BCTL_CONFIG_DIR;
    const child = spawn(process.execPath, [cliPath, 'stock', 'push', 'stock.csv', '--quiet'], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const push = await collect(child);
    expect([push.code, push.stderr]).toEqual([0, '']);
    expect(existsSync(home)).toBe(false);
    expect(readdirSync(join(runtime, 'b2bctl', 'locks'))).toEqual([]);
  });
});
