/**
 * The code cache the build writes (bin/code-cache.js): V8 accepts it under the Node that built it, and the binary
 * says the same with it as without it (source maps on, as with --verbose, turn it off).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from '../../support/cli.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const dist = new URL('../../../dist/', import.meta.url).pathname;

describe('the code cache of the built binary', () => {
  // The cache file starts with a 32-byte SHA-256 of the source and the data (bin/code-cache.js); V8 gets the rest.
  it.each([['cli.js']])('dist/%s has one, and a plain node accepts it', (file) => {
    const check = `const { Script } = require('node:vm'); const Module = require('node:module'); const fs = require('node:fs');
const file = ${JSON.stringify(join(dist, file))};
const script = new Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData: fs.readFileSync(file + '.cache').subarray(32) });
process.stdout.write(String(script.cachedDataRejected));`;
    expect(execFileSync(process.execPath, ['-e', check], { encoding: 'utf8' })).toBe('false');
  });

  it.each([
    [['sellers', 'list', '--help']],
    [['--help']],
    [['nosuch']],
    [['stock', 'push', '--route', 'x', 'f.csv']],
    [['stock', 'validate', 'missing.csv']],
  ])('%j: the same output and exit code with the cache and without it', async (words) => {
    const configDir = freshConfigDir();
    const env = { B2BCTL_LOG_FORMAT: 'plain' };
    const cached = await runCli(words, { configDir, env });
    const uncached = await runCli(words, { configDir, env: { ...env, NODE_OPTIONS: '--enable-source-maps' } });
    expect(cached).toEqual(uncached);
    expect(cached.stdout + cached.stderr).not.toBe('');
  });
});
