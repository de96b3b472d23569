import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { checkingProgress, checkingProgressAfterMs } from '../../../src/bulk/checking-progress.js';
import { restoreTerminal } from '../../../src/io/output/restore-terminal.js';
import { FakeClock } from '../../support/fake-clock.js';
import { renderedScreen } from '../../support/rendered-screen.js';
import { testContext, type TestContextOptions } from '../../support/test-context.js';
import { until } from '../../support/until.js';

/**
 * Until the terminal's last line shows `records` (cli-progress is loaded on first use, then redraws on a timer of its
 * own): the frame of that update, however late a busy machine draws it.
 */
async function untilShown(stderr: () => string, records: number): Promise<string[]> {
  let screen: string[] = [];
  const shown = async () => {
    screen = await renderedScreen(stderr(), 80);
    return screen.at(-1)?.startsWith(`${records} `) ?? false;
  };
  await until(shown, `the frame of ${records} records`, { deadlineMs: 20_000 });
  return screen;
}

/**
 * A bar that should never be drawn has no event to wait for: a bar wrongly begun would have loaded and written
 * (drawn, or at least given the cursor back on its stop) well within this, so a test that expects nothing looks
 * once after it. A bounded wait only for an absence: every frame that is expected is waited for (untilShown).
 */
const nothingDrawnWithin = () => new Promise((resolve) => setTimeout(resolve, 150));

/** A test context whose stderr, when it is a terminal, is one 80 columns wide as cli-progress sees it. */
function terminalContext(options: TestContextOptions) {
  const memory = testContext(options);
  if (options.tty?.stderr) Object.assign(memory.context.io.stderr, { isTTY: true, columns: 80 });
  return memory;
}

/**
 * A pass of `batches` batches of 1,000 records, `msPerBatch` apart on the fake clock, one invalid every 3 batches.
 * On a terminal, each batch from `shownFrom` on is waited for until its frame is drawn; the ones before it (and every
 * one without `shownFrom`) are looked at as they are, nothing having been begun for them.
 */
async function pass(options: {
  stderr: boolean;
  quiet?: boolean;
  batches: number;
  msPerBatch: number;
  shownFrom?: number;
}) {
  const clock = new FakeClock(5_000);
  const memory = terminalContext({
    tty: { stderr: options.stderr },
    clock,
    globals: { quiet: options.quiet ?? false },
  });
  const progress = checkingProgress(memory.context, 'rows checked');
  const screens: string[][] = [];
  for (let batch = 1; batch <= options.batches; batch++) {
    clock.advance(options.msPerBatch);
    progress.update({ records: batch * 1_000, invalid: Math.floor(batch / 3) });
    if (!options.stderr) await nextTurn();
    else if (options.shownFrom !== undefined && batch >= options.shownFrom)
      screens.push(await untilShown(memory.stderr, batch * 1_000));
    else screens.push(await renderedScreen(memory.stderr(), 80));
  }
  progress.stop();
  if (options.shownFrom === undefined) await nothingDrawnWithin();
  return { memory, screens, after: options.stderr ? await renderedScreen(memory.stderr(), 80) : [] };
}

describe('checkingProgress', () => {
  it('on a terminal: nothing for the first second, then the count in place, gone at the end', async () => {
    expect(checkingProgressAfterMs).toBe(1_000);
    const { screens, after, memory } = await pass({ stderr: true, batches: 6, msPerBatch: 250, shownFrom: 4 });
    // 250 ms, 500, 750: nothing; from 1 s on, one line with the count, the rate since the start and the invalid.
    expect(screens.slice(0, 3)).toEqual([[], [], []]);
    expect(screens.slice(3).map((screen) => screen.at(-1))).toEqual([
      '4000 rows checked | 4000/s | invalid 1',
      '5000 rows checked | 4000/s | invalid 1',
      '6000 rows checked | 4000/s | invalid 2',
    ]);
    expect(screens.at(-1)).toHaveLength(1);
    expect(after).toEqual([]);
    expect(memory.stderr().endsWith('\u001B[?25h\u001B[?7h')).toBe(true);
  });

  it('a pass that ends within the second shows nothing and loads no bar', async () => {
    const { memory } = await pass({ stderr: true, batches: 3, msPerBatch: 300 });
    expect(memory.stderr()).toBe('');
  });

  it('without a terminal: a progress line every 10 s of the count', async () => {
    const { memory } = await pass({ stderr: false, batches: 25, msPerBatch: 1_000 });
    const lines = memory.stderr().trimEnd().split('\n');
    // 10 s after the pass began, then 10 s after that line.
    expect(lines).toEqual([
      'progress: 10000 rows checked, 1000/s, 3 invalid',
      'progress: 20000 rows checked, 1000/s, 6 invalid',
    ]);
  });

  it.each([true, false])('--quiet: nothing (stderr a terminal: %s)', async (stderr) => {
    const { memory } = await pass({ stderr, quiet: true, batches: 12, msPerBatch: 1_000 });
    expect(memory.stderr()).toBe('');
  });

  it('stopped before cli-progress has loaded, nothing is left on the screen', async () => {
    const clock = new FakeClock();
    const memory = terminalContext({ tty: { stderr: true }, clock });
    const progress = checkingProgress(memory.context, 'rows checked');
    clock.advance(2_000);
    progress.update({ records: 10, invalid: 0 });
    progress.stop();
    // Once loaded, the bar stopped meanwhile is stopped at once, which gives the cursor back: that is the event.
    await until(() => memory.stderr().endsWith(restoreTerminal), 'the late bar stopped', { deadlineMs: 20_000 });
    progress.update({ records: 20, invalid: 0 });
    await nextTurn();
    expect(await renderedScreen(memory.stderr(), 80)).toEqual([]);
  });
});
