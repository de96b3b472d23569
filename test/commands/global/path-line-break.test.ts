/**
 * A folder or file name holding a line break keeps every refusal about it one line, as bulk runs' file names already
 * did (file-name-line-break.test.ts): the config folder and its config.json, an `orders poll` cursor, a webhook inbox
 * and the words commander quotes back. Off a terminal each line starts with its time; the raw line break cut the
 * error in two, the second half without a time, so a log watcher read half a message.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

const broken = 'linha1\nlinha2';
const shown = 'linha1\\nlinha2';
/** A log line as cron keeps it: its time, then the message. */
const timed = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

/** Runs `args` in `folder`, off a terminal with times on each line; resolves to the exit code and the error lines. */
async function refused(args: readonly string[], folder: string, configDir = join(folder, 'config')) {
  await resetCounts(sandbox);
  const result = await runCommandLine(args, {
    configDir,
    cwd: folder,
    env: { ...env, B2BCTL_LOG_FORMAT: 'text' },
  });
  const lines = result.stderr.trimEnd().split('\n');
  for (const line of lines) expect(line).toMatch(timed);
  return { code: result.code, stdout: result.stdout, errors: lines.filter((line) => / error: /.test(line)) };
}

describe('a path with a line break in a refusal', () => {
  it('a config folder others may write: one line, its name with \\n, nothing saved (exit 77)', async () => {
    const folder = temporaryFolder('b2bctl-path-break-');
    const config = join(folder, `config ${broken}`);
    mkdirSync(config);
    chmodSync(config, 0o777);
    const { code, errors } = await refused(['config', 'set', 'http.retries', '2'], folder, config);
    expect(code).toBe(77);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`error: The config folder ${join(folder, `config ${shown}`)} is writable by`);
    expect(existsSync(join(config, 'config.json'))).toBe(false);
  });

  it('a config.json that is not JSON, in a folder with a line break: one line (exit 2)', async () => {
    const folder = temporaryFolder('b2bctl-path-break-');
    const config = join(folder, `config ${broken}`);
    mkdirSync(config, { mode: 0o700 });
    writeFileSync(join(config, 'config.json'), '{x', { mode: 0o600 });
    const { code, errors } = await refused(['config', 'list'], folder, config);
    expect(code).toBe(2);
    expect(errors).toEqual([
      expect.stringContaining(`error: Config file ${join(folder, `config ${shown}`)}/config.json is not valid JSON`),
    ]);
  });

  it('orders poll: a --cursor that is not a cursor, a folder, or writable by others: one line each, nothing fetched', async () => {
    const folder = temporaryFolder('b2bctl-path-break-');
    writeFileSync(join(folder, `cursor ${broken}.json`), 'junk', { mode: 0o600 });
    const corrupt = await refused(['orders', 'poll', '--cursor', `cursor ${broken}.json`], folder);
    expect(corrupt.code).toBe(2);
    expect(corrupt.errors).toEqual([
      expect.stringContaining(`error: The orders cursor cursor ${shown}.json is not a cursor file`),
    ]);
    expect(await requestCounts(sandbox)).toEqual({});

    mkdirSync(join(folder, `folder ${broken}`));
    const aFolder = await refused(['orders', 'poll', '--cursor', `folder ${broken}`], folder);
    expect(aFolder.code).toBe(66);
    expect(aFolder.errors).toEqual([expect.stringContaining(`error: The orders cursor folder ${shown} is a folder`)]);
    expect(await requestCounts(sandbox)).toEqual({});

    writeFileSync(join(folder, `shared ${broken}.json`), '{}');
    chmodSync(join(folder, `shared ${broken}.json`), 0o666);
    const shared = await refused(['orders', 'poll', '--cursor', `shared ${broken}.json`], folder);
    expect(shared.code).toBe(77);
    // The chmod it names stays a command bash reads back to the very file.
    expect(shared.errors).toEqual([
      expect.stringContaining(
        `error: The orders cursor shared ${shown}.json is writable by its group and others (mode 0666): whoever can change it decides which orders the poll emits and which it skips; nothing was emitted. Run chmod go-w $'shared ${shown}.json'`,
      ),
    ]);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('webhook inbox: a folder with no inbox, and an inbox.sqlite that is a folder: one line each', async () => {
    const folder = temporaryFolder('b2bctl-path-break-');
    const missing = await refused(['webhook', 'inbox', '--inbox', `inbox ${broken}`], folder);
    expect(missing.code).toBe(66);
    expect(missing.errors).toEqual([
      expect.stringContaining(`error: No webhook inbox in inbox ${shown} (no inbox.sqlite)`),
    ]);

    mkdirSync(join(folder, `other ${broken}`, 'inbox.sqlite'), { recursive: true, mode: 0o700 });
    const notAFile = await refused(['webhook', 'inbox', '--inbox', `other ${broken}`], folder);
    expect(notAFile.code).toBe(2);
    expect(notAFile.errors).toEqual([
      expect.stringContaining(`error: other ${shown}/inbox.sqlite is a folder, not a file;`),
    ]);
    expect(notAFile.stdout).toBe('');
  });

  it('a usage error quoting a word with a line break: one line (exit 2)', async () => {
    const folder = temporaryFolder('b2bctl-path-break-');
    const { code, errors } = await refused(['webhook', 'inbox', `inbox ${broken}`], folder);
    expect(code).toBe(2);
    expect(errors).toEqual([expect.stringContaining(`got 1: inbox ${shown}.`)]);
  });
});
