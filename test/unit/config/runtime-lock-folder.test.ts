/**
 * A cron user with a read-only home (or `HOME=/nonexistent`) that names its store in B2BCTL_BASE_URL and B2BCTL_TOKEN
 * failed every run with exit 2 on its lock, though settings.md says it needs no config folder (a user test). Its locks now go
 * to the user's runtime folder, made safely in a shared /tmp, and two runs still exclude each other there.
 */
import { chmodSync, chownSync, lchownSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { acquireProfileLock, profileLockPath } from '../../../src/config/lock.js';
import { runtimeLockFolder, runtimeLockName } from '../../../src/config/runtime-lock-folder.js';
import { temporaryFolder } from '../../support/temporary.js';
import { thrownBy } from '../../support/thrown.js';

const uid = process.geteuid?.() ?? 0;
const asRoot = uid === 0;

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('runtimeLockFolder', () => {
  it('is $XDG_RUNTIME_DIR/b2bctl/locks when that folder is the private one of this user, made 0700', () => {
    const runtime = temporaryFolder('b2bctl-runtime-');
    chmodSync(runtime, 0o700);
    const folder = runtimeLockFolder({ XDG_RUNTIME_DIR: runtime }, temporaryFolder('b2bctl-tmp-'))?.locks;
    expect(folder).toBe(join(runtime, 'b2bctl', 'locks'));
    expect([modeOf(join(runtime, 'b2bctl')), modeOf(folder as string)]).toEqual([0o700, 0o700]);
  });

  it('is <temporary folder>/b2bctl-<uid>/locks without one, or with one others may write', () => {
    const temporary = temporaryFolder('b2bctl-tmp-');
    expect(runtimeLockFolder({}, temporary)?.locks).toBe(join(temporary, `b2bctl-${uid}`, 'locks'));
    const shared = temporaryFolder('b2bctl-runtime-');
    chmodSync(shared, 0o777);
    expect(runtimeLockFolder({ XDG_RUNTIME_DIR: shared }, temporary)?.locks).toBe(
      join(temporary, `b2bctl-${uid}`, 'locks'),
    );
    expect(runtimeLockFolder({ XDG_RUNTIME_DIR: 'relative/run' }, temporary)?.locks).toBe(
      join(temporary, `b2bctl-${uid}`, 'locks'),
    );
    expect(modeOf(join(temporary, `b2bctl-${uid}`))).toBe(0o700);
  });

  it('refuses a folder planted in its place: a link, one others may write, one of another user', () => {
    const linked = temporaryFolder('b2bctl-tmp-');
    const elsewhere = temporaryFolder('b2bctl-elsewhere-');
    chmodSync(elsewhere, 0o700);
    symlinkSync(elsewhere, join(linked, `b2bctl-${uid}`));
    expect(runtimeLockFolder({}, linked)).toEqual({
      planted: { path: join(linked, `b2bctl-${uid}`), why: 'is a symbolic link that belongs to you' },
    });
    expect(readdirSync(elsewhere)).toEqual([]);

    const open = temporaryFolder('b2bctl-tmp-');
    mkdirSync(join(open, `b2bctl-${uid}`), { mode: 0o700 });
    chmodSync(join(open, `b2bctl-${uid}`), 0o777);
    expect(runtimeLockFolder({}, open)).toEqual({
      planted: { path: join(open, `b2bctl-${uid}`), why: 'may be read or written by others than you (mode 0777)' },
    });
  });

  it.skipIf(!asRoot)('refuses a folder another user made first (root can make one as another user)', () => {
    const planted = temporaryFolder('b2bctl-tmp-');
    mkdirSync(join(planted, `b2bctl-${uid}`), { mode: 0o700 });
    mkdirSync(join(planted, `b2bctl-${uid}`, 'locks'), { mode: 0o700 });
    chownSync(join(planted, `b2bctl-${uid}`, 'locks'), 65534, 65534);
    expect(runtimeLockFolder({}, planted)?.planted).toEqual({
      path: join(planted, `b2bctl-${uid}`, 'locks'),
      why: expect.stringMatching(/^belongs to \S+ \(uid 65534\), not to root$/),
    });
  });
});

/** A lock file system on a disk that refuses writes with `code`. */
function refusingWrites(code: string) {
  return {
    write: () => {
      throw Object.assign(new Error(`${code}: refused, write`), { code });
    },
  };
}

describe('acquireProfileLock where the config folder cannot be written', () => {
  it('takes the lock in the runtime folder (EROFS, EACCES): a second run meets it there, exit 75', () => {
    const config = temporaryFolder('b2bctl-config-');
    const runtime = join(temporaryFolder('b2bctl-runtime-'), 'locks');
    mkdirSync(runtime, { mode: 0o700 });
    for (const code of ['EROFS', 'EACCES']) {
      const replaced = { runtimeFolder: () => ({ locks: runtime }), configFolderFileSystem: refusingWrites(code) };
      const release = acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {}, replaced);
      const lock = join(runtime, runtimeLockName(config, 'default', 'stock-push'));
      expect(readdirSync(runtime)).toEqual([runtimeLockName(config, 'default', 'stock-push')]);
      expect(lock).toMatch(/\/[0-9a-f]{12}\.default\.stock-push\.lock$/);
      const second = thrownBy(() =>
        acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {}, replaced),
      );
      expect((second as B2bctlError).exitCode).toBe(ExitCode.interrupted);
      expect((second as B2bctlError).message).toContain(`remove ${lock}.`);
      release();
      expect(readdirSync(runtime)).toEqual([]);
    }
    // Another config folder's profile of the same name has a lock of its own.
    const other = temporaryFolder('b2bctl-config-');
    expect(runtimeLockName(other, 'default', 'stock-push')).not.toBe(runtimeLockName(config, 'default', 'stock-push'));
  });

  it('a full disk is not read-only: refused, exit 2, naming the lock in the config folder, nothing taken elsewhere', () => {
    const config = temporaryFolder('b2bctl-config-');
    const runtime = join(temporaryFolder('b2bctl-runtime-'), 'locks');
    mkdirSync(runtime, { mode: 0o700 });
    const error = thrownBy(() =>
      acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {}, {
        runtimeFolder: () => ({ locks: runtime }),
        configFolderFileSystem: refusingWrites('ENOSPC'),
      }),
    );
    expect((error as B2bctlError).exitCode).toBe(ExitCode.usage);
    expect((error as B2bctlError).message).toContain(profileLockPath(config, 'default', 'stock-push'));
    expect(readdirSync(runtime)).toEqual([]);
  });

  it('a lock held in the config folder, taken before it became read-only, still stops the run, exit 75', () => {
    const config = temporaryFolder('b2bctl-config-');
    const runtime = join(temporaryFolder('b2bctl-runtime-'), 'locks');
    mkdirSync(runtime, { mode: 0o700 });
    const held = acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {});
    const error = thrownBy(() =>
      acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {}, {
        runtimeFolder: () => ({ locks: runtime }),
        configFolderFileSystem: {
          link: () => {
            throw Object.assign(new Error('EROFS: read-only file system, link'), { code: 'EROFS' });
          },
        },
      }),
    );
    held();
    expect((error as B2bctlError).exitCode).toBe(ExitCode.interrupted);
    expect(readdirSync(runtime)).toEqual([]);
  });

  it('without a runtime folder to be had, the config folder refusal stands, exit 2', () => {
    const config = temporaryFolder('b2bctl-config-');
    const error = thrownBy(() =>
      acquireProfileLock(config, 'default', 'stock-push', 'b2bctl stock push', () => {}, {
        runtimeFolder: () => undefined,
        configFolderFileSystem: refusingWrites('EROFS'),
      }),
    );
    expect(error).toBeInstanceOf(B2bctlError);
    expect((error as B2bctlError).exitCode).toBe(ExitCode.usage);
  });

  it.skipIf(!asRoot)(
    'a runtime folder another user planted (a link, a folder of theirs) is named with its owner and the ways out, exit 77, no lock taken (root can plant as another user)',
    () => {
      const config = temporaryFolder('b2bctl-config-');
      const lock = profileLockPath(config, 'sb', 'stock-push');
      const planting = {
        link: (temporary: string) => {
          const theirs = temporaryFolder('b2bctl-theirs-');
          symlinkSync(theirs, join(temporary, `b2bctl-${uid}`));
          lchownSync(join(temporary, `b2bctl-${uid}`), 65534, 65534);
          return { what: 'is a symbolic link that belongs to \\S+ \\(uid 65534\\)', theirs };
        },
        folder: (temporary: string) => {
          const theirs = join(temporary, `b2bctl-${uid}`);
          mkdirSync(theirs, { mode: 0o700 });
          chownSync(theirs, 65534, 65534);
          return { what: 'belongs to \\S+ \\(uid 65534\\), not to root', theirs };
        },
      };
      for (const plant of Object.values(planting)) {
        const temporary = temporaryFolder('b2bctl-tmp-');
        const { what, theirs } = plant(temporary);
        const planted = join(temporary, `b2bctl-${uid}`);
        const error = thrownBy(() =>
          acquireProfileLock(config, 'sb', 'stock-push', 'b2bctl stock push', () => {}, {
            runtimeFolder: () => runtimeLockFolder({}, temporary),
            configFolderFileSystem: refusingWrites('EACCES'),
          }),
        );
        expect((error as B2bctlError).exitCode).toBe(ExitCode.authFailed);
        expect((error as B2bctlError).message).toMatch(
          new RegExp(
            `^Cannot write the lock ${lock} \\(EACCES: refused\\), and the folder b2bctl keeps locks in instead, ${planted}, ${what}: .*; nothing was sent\\. Have it removed \\(sudo rm -r ${planted}: .*\\), or set B2BCTL_CONFIG_DIR to a writable folder of your own, or XDG_RUNTIME_DIR to your own private runtime folder \\(such as /run/user/0\\)\\.$`,
          ),
        );
        expect(readdirSync(theirs)).toEqual([]);
        expect(readdirSync(join(config, 'locks'))).toEqual([]);
      }
    },
  );
});
