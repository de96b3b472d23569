import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type LockFileSystem, profileLockPath } from '../../../src/config/lock.js';
import { B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { processStartTime } from '../../../src/lib/process-alive.js';
import { canListOpenFiles, openFiles } from '../../support/open-files.js';
import { temporaryFolder } from '../../support/temporary.js';
import { thrownBy } from '../../support/thrown.js';

let folder: string;
beforeAll(() => {
  folder = temporaryFolder('b2bctl-lock-');
});

let lockCount = 0;
const nextLockPath = () => join(folder, `profile-${++lockCount}`, 'stock-push.lock');

/** Leaves a lock file as another run would have. */
function writeLock(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function holderOf(path: string): { pid: number; command: string; startedAt: string } {
  return JSON.parse(readFileSync(path, 'utf8')) as { pid: number; command: string; startedAt: string };
}

/** A child process that exits at once; once it has, its PID belongs to no process (until the OS reuses it). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  expect(child.pid).toBeTypeOf('number');
  return child.pid as number;
}

describe('acquireLock', () => {
  it('creates the lock with our PID and command, mode 0600 in a 0700 folder, and release removes it', () => {
    const path = nextLockPath();
    const warnings: string[] = [];
    const release = acquireLock(path, 'stock push', (message) => warnings.push(message));
    const holder = holderOf(path);
    expect(holder.pid).toBe(process.pid);
    expect(holder.command).toBe('stock push');
    expect(Number.isNaN(Date.parse(holder.startedAt))).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    release();
    expect(existsSync(path)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('release is idempotent and does not remove a lock taken by someone else since', () => {
    const path = nextLockPath();
    const release = acquireLock(path, 'stock push', () => {});
    release();
    const again = acquireLock(path, 'orders poll', () => {});
    release();
    expect(holderOf(path).command).toBe('orders poll');
    again();
    again();
    expect(existsSync(path)).toBe(false);
  });

  it('can be taken again after release', () => {
    const path = nextLockPath();
    acquireLock(path, 'stock push', () => {})();
    const release = acquireLock(path, 'stock push', () => {});
    expect(holderOf(path).pid).toBe(process.pid);
    release();
  });

  it('a second acquire while this live process holds it stops with exit 75, naming the PID', () => {
    const path = nextLockPath();
    const release = acquireLock(path, 'stock push', () => {});
    const startedAt = holderOf(path).startedAt;
    const error = thrownBy(() => acquireLock(path, 'stock push', () => {}));
    expect(error).toBeInstanceOf(B2bctlError);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect((error as B2bctlError).message).toBe(
      `Another "stock push" is running (PID ${process.pid}, since ${startedAt}); this run stops so the two do not overlap. If PID ${process.pid} is not b2bctl, remove ${path}.`,
    );
    expect(holderOf(path).startedAt).toBe(startedAt);
    release();
  });

  it('a lock held by another live process (a sleeping child) is respected', async () => {
    const path = nextLockPath();
    const child: ChildProcess = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const pid = child.pid as number;
      const lock = JSON.stringify({ pid, command: 'stock push', startedAt: '2026-11-22T02:00:00.000Z' });
      writeLock(path, lock);
      const warnings: string[] = [];
      const error = thrownBy(() => acquireLock(path, 'stock push', (message) => warnings.push(message)));
      expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
      expect((error as B2bctlError).message).toContain(`(PID ${pid}, since 2026-11-22T02:00:00.000Z)`);
      expect(readFileSync(path, 'utf8')).toBe(lock);
      expect(warnings).toEqual([]);
    } finally {
      child.kill();
    }
  });

  it('a lock held by PID 1 (alive, perhaps not ours to signal) is respected', () => {
    const path = nextLockPath();
    writeLock(path, JSON.stringify({ pid: 1, command: 'orders poll', startedAt: '2026-11-22T02:00:00.000Z' }));
    const error = thrownBy(() => acquireLock(path, 'orders poll', () => {}));
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect((error as B2bctlError).message).toContain('PID 1');
  });

  it('a stale lock left by a process that has exited is taken over with a warning', async () => {
    const path = nextLockPath();
    const pid = await deadPid();
    writeLock(path, JSON.stringify({ pid, command: 'stock push', startedAt: '2026-11-21T02:00:00.000Z' }));
    const warnings: string[] = [];
    const release = acquireLock(path, 'stock push', (message) => warnings.push(message));
    expect(warnings).toEqual([
      `warning: taking over the stale lock ${path} left by PID ${pid} (stock push, 2026-11-21T02:00:00.000Z), which is no longer running.`,
    ]);
    expect(holderOf(path).pid).toBe(process.pid);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it.skipIf(processStartTime(1) === undefined)(
    'a lock naming a live PID that started after the lock was written (a reused PID) is taken over with a warning (no /proc: skipped)',
    () => {
      const path = nextLockPath();
      // PID 1 is alive, but it started at boot, not at the time this lock recorded: the holder is gone.
      const reused = { pid: 1, command: 'webhook listen', startedAt: '2026-11-21T02:00:00.000Z', processStart: '1' };
      expect(processStartTime(1)).not.toBe('1');
      writeLock(path, JSON.stringify(reused));
      const warnings: string[] = [];
      const release = acquireLock(path, 'webhook listen', (message) => warnings.push(message));
      expect(warnings).toEqual([
        `warning: taking over the stale lock ${path} left by PID 1 (webhook listen, 2026-11-21T02:00:00.000Z), whose process is gone (PID 1 now belongs to a process started later).`,
      ]);
      expect(holderOf(path).pid).toBe(process.pid);
      release();
    },
  );

  it.skipIf(processStartTime(process.pid) === undefined)(
    'records the holder process start, and a lock whose PID and start both match a live process is respected (no /proc: skipped)',
    () => {
      const path = nextLockPath();
      const release = acquireLock(path, 'stock push', () => {});
      expect((holderOf(path) as { processStart?: string }).processStart).toBe(processStartTime(process.pid));
      const error = thrownBy(() => acquireLock(path, 'stock push', () => {}));
      expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
      release();
    },
  );

  it.each([
    ['not JSON', 'garbage'],
    ['JSON without a PID', '{"command":"stock push"}'],
    ['a PID that is no integer', '{"pid":"12a","command":"stock push"}'],
  ])('a lock file holding %s is taken over with a warning', (_name, content) => {
    const path = nextLockPath();
    writeLock(path, content);
    const warnings: string[] = [];
    const release = acquireLock(path, 'stock push', (message) => warnings.push(message));
    expect(warnings).toEqual([`warning: taking over the stale lock ${path}.`]);
    expect(holderOf(path).pid).toBe(process.pid);
    release();
  });
});

/** A file system without hard links: every link fails with `code`, as on some network and FAT mounts. */
function withoutHardLinks(code: string): Pick<LockFileSystem, 'link'> & { links: number } {
  const fileSystem = {
    links: 0,
    link: () => {
      fileSystem.links++;
      throw Object.assign(new Error(`${code}: operation not permitted, link`), { code });
    },
  };
  return fileSystem;
}

/** The files in the lock's folder: the lock alone, no temporary file beside it. */
function filesBeside(path: string): string[] {
  return readdirSync(dirname(path)).toSorted();
}

describe.each(['EPERM', 'EXDEV', 'ENOTSUP', 'ENOSYS'])('acquireLock where linking fails with %s', (code) => {
  it('creates the lock in place with our JSON, leaving no temporary file', () => {
    const path = nextLockPath();
    const fileSystem = withoutHardLinks(code);
    const release = acquireLock(path, 'stock push', () => {}, fileSystem);
    expect(fileSystem.links).toBe(1);
    expect(holderOf(path).pid).toBe(process.pid);
    expect(holderOf(path).command).toBe('stock push');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(filesBeside(path)).toEqual(['stock-push.lock']);
    release();
    expect(filesBeside(path)).toEqual([]);
  });

  it('a second acquire stops with exit 75 naming the holder, whose JSON stays in the lock', () => {
    const path = nextLockPath();
    const release = acquireLock(path, 'stock push', () => {}, withoutHardLinks(code));
    const held = readFileSync(path, 'utf8');
    const error = thrownBy(() => acquireLock(path, 'orders poll', () => {}, withoutHardLinks(code)));
    expect(error).toBeInstanceOf(B2bctlError);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect((error as B2bctlError).message).toContain(`Another "stock push" is running (PID ${process.pid}, since `);
    expect(readFileSync(path, 'utf8')).toBe(held);
    expect(filesBeside(path)).toEqual(['stock-push.lock']);
    release();
  });

  it('a stale lock is still taken over with a warning, leaving no temporary file', async () => {
    const path = nextLockPath();
    const pid = await deadPid();
    writeLock(path, JSON.stringify({ pid, command: 'stock push', startedAt: '2026-11-21T02:00:00.000Z' }));
    const warnings: string[] = [];
    const release = acquireLock(path, 'stock push', (message) => warnings.push(message), withoutHardLinks(code));
    expect(warnings).toEqual([
      `warning: taking over the stale lock ${path} left by PID ${pid} (stock push, 2026-11-21T02:00:00.000Z), which is no longer running.`,
    ]);
    expect(holderOf(path).pid).toBe(process.pid);
    expect(filesBeside(path)).toEqual(['stock-push.lock']);
    release();
  });
});

describe('acquireLock at its edges', () => {
  it('names the lock file per profile and command, in the locks folder', () => {
    expect(profileLockPath('/config', 'prod', 'orders-poll')).toBe(join('/config', 'locks', 'prod.orders-poll.lock'));
  });

  it('releases at exit: one exit listener while held, none once released', () => {
    const before = process.listenerCount('exit');
    const release = acquireLock(nextLockPath(), 'stock push', () => {});
    expect(process.listenerCount('exit')).toBe(before + 1);
    release();
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('a link refused with another error (EACCES) names the lock, exit 2, and no lock is made', () => {
    const path = nextLockPath();
    const refused = Object.assign(new Error('EACCES: permission denied, link'), { code: 'EACCES' });
    const error = thrownBy(() =>
      acquireLock(path, 'stock push', () => {}, {
        link: () => {
          throw refused;
        },
      }),
    );
    expect(error).toBeInstanceOf(B2bctlError);
    expect((error as B2bctlError).message).toBe(
      `Cannot write the lock ${path} (EACCES: permission denied); nothing was sent. Make room on its disk or make it writable, or use a config folder elsewhere (B2BCTL_CONFIG_DIR).`,
    );
    expect((error as B2bctlError).exitCode).toBe(ExitCode.usage);
    expect((error as B2bctlError).cause).toBe(refused);
    expect(filesBeside(path)).toEqual([]);
  });

  it('the in-place creation refused with another error than EEXIST names the lock, exit 2', () => {
    const path = nextLockPath();
    const refused = Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS' });
    const error = thrownBy(() =>
      acquireLock(path, 'stock push', () => {}, {
        ...withoutHardLinks('EPERM'),
        createExclusive: () => {
          throw refused;
        },
      }),
    );
    expect((error as B2bctlError).message).toBe(
      `Cannot write the lock ${path} (EROFS: read-only file system); nothing was sent. Make room on its disk or make it writable, or use a config folder elsewhere (B2BCTL_CONFIG_DIR).`,
    );
    expect((error as B2bctlError).exitCode).toBe(ExitCode.usage);
  });

  // A config folder on a full disk: the bare `ENOSPC: no space left on device, write` named no file and exited 1,
  // and each stopped run left an empty temporary lock behind.
  it.each([
    ['with hard links', {}],
    ['without hard links', withoutHardLinks('EPERM')],
  ])('a full disk (%s): the lock named, exit 2, nothing left behind', (_, fileSystem) => {
    const path = nextLockPath();
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    const error = thrownBy(() =>
      acquireLock(path, 'stock push', () => {}, {
        ...fileSystem,
        write: () => {
          throw full;
        },
      }),
    );
    expect((error as B2bctlError).message).toBe(
      `Cannot write the lock ${path} (ENOSPC: no space left on device); nothing was sent. Make room on its disk or make it writable, or use a config folder elsewhere (B2BCTL_CONFIG_DIR).`,
    );
    expect((error as B2bctlError).exitCode).toBe(ExitCode.usage);
    expect(filesBeside(path)).toEqual([]);
  });

  it.skipIf(!canListOpenFiles)('the in-place creation closes its descriptor (no /proc: skipped)', () => {
    const path = nextLockPath();
    const release = acquireLock(path, 'stock push', () => {}, withoutHardLinks('EPERM'));
    expect(openFiles()).not.toContain(path);
    release();
  });

  it('a lock that is gone by the time it is read is simply tried again, without a warning', () => {
    const path = nextLockPath();
    let links = 0;
    const warnings: string[] = [];
    const release = acquireLock(path, 'stock push', (message) => warnings.push(message), {
      link: (existing, created) => {
        // The first time, as if a holder had released it between our link and our read.
        if (++links === 1) throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
        linkSync(existing, created);
      },
    });
    expect(links).toBe(2);
    expect(warnings).toEqual([]);
    expect(holderOf(path).pid).toBe(process.pid);
    release();
  });

  it('a folder or a symbolic link where the lock goes is refused at once with the fix (exit 77), not retried', () => {
    // Before, every cron run stopped with "another run took it first", exit 75: "try again later", for ever.
    const folderInPlace = nextLockPath();
    mkdirSync(folderInPlace, { recursive: true });
    const warnings: string[] = [];
    const error = thrownBy(() => acquireLock(folderInPlace, 'stock push', (message) => warnings.push(message)));
    expect(warnings).toEqual([]);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.authFailed);
    expect((error as B2bctlError).message).toBe(
      `The lock path ${folderInPlace} is not a file, which b2bctl never writes through or takes over: remove it (rm -r ${folderInPlace}) and run again.`,
    );
    const linked = nextLockPath();
    mkdirSync(dirname(linked), { recursive: true });
    symlinkSync(join(folder, 'nowhere'), linked);
    expect((thrownBy(() => acquireLock(linked, 'stock push', () => {})) as B2bctlError).message).toContain(
      `The lock path ${linked} is a symbolic link`,
    );
  });

  it('three stale locks taken over and each time retaken by another run first: it gives up, exit 75', async () => {
    const path = nextLockPath();
    const pid = await deadPid();
    const stale = JSON.stringify({ pid, command: 'stock push', startedAt: '2026-11-21T02:00:00.000Z' });
    const warnings: string[] = [];
    const error = thrownBy(() =>
      acquireLock(path, 'stock push', (message) => warnings.push(message), {
        link: () => {
          writeFileSync(path, stale);
          throw Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
        },
      }),
    );
    expect(warnings).toHaveLength(3);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect((error as B2bctlError).message).toBe(`Could not take the lock ${path}; another run took it first.`);
  });
});
