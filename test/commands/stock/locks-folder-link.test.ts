/**
 * The config folder's `locks` folder as a symbolic link to a folder every user may write, or a folder others may
 * write (a user test): the push's lock was written there and trusted, so any local user could delete it (two
 * pushes overlapping) or make one first (pushes stopping). Refused before anything is sent, exit 77, as a link at
 * the cursor is.
 */
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

async function push(configDir: string) {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\n');
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  return runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch'], {
    configDir,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
  });
}

/** A config folder of this user's, 0700, as b2bctl makes it. */
function configFolder(): string {
  const configDir = freshConfigDir();
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  chmodSync(configDir, 0o700);
  return configDir;
}

describe.skipIf(process.platform === 'win32')("the config folder's locks folder", () => {
  it('a symbolic link (to a folder every user may write): refused, exit 77, nothing sent, no lock written there', async () => {
    const configDir = configFolder();
    const shared = join(freshWorkDir(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    symlinkSync(shared, join(configDir, 'locks'));
    const result = await push(configDir);
    expect(result.code).toBe(77);
    expect(result.stderr).toContain(
      `error: The locks folder ${join(configDir, 'locks')} is a symbolic link, which b2bctl never keeps its locks through: whoever can change what is in it can remove a run's lock so that two runs of one job overlap, or make one so that none runs. Remove the link (rm ${join(configDir, 'locks')}); b2bctl makes the folder itself, private.\n`,
    );
    expect(platform.received).toEqual([]);
    expect(readdirSync(shared)).toEqual([]);
  });

  it('a folder its group or others may write: refused, exit 77, nothing sent', async () => {
    const configDir = configFolder();
    mkdirSync(join(configDir, 'locks'));
    chmodSync(join(configDir, 'locks'), 0o777);
    const result = await push(configDir);
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/error: The locks folder \S+ is writable by .* \(mode \S+\): .* Run chmod 700 /);
    expect(platform.received).toEqual([]);
  });

  it('one of its own (0700): the push runs', async () => {
    const configDir = configFolder();
    mkdirSync(join(configDir, 'locks'), { mode: 0o700 });
    const result = await push(configDir);
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['PUT /v1/stock/batch']);
  });
});
