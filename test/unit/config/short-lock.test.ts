/**
 * withShortLock: the lock of a few milliseconds around a read-modify-write of config.json, the same lock as the
 * per-profile ones (docs/decisions/0014-lock-takeover.md). Processes contending for it: lock-contention.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { withShortLock } from '../../../src/config/short-lock.js';
import { processStartTime } from '../../../src/lib/process-alive.js';
import { temporaryFolder } from '../../support/temporary.js';

/** A lock file's text as a running process (this one) holding it writes it. */
function liveHoldersText(): string {
  return JSON.stringify({
    pid: process.pid,
    command: 'a config write',
    startedAt: '2026-12-01T02:00:00.000Z',
    processStart: processStartTime(process.pid),
    nonce: 'another-holders-nonce',
  });
}

/** Makes the file look `seconds` old, as a holder stopped that long (SIGSTOP, a closed laptop lid) leaves it. */
function aged(path: string, seconds: number): void {
  const past = new Date(Date.now() - seconds * 1000);
  utimesSync(path, past, past);
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('withShortLock', () => {
  it('holds the lock file, naming this process, while the work runs, and removes it after, also when the work throws', () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    expect(withShortLock(path, () => JSON.parse(readFileSync(path, 'utf8')).pid)).toBe(process.pid);
    expect(existsSync(path)).toBe(false);
    expect(() =>
      withShortLock(path, () => {
        throw new Error('the work failed');
      }),
    ).toThrow('the work failed');
    expect(existsSync(path)).toBe(false);
  });

  it('takes over at once a lock whose writer no longer runs, however young, and an empty one an older b2bctl left', async () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), command: 'a config write', startedAt: 'then' }));
    // At once: no wait for the lock to grow old. The wait allowed is well under the 10 s a lock once had to age, and
    // far over what a loaded machine takes for the takeover itself (30 ms was missed under load).
    expect(withShortLock(path, () => 'done', { waitMs: 5_000 })).toBe('done');
    writeFileSync(path, '');
    aged(path, 60);
    expect(withShortLock(path, () => 'done')).toBe('done');
    expect(existsSync(path)).toBe(false);
  });

  it('never takes over the lock of a holder that still runs, however old: waits, then says who holds it, having run nothing', () => {
    // A holder stopped for a minute: its lock file is a minute old (a user test).
    const path = join(temporaryFolder(), 'config.json.lock');
    writeFileSync(path, liveHoldersText());
    aged(path, 60);
    let ran = false;
    const error = thrownBy(() =>
      withShortLock(
        path,
        () => {
          ran = true;
        },
        { waitMs: 30 },
      ),
    );
    expect(error).toBeInstanceOf(B2bctlError);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect((error as Error).message).toBe(
      `The lock ${path} has been held for over 0.03 s by PID ${process.pid} (a config write, since 2026-12-01T02:00:00.000Z), which is still running; nothing was written. Try again; if PID ${process.pid} is not b2bctl, remove ${path}.`,
    );
    expect(ran).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(liveHoldersText());
  });

  it('waits for a lock being written (empty, just made), then names the file', () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    writeFileSync(path, '');
    expect(() => withShortLock(path, () => 'never', { waitMs: 30 })).toThrow(
      `The lock ${path} has been held for over 0.03 s by another b2bctl; nothing was written. Try again; if no b2bctl is running, remove ${path}.`,
    );
  });

  it("leaves, on release, a lock that is no longer its own (another writer's, after a takeover)", () => {
    const path = join(temporaryFolder(), 'config.json.lock');
    withShortLock(path, () => writeFileSync(path, liveHoldersText()));
    expect(readFileSync(path, 'utf8')).toBe(liveHoldersText());
  });
});
