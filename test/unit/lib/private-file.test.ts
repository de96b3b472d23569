/**
 * Links planted in a shared folder at the names b2bctl writes: the temporary file of an atomic write (orders,
 * cursor, run meta), a lock's temporary file, a report reopened for appending. None is written through.
 */
import { execFileSync } from 'node:child_process';
import {
  type Stats,
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriter } from '../../../src/bulk/report.js';
import { acquireLock } from '../../../src/config/lock.js';
import { writeFileDurably } from '../../../src/io/output/durable-file.js';
import {
  NotOwnPrivateFileError,
  createFileExclusively,
  isSystemOutput,
  openForAppend,
} from '../../../src/lib/private-file.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

const root = requireThat(process.getuid?.() === 0, 'giving a file to another user needs root');

const folder = temporaryFolder('b2bctl-private-file-');
let count = 0;

/** A fresh shared folder and a victim file elsewhere, which a link in the folder points at. */
function plantedFolder(): { shared: string; victim: string } {
  const shared = join(folder, `shared-${++count}`);
  mkdirSync(shared, { recursive: true });
  const victim = join(folder, `victim-${count}`);
  writeFileSync(victim, 'precious\n');
  return { shared, victim };
}

describe('files created, never followed', () => {
  it('writeFileDurably: links at every name a PID-based temporary file could have leave the victim as it was', () => {
    const { shared, victim } = plantedFolder();
    const target = join(shared, '1001-20261128T070000000Z.json');
    symlinkSync(victim, join(shared, `.1001-20261128T070000000Z.json.${process.pid}.tmp`));
    writeFileDurably(target, '{"order":1}\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(target, 'utf8')).toBe('{"order":1}\n');
    expect((statSync(target).mode & 0o777).toString(8)).toBe('600');
  });

  it('writeFileDurably: a link at the target itself is replaced, not written through', () => {
    const { shared, victim } = plantedFolder();
    const target = join(shared, 'orders-cursor.json');
    symlinkSync(victim, target);
    writeFileDurably(target, '{}\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
  });

  it("acquireLock: a link at the lock's PID-based temporary name leaves the victim as it was", () => {
    const { shared, victim } = plantedFolder();
    const path = join(shared, 'receiver.lock');
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    const release = acquireLock(path, 'webhook listen', () => {});
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    release();
  });

  it('a report path that is a link is refused (ELOOP), and the victim is untouched', () => {
    const { shared, victim } = plantedFolder();
    const path = join(shared, 'stock.report-20261128-070000.csv');
    symlinkSync(victim, path);
    expect(() => new ReportWriter(path)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(() => openForAppend(path)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it("openForAppend opens the system's own links under /dev (--errors /dev/stderr)", () => {
    const descriptor = openForAppend('/dev/stderr');
    expect(descriptor).toBeGreaterThanOrEqual(0);
    closeSync(descriptor);
  });

  // Judged on stand-in file types: a test must never open a real disk for writing, as the code before this did.
  it.each([
    ['/dev/stdout', 'link', 'character', true],
    ['/dev/stderr', 'link', 'fifo', true],
    ['/dev/fd/3', 'file', 'file', true],
    ['/dev/null', 'character', 'character', true],
    ['/dev/pts/3', 'character', 'character', true],
    ['/dev/loop7', 'block', 'block', false],
    ['/dev/sdb', 'block', 'block', false],
    ['/dev/cdrom', 'link', 'block', false],
    ['/dev/fd/4', 'block', 'block', false],
    ['/dev/loop7.meta.json', 'file', 'file', false],
    ['/dev/shm/r.csv', 'file', 'file', false],
    ['/dev/disk/by-id/x', 'link', 'block', false],
  ] as const)('isSystemOutput(%s: a %s leading to a %s) is %s', (path, found, target, expected) => {
    expect(isSystemOutput(path, fakeStats(found), fakeStats(target))).toBe(expected);
  });

  it('openForAppend refuses a FIFO at once (nothing blocks, nothing is written to it)', () => {
    const { shared } = plantedFolder();
    const fifo = join(shared, 'errors.csv');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(() => openForAppend(fifo)).toThrow(
      new NotOwnPrivateFileError(fifo, 'it is a named pipe (FIFO), not a file: whoever reads it would get the rows'),
    );
  });

  it('openForAppend refuses a file of ours that others may write, and reopens one that is private', () => {
    const { shared } = plantedFolder();
    const path = join(shared, 'report.csv');
    writeFileSync(path, '');
    chmodSync(path, 0o666);
    expect(() => openForAppend(path)).toThrow(
      expect.objectContaining({
        reason: 'its group and others may write it (mode 0666): they could change what b2bctl writes in it',
      }),
    );
    chmodSync(path, 0o644);
    closeSync(openForAppend(path));
  });

  it.skipIf(root.missing)(`openForAppend refuses an empty file another user made first${root.note}`, () => {
    const { shared } = plantedFolder();
    const path = join(shared, 'errors.csv');
    writeFileSync(path, '');
    chownSync(path, 65534, 65534);
    chmodSync(path, 0o600);
    expect(() => openForAppend(path)).toThrow(
      expect.objectContaining({ reason: expect.stringMatching(/^it belongs to \S+ \(uid 65534\), not to root: /) }),
    );
  });

  it.skipIf(!existsSync('/dev/shm'))(
    'openForAppend does not follow a link in /dev/shm, which every user may write',
    () => {
      const { victim } = plantedFolder();
      const link = join('/dev/shm', `b2bctl-test-report-${process.pid}.csv`);
      symlinkSync(victim, link);
      try {
        expect(() => openForAppend(link)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
      } finally {
        rmSync(link);
      }
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      closeSync(openForAppend('/dev/null'));
    },
  );

  it('createFileExclusively refuses a path that exists, a dangling link included, and creates nothing where the link points', () => {
    const { shared } = plantedFolder();
    const dangling = join(shared, 'dangling');
    symlinkSync(join(shared, 'nowhere'), dangling);
    expect(() => createFileExclusively(dangling)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => lstatSync(join(shared, 'nowhere'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

/** A Stats of one kind, for judging a path without a file of that kind on this machine. */
function fakeStats(kind: 'file' | 'link' | 'character' | 'block' | 'fifo'): Stats {
  return {
    isFile: () => kind === 'file',
    isDirectory: () => false,
    isSymbolicLink: () => kind === 'link',
    isCharacterDevice: () => kind === 'character',
    isBlockDevice: () => kind === 'block',
    isFIFO: () => kind === 'fifo',
    isSocket: () => false,
  } as Stats;
}
