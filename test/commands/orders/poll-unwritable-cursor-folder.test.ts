/**
 * `orders poll` whose cursor cannot be saved (a read-only HOME, its config folder under a file): it emitted every
 * order, then failed to save the cursor (exit 75), and the next run emitted them all again. Refused now before
 * anything is fetched, exit 2 as every output path that cannot be written, on one line naming --cursor FILE (and
 * B2BCTL_CONFIG_DIR for the profile's own cursor).
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { requestCounts, resetCounts, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

const notRoot = requireThat(process.getuid?.() !== 0, 'root may write into a read-only folder; run as another user');

async function poll(args: readonly string[], configDir: string) {
  await resetCounts(sandbox);
  const result = await runCommandLine(['orders', 'poll', '--since', '1h', '-o', 'ndjson', ...args], {
    configDir,
    env,
  });
  const errors = result.stderr.trimEnd().split('\n');
  return { ...result, errors, sent: await requestCounts(sandbox) };
}

describe('orders poll with a cursor that cannot be saved', () => {
  it("the profile's cursor in a config folder under a file: refused at start, naming --cursor and B2BCTL_CONFIG_DIR (exit 2)", async () => {
    const folder = temporaryFolder('b2bctl-unwritable-cursor-');
    writeFileSync(join(folder, 'home'), '');
    const configDir = join(folder, 'home', '.config', 'b2bctl');
    const result = await poll([], configDir);
    expect(result.code).toBe(2);
    expect(result.errors).toEqual([
      `error: orders poll keeps this profile's cursor in the config folder (${join(configDir, 'cursors')}), which cannot be written (${join(folder, 'home')} is in the way, not a folder): the orders would be emitted, then no cursor saved, and the next run would emit them again; nothing was fetched. Give --cursor FILE in a folder this user can write (with --since for its first run), or set B2BCTL_CONFIG_DIR to such a folder.`,
    ]);
    expect(result.stdout).toBe('');
    expect(result.sent).toEqual({});
  });

  it('a --cursor in a folder under a file: refused at start, naming --cursor (exit 2)', async () => {
    const folder = temporaryFolder('b2bctl-unwritable-cursor-');
    writeFileSync(join(folder, 'plain'), '');
    const cursor = join(folder, 'plain', 'cursor.json');
    const result = await poll(['--cursor', cursor], join(folder, 'config'));
    expect(result.code).toBe(2);
    expect(result.errors).toEqual([
      `error: The folder of the orders cursor ${cursor} cannot be written (${join(folder, 'plain')} is in the way, not a folder): the orders would be emitted, then no cursor saved, and the next run would emit them again; nothing was fetched. Give --cursor FILE in a folder this user can write (with --since for its first run).`,
    ]);
    expect(result.stdout).toBe('');
    expect(result.sent).toEqual({});
  });

  it.skipIf(notRoot.missing)(
    `a read-only HOME: refused at start with the system's words (exit 2)${notRoot.note}`,
    async () => {
      const folder = temporaryFolder('b2bctl-unwritable-cursor-');
      const home = join(folder, 'home');
      mkdirSync(home, { mode: 0o555 });
      const configDir = join(home, '.config', 'b2bctl');
      try {
        const result = await poll([], configDir);
        expect(result.code).toBe(2);
        expect(result.errors).toEqual([
          expect.stringMatching(
            /^error: orders poll keeps this profile's cursor in the config folder \(.+\), which cannot be written \(EACCES: permission denied\): .+ Give --cursor FILE in a folder this user can write \(with --since for its first run\), or set B2BCTL_CONFIG_DIR to such a folder\.$/,
          ),
        ]);
        expect(result.sent).toEqual({});
        expect(existsSync(join(home, '.config'))).toBe(false);
      } finally {
        chmodSync(home, 0o755);
      }
    },
  );

  it('a folder it may write, not made yet: polls, and saves the cursor there', async () => {
    const folder = temporaryFolder('b2bctl-unwritable-cursor-');
    const cursor = join(folder, 'new', 'cursor.json');
    const result = await poll(['--cursor', cursor], join(folder, 'config'));
    expect(result.code).toBe(0);
    expect(existsSync(cursor)).toBe(true);
  });
});
