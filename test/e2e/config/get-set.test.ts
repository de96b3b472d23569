/**
 * `config` as a process: the exit codes a script reads and the bare value on stdout. The settings' rules are
 * tested in process (test/commands/config/get-set-list.test.ts).
 */
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { configFile, freshConfigDir, runCli } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

describe('config (built CLI)', () => {
  it('set then get: exit 0, the bare value on stdout, the file private to its owner', async () => {
    const configDir = freshConfigDir();
    const set = await runCli(['config', 'set', 'paths.token', '/oauth/token'], { configDir });
    expect(set).toMatchObject({ code: 0, stdout: '', stderr: 'Set paths.token for profile "default".\n' });
    expect(statSync(configFile(configDir)).mode & 0o777).toBe(0o600);
    const get = await runCli(['config', 'get', 'paths.token'], { configDir });
    expect(get).toMatchObject({ code: 0, stdout: '/oauth/token\n', stderr: '' });
  });

  it('get of a setting that is not set exits 1; an unknown key exits 2', async () => {
    const configDir = freshConfigDir();
    expect(await runCli(['config', 'get', 'baseUrl'], { configDir })).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: "baseUrl" is not set for profile "default".\n',
    });
    expect(await runCli(['config', 'get', 'xyzzy'], { configDir })).toMatchObject({
      code: 2,
      stderr: 'error: unknown setting "xyzzy"; run b2bctl config list to see them all\n',
    });
  });
});
