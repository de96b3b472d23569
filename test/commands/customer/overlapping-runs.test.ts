/**
 * Two customer runs of one profile at once (a cron job started while the operator's run of the same weekly file
 * still runs): each found the other's creates "already registered" and reported them failed, to fix and feed back
 * (a user test). `customer create`, `update` and `status` FILE now take one lock per profile, as `stock push` does:
 * the second stops, exit 75, naming the first, and sends nothing.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireProfileLock, profileLockPath } from '../../../src/config/lock.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { twoCustomerChangeFiles, twoCustomersFile } from '../../support/customers.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { scriptedPlatformEnv } from '../../support/scripted-workspace.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const runs: [name: string, verb: string, file: string][] = [
  ['customer create', 'create', twoCustomersFile],
  ...twoCustomerChangeFiles.map(([verb, file]): [string, string, string] => [`customer ${verb}`, verb, file]),
];

describe.each(runs)('%s FILE while another customer run of the profile holds its lock', (_name, verb, file) => {
  it('stops, exit 75, naming the run that holds it; nothing is sent, no report is written', async () => {
    const configDir = freshConfigDir();
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'c.csv'), file);
    // The other run: this test's process, alive, holding the lock as a run of `customer create` does.
    const release = acquireProfileLock(
      configDir,
      'default',
      'customers',
      'b2bctl customer create (profile default)',
      () => {},
    );
    try {
      const result = await runCommandLine(['customer', verb, 'c.csv'], {
        configDir,
        env: scriptedPlatformEnv(platform),
        cwd: dir,
      });
      expect(result.code).toBe(75);
      expect(result.stderr).toContain(
        `Another "b2bctl customer create (profile default)" is running (PID ${process.pid}, since `,
      );
      expect(platform.received).toEqual([]);
      expect(readdirSync(dir)).toEqual(['c.csv']);
    } finally {
      release();
    }
    expect(existsSync(profileLockPath(configDir, 'default', 'customers'))).toBe(false);
  });
});
