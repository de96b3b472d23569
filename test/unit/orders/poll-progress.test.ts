/**
 * The memory and the cursor of one `orders poll` run: emitted versions behind the look-back are forgotten as the
 * catch-up goes (memory stays flat), never one the cursor file must still remember; the cursor stops at the
 * earliest window that held something unreadable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputError } from '../../../src/base/errors.js';
import { PollProgress } from '../../../src/orders/poll-progress.js';
import { readCursor } from '../../../src/orders/cursor-file.js';
import { temporaryFolder, removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const start = Date.parse('2026-01-01T00:00:00Z');
const lookbackMs = 300_000;
const key = (id: number, ms: number) => `${id}@${new Date(ms).toISOString()}`;
/** A platform writing Brasília's wall clock with no zone, read on a UTC machine: each instant three hours early. */
const threeHoursEarly = (id: number, ms: number) => key(id, ms - 3 * 3_600_000);

function progressFor(saved?: { cursor: string; emitted?: string[] }) {
  const path = join(temporaryFolder(), 'cursor.json');
  const window = { from: start, to: start + 10_000_000 };
  return { path, progress: new PollProgress({ path, profile: 'default' }, window, lookbackMs, saved) };
}

describe('PollProgress', () => {
  it('keeps memory flat over a long catch-up: versions behind the look-back of what was written are forgotten', () => {
    const { progress } = progressFor();
    let largest = 0;
    for (let id = 1; id <= 100_000; id++) {
      progress.emitted.add(key(id, start + id * 100));
      if (id % 16 === 0) progress.forgetBefore(start + id * 100);
      largest = Math.max(largest, progress.emitted.size);
    }
    // 3,000 versions a look-back, at one every 100 ms: the set never holds more than a few look-backs.
    expect(largest).toBeLessThan(4 * 3_000);
    expect(progress.emitted.has(key(100_000, start + 10_000_000))).toBe(true);
  });

  it('the cursor file remembers every version the next run may list again, after forgetting', () => {
    const { path, progress } = progressFor();
    for (let id = 1; id <= 20_000; id++) {
      progress.emitted.add(key(id, start + id * 100));
      if (id % 16 === 0) progress.forgetBefore(start + id * 100);
    }
    progress.save(start + 2_000_000);
    const saved = readCursor(path, 'default');
    const expected = Array.from({ length: 3_001 }, (_, index) => 17_000 + index).map((id) => key(id, start + id * 100));
    expect(saved?.cursor).toBe(new Date(start + 2_000_000).toISOString());
    expect(saved?.emitted).toEqual(expected.toSorted());
  });

  it('stops the cursor at the earliest window holding something unreadable, never behind where it was', () => {
    const { path, progress } = progressFor({ cursor: new Date(start + 300_000).toISOString() });
    progress.noteUnreadable({ from: start + 5_000_000, to: start + 6_000_000 }, ['a', 'b'], false);
    progress.noteUnreadable({ from: start + 7_000_000, to: start + 8_000_000 }, [], true);
    progress.save(start + 10_000_000);
    expect(readCursor(path, 'default')?.cursor).toBe(new Date(start + 5_000_000).toISOString());
    expect(progress.unreadable()).toBe(true);
    progress.noteUnreadable({ from: start, to: start + 1 }, ['c'], false);
    progress.save(start + 10_000_000);
    expect(readCursor(path, 'default')?.cursor).toBe(new Date(start + 5_000_000).toISOString());
  });

  it('counts an unreadable entry once however often its page is read, and two alike in one answer as two (a user test)', () => {
    const { progress } = progressFor(undefined);
    const window = { from: start, to: start + 1_000 };
    // The listing's first page read twice, as a scan does: a null, another null, and an entry without lastUpdated.
    progress.noteUnreadable(window, ['null', 'null', 'no-instant'], false);
    progress.noteUnreadable(window, ['null', 'null', 'no-instant'], false);
    expect(progress.untrackable).toBe(3);
    // An overlapping page holding one of them again, and one more.
    progress.noteUnreadable({ from: start, to: start + 500 }, ['no-instant', 'no-id'], false);
    expect(progress.untrackable).toBe(4);
  });

  it('a version the last run remembered, read hours early, stays remembered until the run has read its window whole', () => {
    const cursor = start + 2_000_000;
    const remembered = threeHoursEarly(1, cursor - 60_000);
    const { path, progress } = progressFor({ cursor: new Date(cursor).toISOString(), emitted: [remembered] });
    // A cursor saved mid-run (a file output, window by window): a later window may still list it.
    progress.save(cursor + 60_000);
    expect(readCursor(path, 'default')?.emitted).toEqual([remembered]);
    // Over a long catch-up, forgetting does not drop it either.
    for (let id = 2; id <= 5_000; id++) progress.emitted.add(key(id, cursor + id * 100));
    progress.forgetBefore(cursor + 500_000);
    expect(progress.emitted.has(remembered)).toBe(true);
    // Read whole without listing it: the platform no longer lists it (its instant left the window), so it is dropped.
    progress.save(start + 10_000_000);
    expect(readCursor(path, 'default')?.emitted).not.toContain(remembered);
  });

  it('a version read hours early is remembered while the platform lists it in a window the next run reads', () => {
    const cursor = start + 2_000_000;
    const listedAgain = threeHoursEarly(1, cursor - 60_000);
    const listedLongAgo = threeHoursEarly(2, cursor - 60_000);
    const { path, progress } = progressFor({
      cursor: new Date(cursor).toISOString(),
      emitted: [listedAgain, listedLongAgo],
    });
    progress.noteListed(listedAgain, start + 10_000_000);
    progress.noteListed(listedLongAgo, cursor);
    progress.save(start + 10_000_000);
    // The next run reads from the cursor less the look-back: only the window listing the first reaches there.
    expect(readCursor(path, 'default')?.emitted).toEqual([listedAgain]);
  });

  it('over a catch-up, a version read hours early is forgotten once the window it was listed in is a look-back behind', () => {
    const { progress } = progressFor();
    const early = threeHoursEarly(1, start + 1_000);
    progress.emitted.add(early);
    progress.noteListed(early, start + 1_000);
    for (let id = 2; id <= 2_000; id++) progress.emitted.add(key(id, start + id * 100));
    // Written up to less than a look-back past the window that listed it: a window of this run may list it again.
    progress.forgetBefore(start + 1_000 + lookbackMs);
    expect(progress.emitted.has(early)).toBe(true);
    for (let id = 2_001; id <= 6_000; id++) progress.emitted.add(key(id, start + id * 100));
    progress.forgetBefore(start + 600_000);
    expect(progress.emitted.has(early)).toBe(false);
  });

  // A full or read-only disk: the bare `ENOSPC: no space left on device, write` named no file and exited 1. Here the
  // cursor's folder cannot be made (a file holds its name), a failure to write it as real as a full disk's.
  it('a cursor that cannot be written is named, with what the next run does: a failed write, exit 75', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'cursors'), '');
    const path = join(folder, 'cursors', 'default.json');
    const progress = new PollProgress(
      { path, profile: 'default' },
      { from: start, to: start + 60_000 },
      lookbackMs,
      undefined,
    );
    progress.written = 3;
    let error: unknown;
    try {
      progress.save(start + 60_000);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(OutputError);
    expect((error as OutputError).message).toBe(
      `Cannot write the orders cursor ${path} (EEXIST: file already exists) after 3 order versions written: no cursor was saved (a first run), so the next run must start where this one did. Make room on its disk or make it writable, then run again with --since ${new Date(start).toISOString()}.`,
    );
    expect((error as OutputError).exitCode).toBe(75);
  });

  it('a later run whose cursor cannot be written says the saved one stays', () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'cursors'), '');
    const path = join(folder, 'cursors', 'default.json');
    const saved = { cursor: new Date(start).toISOString() };
    const progress = new PollProgress(
      { path, profile: 'default' },
      { from: start, to: start + 60_000 },
      lookbackMs,
      saved,
    );
    progress.written = 2;
    expect(() => progress.save(start + 60_000)).toThrow(
      `Cannot write the orders cursor ${path} (EEXIST: file already exists) after 2 order versions written: the cursor stays where it was last saved, so the next run writes again what came after it. Make room on its disk or make it writable, then run again.`,
    );
  });
});
