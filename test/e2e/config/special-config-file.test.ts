/**
 * A FIFO (or a socket, a device) where config.json should be: conf reads the file with a blocking open, which held
 * every command for ever, deaf to SIGTERM. Refused instead, exit 77, as a symbolic link there is. A process test:
 * in process, the blocking open would hold the test worker itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, spawnCli } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

describe('config.json that is not a file', () => {
  it('a FIFO: refused at once (exit 77) with the rm to run, not waited on', async () => {
    const configDir = join(temporaryFolder(), 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const fifo = join(configDir, 'config.json');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const child = spawnCli(['whoami'], configDir);
    child.stdin?.end();
    // A run that waits on the FIFO is ended here, so the test fails instead of hanging.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const result = await collect(child).finally(() => clearTimeout(stuck));
    expect(result).toMatchObject({
      code: 77,
      stdout: '',
      stderr: `error: The config file ${fifo} is a named pipe (FIFO), not a file: b2bctl would wait on it for ever. Remove it (rm ${fifo}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.\n`,
    });
  });

  it('a folder (what docker -v makes of a host file not yet made): refused (exit 77) with the rmdir to run', async () => {
    const configDir = join(temporaryFolder(), 'config');
    const folder = join(configDir, 'config.json');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const result = await collect(spawnCli(['whoami'], configDir));
    expect(result).toMatchObject({
      code: 77,
      stdout: '',
      stderr: `error: The config file ${folder} is a folder, not a file: b2bctl cannot read or write it. Remove it (rmdir ${folder}) and log in again, or point B2BCTL_CONFIG_DIR at a folder of your own.\n`,
    });
  });
});
