/**
 * A running b2bctl whose package is replaced under it (`npm install -g` of another build, an uninstall): the chunks
 * of dist/ it has not loaded yet are gone, their names carrying their content's hash. The built launcher and bundle,
 * copied as npm installs them, so that their dist/ can be replaced while they run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, cpSync, readdirSync, renameSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, collect, freshConfigDir, type RunResult } from '../../support/cli.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** The package as npm installs it: the launcher, the bundle and package.json (the single file's dist/bin/ left out). */
function installedPackage(): string {
  const folder = temporaryFolder('b2bctl-installed-');
  cpSync(join(repoRoot, 'bin'), join(folder, 'bin'), { recursive: true });
  cpSync(join(repoRoot, 'dist'), join(folder, 'dist'), {
    recursive: true,
    filter: (source) => source !== join(repoRoot, 'dist', 'bin'),
  });
  copyFileSync(join(repoRoot, 'package.json'), join(folder, 'package.json'));
  return folder;
}

/** What another build's install leaves in dist/chunks/: every chunk under another name. */
function installAnotherBuild(folder: string): void {
  const chunks = join(folder, 'dist', 'chunks');
  for (const name of readdirSync(chunks))
    renameSync(join(chunks, name), join(chunks, name.replace(/\.js/, '-NEXT.js')));
}

function start(
  folder: string,
  args: readonly string[],
  platform: Record<string, string> = {},
): { child: ChildProcess; ended: Promise<RunResult> } {
  const child = spawn(process.execPath, [join(folder, 'bin', 'b2bctl.js'), ...args], {
    env: cleanEnv(freshConfigDir(), platform),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, ended: collect(child) };
}

describe('b2bctl upgraded while it runs', () => {
  it('orders poll --watch stopped after the upgrade, waiting on the platform, says so as before it: no advice to build', async () => {
    // A platform that takes the listing's request and never answers: the stop comes during a run, whose end is an
    // error said by the error table, which the run had not needed before.
    const sockets: Socket[] = [];
    const platform = createServer((socket) => sockets.push(socket));
    const connected = once(platform, 'connection');
    await new Promise<void>((listening) => platform.listen(0, '127.0.0.1', listening));
    const { port } = platform.address() as AddressInfo;
    try {
      const folder = installedPackage();
      const work = temporaryFolder('b2bctl-watch-');
      const { child, ended } = start(
        folder,
        ['orders', 'poll', '--watch', '--since', '2h', '--out-dir', work, '--cursor', join(work, 'cursor')],
        { B2BCTL_BASE_URL: `http://127.0.0.1:${port}`, B2BCTL_TOKEN: 'a-token' },
      );
      await connected;
      installAnotherBuild(folder);
      child.kill('SIGTERM');
      const result = await ended;
      expect(result.stderr).not.toContain('not built');
      expect(result.stderr).toMatch(
        /^error: orders poll interrupted: [^\n]*the next run starts from --since [^\n]*\.\n$/,
      );
      expect(result.code).toBe(75);
    } finally {
      for (const socket of sockets) socket.destroy();
      platform.close();
    }
  }, 60_000);

  it('a module of dist/ gone as the bundle loads: one line, exit 75, so a service manager starts it again', async () => {
    const folder = installedPackage();
    installAnotherBuild(folder);
    const result = await start(folder, ['orders', 'poll', '--since', '2h']).ended;
    expect(result.stderr).toMatch(
      /^error: b2bctl was upgraded or removed while running \(dist\/chunks\/[^ ]+\.js is gone\); restart it\.\n$/,
    );
    expect(result.code).toBe(75);
    expect(result.stdout).toBe('');
  });
});
