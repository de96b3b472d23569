/**
 * config.json written by several commands at once (cron jobs of different profiles renewing their tokens, a
 * `config set` during a run): each read-modify-write waits its turn, so none drops another's change.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, readConfig, runCli } from '../../support/cli.js';

describe('config.json under concurrent writers (built binary)', () => {
  it('twelve `config set` of twelve profiles at once: every profile kept, every command exit 0', async () => {
    const configDir = freshConfigDir();
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        runCli(['--profile', `loja${index}`, 'config', 'set', 'baseUrl', `https://loja${index}.example.com`], {
          configDir,
        }),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual(Array(12).fill(0));
    const profiles = readConfig(configDir).profiles;
    expect(Object.keys(profiles).toSorted()).toEqual(
      Array.from({ length: 12 }, (_, index) => `loja${index}`).toSorted(),
    );
    for (const [name, profile] of Object.entries(profiles)) expect(profile.baseUrl).toBe(`https://${name}.example.com`);
    // The lock is gone once the writers are.
    expect(readdirSync(configDir)).toEqual(['config.json']);
  });
});
