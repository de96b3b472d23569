/**
 * --help and --version of the built binary: the version is the one the build put in it (package.json's).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

describe('the built binary', () => {
  it('--help and --version exit 0 on stdout', async () => {
    const help = await runCli(['sellers', 'list', '--help'], { configDir: freshConfigDir() });
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n')[0]).toBe('Usage: b2bctl sellers list [options]');
    expect(help.stderr).toBe('');
    const version = await runCli(['--version'], { configDir: freshConfigDir() });
    expect(version.code).toBe(0);
    const { version: expected } = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(version.stdout).toBe(`${expected}\n`);
  });
});
