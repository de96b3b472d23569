import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCursorPath, readCursor, writeCursor } from '../../../src/orders/cursor-file.js';
import { B2bctlError, ExitCode, UsageError } from '../../../src/base/errors.js';
import { temporaryFolder } from '../../support/temporary.js';

const folder = temporaryFolder('b2bctl-cursor-');
let files = 0;
const cursorFile = (content?: string) => {
  const path = join(folder, `cursor-${++files}.json`);
  if (content !== undefined) writeFileSync(path, content);
  return path;
};

function refusal(path: string, profile = 'prod'): string {
  let refused: unknown;
  try {
    readCursor(path, profile);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(UsageError);
  return (refused as Error).message;
}

describe('defaultCursorPath', () => {
  it.each([
    [[], 'prod.orders-poll.json'],
    [['approved'], 'prod.orders-poll.status-approved.json'],
    [['invoiced', 'approved', 'invoiced'], 'prod.orders-poll.status-approved+invoiced.json'],
    [['a b/c', 'x-y'], 'prod.orders-poll.status-a_b_c+x-y.json'],
  ])('statuses %j: %s', (statuses, name) => {
    expect(defaultCursorPath('/config', 'prod', statuses)).toBe(join('/config', 'cursors', name));
  });

  it('without statuses, the profile cursor', () => {
    expect(defaultCursorPath('/config', 'prod')).toBe(join('/config', 'cursors', 'prod.orders-poll.json'));
  });
});

describe('readCursor and writeCursor', () => {
  it('round trip: what is written is read back, as indented JSON ending in a line break', () => {
    const path = cursorFile();
    const cursor = { profile: 'prod', cursor: '2026-11-20T10:00:00.000Z', emitted: ['1@2026-11-20T09:59:00.000Z'] };
    writeCursor(path, cursor);
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(cursor, null, 2)}\n`);
    expect(readCursor(path, 'prod')).toEqual(cursor);
  });

  it('no file yet: no cursor', () => {
    expect(readCursor(join(folder, 'absent.json'), 'prod')).toBeUndefined();
  });

  it('a folder where the file should be: refused as no file (exit 66), naming it', () => {
    const path = join(folder, 'a-folder.json');
    mkdirSync(path);
    let refused: unknown;
    try {
      readCursor(path, 'prod');
    } catch (error) {
      refused = error;
    }
    expect((refused as B2bctlError).exitCode).toBe(ExitCode.inputMissing);
    expect((refused as Error).message).toMatch(new RegExp(`^The orders cursor ${path} is a folder, not a file: `));
  });

  // The open itself never follows a link (O_NOFOLLOW): one put there after poll's look at the path is refused too,
  // and the cursor it leads to is neither read nor changed.
  it.skipIf(process.platform === 'win32')('a symbolic link: refused (exit 77), never read through', () => {
    const target = cursorFile(JSON.stringify({ profile: 'prod', cursor: '2026-11-20T10:00:00.000Z', emitted: [] }));
    const link = join(folder, 'planted.cursor');
    symlinkSync(target, link);
    let refused: unknown;
    try {
      readCursor(link, 'prod');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(B2bctlError);
    expect((refused as B2bctlError).exitCode).toBe(ExitCode.authFailed);
    expect((refused as Error).message).toMatch(
      new RegExp(`^The orders cursor ${link} is a symbolic link, which b2bctl never follows: `),
    );
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['no profile', '{"cursor":"2026-11-20T10:00:00.000Z","emitted":[]}'],
    ['a profile that is no text', '{"profile":1,"cursor":"2026-11-20T10:00:00.000Z","emitted":[]}'],
    ['no cursor', '{"profile":"prod","emitted":[]}'],
    ['a cursor that is a number, even one that reads as a year', '{"profile":"prod","cursor":2026,"emitted":[]}'],
    ['a cursor that is no instant', '{"profile":"prod","cursor":"yesterday","emitted":[]}'],
    ['no emitted list', '{"profile":"prod","cursor":"2026-11-20T10:00:00.000Z"}'],
    ['an emitted key that is no text', '{"profile":"prod","cursor":"2026-11-20T10:00:00.000Z","emitted":[1]}'],
  ])('%s: not a cursor file, nothing emitted', (_name, content) => {
    const path = cursorFile(content);
    expect(refusal(path)).toBe(
      `The orders cursor ${path} is not a cursor file (corrupt or written by something else); nothing was emitted. Move it aside and run again with --since to choose where to start.`,
    );
  });

  it("another profile's cursor: refused, naming both profiles", () => {
    const path = cursorFile('{"profile":"staging","cursor":"2026-11-20T10:00:00.000Z","emitted":[]}');
    expect(refusal(path, 'prod')).toBe(
      `The orders cursor ${path} belongs to profile "staging", not "prod"; nothing was emitted. Use --profile staging, or another --cursor file for this profile.`,
    );
  });
});
