import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, fittedBar, fittedCount, timeLeft } from '../../../src/bulk/progress.js';
import { restoreTerminal } from '../../../src/io/output/restore-terminal.js';
import type { IOStreams } from '../../../src/context.js';
import { createLogger } from '../../../src/io/output/logger.js';
import { FakeClock } from '../../support/fake-clock.js';
import { renderedScreen, renderedScreenInSteps, wrappedLineCount } from '../../support/rendered-screen.js';

const barCharacters = /[\u2588\u2591]/;

/** A terminal `columns` wide as cli-progress sees one (isTTY, columns), the bytes kept to be rendered. */
function terminal(columns: number) {
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns });
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io: IOStreams = {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    isStdoutTTY: true,
    isStderrTTY: true,
    isStdinTTY: true,
  };
  const clock = new FakeClock(1_000);
  const log = createLogger({ stderr, isStderrTTY: true, clock, format: 'text', quiet: false, verbose: false });
  return { io, clock, log, written: () => Buffer.concat(chunks).toString('utf8') };
}

async function barOn(columns: number, total: number) {
  const screen = terminal(columns);
  const progress = await createProgress({
    io: screen.io,
    clock: screen.clock,
    quiet: false,
    unit: 'customers',
    total,
    log: (message) => screen.log.info(message),
    divertLog: (write) => screen.log.divert(write),
  });
  return { ...screen, progress };
}

describe('the progress bar on a terminal', () => {
  it.each<[number, RegExp]>([
    [40, / 0% \| 1000\/123456$/],
    [60, / 0% \| 1000\/123456 customers \| failed 3$/],
    [80, / 0% \| 1000\/123456 customers \| failed 3$/],
    [160, / 0% \| 1000\/123456 customers \| 500\/s \| failed 3 \| eta 4m05s$/],
  ])(
    '%i columns: lines logged while it runs are printed whole above it, in order; the bar is the last line and never wraps',
    async (columns, figures) => {
      const { log, clock, progress, written } = await barOn(columns, 123_456);
      const long = `customer create: warning: ${'a long line that wraps on a narrow terminal '.repeat(3)}end`;
      log.info('customer create: first');
      clock.advance(2_000);
      progress.update({ done: 1_000, failed: 3 });
      log.warn(long);
      log.info('customer create: third');
      const during = await renderedScreen(written(), columns);
      const bar = during.at(-1) ?? '';
      expect(bar).toMatch(barCharacters);
      expect(bar).toMatch(figures);
      expect(bar.length).toBeLessThan(columns);
      const logged = during.slice(0, -1).join('\n');
      expect(logged).not.toMatch(barCharacters);
      // Only the long line wraps: the bar never takes a second row.
      expect(await wrappedLineCount(written(), columns)).toBe(Math.ceil(long.length / columns) - 1);
      expect(during.slice(0, -1).join('')).toBe(`customer create: first${long}customer create: third`);

      progress.stop();
      log.info('customer create: 1000 created');
      const after = await renderedScreen(written(), columns);
      expect(after.join('')).toBe(`customer create: first${long}customer create: thirdcustomer create: 1000 created`);
      expect(after.join('\n')).not.toMatch(barCharacters);
      expect(written().endsWith(`${restoreTerminal}customer create: 1000 created\n`)).toBe(true);
    },
  );

  it.each([40, 60])(
    'a window narrowed from 100 to %i columns mid-run gets a bar refitted to it, no fragment of the wide one left',
    async (narrow) => {
      const { io, log, clock, progress, written } = await barOn(100, 200_000);
      log.info('stock push: sending');
      clock.advance(2_000);
      progress.update({ done: 64_400, failed: 0 });
      log.info('stock push: a line that redraws the bar');
      const wide = written();
      // The terminal is narrowed first (it rewraps the wide bar), then the process hears of it.
      Object.assign(io.stderr, { columns: narrow });
      io.stderr.emit('resize');
      clock.advance(2_000);
      progress.update({ done: 100_000, failed: 0 });
      log.info('stock push: after the resize');
      const steps = (text: string) => [
        { columns: 100, text: wide },
        { columns: narrow, text: text.slice(wide.length) },
      ];
      const during = await renderedScreenInSteps(steps(written()));
      expect(during.slice(0, -1)).toEqual([
        'stock push: sending',
        'stock push: a line that redraws the bar',
        'stock push: after the resize',
      ]);
      expect(during.at(-1)).toMatch(
        narrow === 40 ? / 50% \| 100000\/200000$/ : / 50% \| 100000\/200000 customers \| failed 0$/,
      );
      expect(during.at(-1)?.length).toBeLessThan(narrow);

      progress.stop();
      log.info('stock push: interrupted');
      expect(await renderedScreenInSteps(steps(written()))).toEqual([
        'stock push: sending',
        'stock push: a line that redraws the bar',
        'stock push: after the resize',
        'stock push: interrupted',
      ]);
    },
  );

  it('a line logged after stop goes to stderr as it is, and a second stop writes nothing', async () => {
    const { log, progress, written } = await barOn(80, 10);
    progress.stop();
    const stoppedAt = written().length;
    progress.stop();
    log.info('done');
    expect(written().slice(stoppedAt)).toBe('done\n');
  });

  it('shows the rate and the time left computed from the run clock', async () => {
    const { log, clock, progress, written } = await barOn(160, 10_000);
    clock.advance(10_000);
    progress.update({ done: 2_000, failed: 0 });
    // A logged line draws the bar again with the figures of the last update.
    log.info('x');
    const bar = (await renderedScreen(written(), 160)).at(-1) ?? '';
    expect(bar).toMatch(/ 20% \| 2000\/10000 customers \| 200\/s \| failed 0 \| eta 40s$/);
    progress.stop();
  });
});

describe('fittedBar', () => {
  it.each([16, 20, 30, 40, 59, 60, 61, 80, 120, 200])(
    'on %i columns, the widest line (every figure at its largest) ends before the last column',
    (columns) => {
      const total = 1_234_567;
      const { format, barsize } = fittedBar('customers', total, columns);
      const widest = format
        .replace('{bar}', 'x'.repeat(barsize))
        .replace('{percentage}', '100')
        .replaceAll(/\{(value|total|rate|failed)\}/g, String(total))
        .replace('{remaining}', '99h59m');
      expect(barsize).toBeGreaterThanOrEqual(columns >= 16 ? 10 : 1);
      expect(barsize).toBeLessThanOrEqual(40);
      expect(widest.length).toBeLessThan(columns);
    },
  );

  it.each<[number, string]>([
    [160, '{bar} {percentage}% | {value}/{total} items | {rate}/s | failed {failed} | eta {remaining}'],
    [80, '{bar} {percentage}% | {value}/{total} items | {rate}/s | failed {failed} | eta {remaining}'],
    [60, '{bar} {percentage}% | {value}/{total} items | failed {failed}'],
    [40, '{bar} {percentage}% | {value}/{total}'],
    [20, '{bar} {percentage}%'],
  ])('on %i columns, drops the figures that would leave the bar under 10 cells: %s', (columns, format) => {
    expect(fittedBar('items', 100, columns).format).toBe(format);
  });
});

describe('fittedCount', () => {
  it.each<[number, string]>([
    [80, '{value} rows checked | {rate}/s | invalid {failed}'],
    [54, '{value} rows checked | {rate}/s | invalid {failed}'],
    [53, '{value} rows checked | invalid {failed}'],
    [41, '{value} rows checked | invalid {failed}'],
    [40, '{value} rows checked'],
    [22, '{value} rows checked'],
    [21, '{value}'],
  ])('on %i columns, the figures whose widest line ends before the last column: %s', (columns, format) => {
    expect(fittedCount('rows checked', 'invalid', columns)).toBe(format);
    expect(format.replaceAll(/\{\w+\}/g, '99999999').length).toBeLessThan(columns);
  });
});

describe('timeLeft', () => {
  it.each<[number, number, number, string]>([
    [0, 100, 0, '?'],
    [10, 100, 0, '?'],
    [10, 100, 2, '45s'],
    [100, 100, 5, '0s'],
    [0 + 1, 7_000, 10, '11m40s'],
    [1, 720_001, 100, '2h00m'],
    [1, 1_000_000_000, 1, '99h59m'],
    [2, 3_000, 0.49, '1h41m'],
  ])('%i of %i at %s/s: %s', (done, total, perSecond, expected) => {
    expect(timeLeft(done, total, perSecond)).toBe(expected);
  });
});
