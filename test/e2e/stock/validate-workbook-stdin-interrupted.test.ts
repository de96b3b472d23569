/**
 * A workbook on stdin whose writer stalls half-way (`slow-export | b2bctl stock validate -`): the copy b2bctl makes in
 * TMPDIR is private while it is written, and gone after Ctrl-C, whether the first one stops the run (exit 75) or a
 * second one ends the process at once (130). Only a process shows the signals and what it leaves behind.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath, collect, compileCache, freshConfigDir, freshWorkDir, sleep } from '../../support/cli.js';
import { repoRoot } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const workbook = readFileSync(join(repoRoot, 'test', 'fixtures', 'workbooks', 'estoque.xlsx'));

/** `stock validate -` with the first 4 KB of a workbook on stdin, which then stays open; its TMPDIR its own. */
function startStalled() {
  const temporary = join(freshWorkDir(), 'tmp');
  mkdirSync(temporary);
  const child = spawn(process.execPath, [cliPath, 'stock', 'validate', '-'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: temporary,
      NODE_COMPILE_CACHE: compileCache,
      B2BCTL_CONFIG_DIR: freshConfigDir(),
      B2BCTL_LOG_FORMAT: 'plain',
    },
  });
  child.stdin.write(workbook.subarray(0, 4096));
  return { child, temporary, result: collect(child) };
}

/** Resolves with the copy's path (folder/file under TMPDIR) once it holds the bytes written so far. */
async function copyWritten(temporary: string): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    const copy = readdirSync(temporary, { recursive: true })
      .map(String)
      .find((name) => name.endsWith('stdin.xlsx'));
    if (copy !== undefined && statSync(join(temporary, copy)).size === 4096) return copy;
    await sleep(20);
  }
  throw new Error('no copy of stdin in TMPDIR after 30 s');
}

describe('a workbook on stdin that stalls, then Ctrl-C', () => {
  it('the copy is 0600 in a 0700 folder while written; the first SIGINT stops the run (75) and removes it', async () => {
    const { child, temporary, result } = startStalled();
    const copy = await copyWritten(temporary);
    expect(statSync(join(temporary, copy)).mode & 0o777).toBe(0o600);
    expect(statSync(join(temporary, copy, '..')).mode & 0o777).toBe(0o700);
    child.kill('SIGINT');
    const { code, stderr } = await result;
    expect(stderr).toContain('error: Interrupted while reading stdin.\n');
    expect(code).toBe(75);
    expect(readdirSync(temporary)).toEqual([]);
  });

  it('a second SIGINT ends the process at once (130), and the copy is gone too', async () => {
    const { child, temporary, result } = startStalled();
    await copyWritten(temporary);
    child.kill('SIGINT');
    child.kill('SIGINT');
    const { signal, code } = await result;
    // Ended by the second signal, or by the first if it finished before the second came.
    expect(['SIGINT', '130', '75']).toContain(String(signal ?? code));
    expect(readdirSync(temporary)).toEqual([]);
  });
});
