import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../../src/base/clock.js';
import type { LogFormat } from '../../../../src/io/output/log-formats.js';
import { createLogger } from '../../../../src/io/output/logger.js';

const fiveInTheMorning: Clock = { now: () => Date.parse('2026-11-21T05:00:01.250Z'), sleep: async () => {} };

function logged(options: { format: LogFormat; tty?: boolean; quiet?: boolean; verbose?: boolean }) {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk) => (text += chunk));
  const log = createLogger({
    stderr,
    isStderrTTY: options.tty ?? false,
    clock: fiveInTheMorning,
    format: options.format,
    quiet: options.quiet ?? false,
    verbose: options.verbose ?? false,
  });
  return { log, text: () => text };
}

describe('createLogger', () => {
  it('text off a terminal: every line, each line of a message too, starts with the ISO-8601 time', () => {
    const { log, text } = logged({ format: 'text' });
    log.info('stock push: validating stock.csv');
    log.error('error: it failed\nsecond line');
    expect(text()).toBe(
      [
        '2026-11-21T05:00:01.250Z stock push: validating stock.csv',
        '2026-11-21T05:00:01.250Z error: it failed',
        '2026-11-21T05:00:01.250Z second line',
        '',
      ].join('\n'),
    );
  });

  it('text on a terminal, and plain anywhere: the message alone', () => {
    for (const options of [{ format: 'text', tty: true }, { format: 'plain' }] as const) {
      const { log, text } = logged(options);
      log.warn('warning: careful');
      expect(text()).toBe('warning: careful\n');
    }
  });

  it('json: one object per line with time, level, message (its prefix dropped) and fields', () => {
    const { log, text } = logged({ format: 'json', tty: true });
    log.notice('stock push: 52 applied', { requests: 2 });
    log.warn('stock.csv:3: bad');
    log.error('error: Cannot reach it.\nsecond line');
    const lines = text().trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: '2026-11-21T05:00:01.250Z', level: 'info', message: 'stock push: 52 applied', fields: { requests: 2 } },
      { time: '2026-11-21T05:00:01.250Z', level: 'warn', message: 'stock.csv:3: bad' },
      { time: '2026-11-21T05:00:01.250Z', level: 'error', message: 'Cannot reach it.\nsecond line' },
    ]);
  });

  it("a platform's words cannot drive the terminal: controls shown as \\u{…}, a message's own line breaks and tabs kept", () => {
    // A refusal reading `\e[2J\e[H…` cleared the screen and wrote over b2bctl's own lines (a fresh user test).
    const said = 'why: \u001b[2J\u001b[Hall applied\u0007\b\u009B1m\u001b]0;TITLE\u0007 ok\tdone\nnext line';
    const shown = 'why: \\u{1B}[2J\\u{1B}[Hall applied\\u{7}\\u{8}\\u{9B}1m\\u{1B}]0;TITLE\\u{7} ok\tdone\nnext line\n';
    for (const options of [{ format: 'text', tty: true }, { format: 'plain' }] as const) {
      const { log, text } = logged(options);
      log.error(said);
      expect(text()).toBe(shown);
    }
    const { log, text } = logged({ format: 'json' });
    log.error(said);
    expect(text()).not.toContain('\u001b');
    expect((JSON.parse(text()) as { message: string }).message).toBe(said);
  });

  it('--quiet silences info, not notice, warn or error; debug only with --verbose', () => {
    const { log, text } = logged({ format: 'plain', quiet: true });
    log.info('progress');
    log.debug('trace');
    log.notice('summary');
    log.warn('warning');
    log.error('error');
    expect(text()).toBe('summary\nwarning\nerror\n');
    const verbose = logged({ format: 'plain', verbose: true });
    verbose.log.debug('trace');
    expect(verbose.text()).toBe('trace\n');
  });
});

describe('Logger.divert', () => {
  it('sends every line, formatted as it would be written, to the diverting function until it is given back', () => {
    const { log, text } = logged({ format: 'text' });
    const diverted: string[] = [];
    log.info('before');
    const giveBack = log.divert((line) => diverted.push(line));
    log.info('one');
    log.error('error: two');
    giveBack();
    log.info('after');
    expect(diverted).toEqual(['2026-11-21T05:00:01.250Z one\n', '2026-11-21T05:00:01.250Z error: two\n']);
    expect(text()).toBe('2026-11-21T05:00:01.250Z before\n2026-11-21T05:00:01.250Z after\n');
  });

  it('keeps --quiet: a silenced line reaches neither', () => {
    const { log, text } = logged({ format: 'plain', quiet: true });
    const diverted: string[] = [];
    log.divert((line) => diverted.push(line));
    log.info('progress');
    log.notice('summary');
    expect(diverted).toEqual(['summary\n']);
    expect(text()).toBe('');
  });

  it('writes the lines of a batched stretch first, so the order holds', async () => {
    const { log, text } = logged({ format: 'plain' });
    const diverted: string[] = [];
    await log.batched(async () => {
      log.warn('f.csv:2: a problem');
      log.divert((line) => diverted.push(line));
      log.warn('f.csv:3: a problem');
    });
    expect(text()).toBe('f.csv:2: a problem\n');
    expect(diverted).toEqual(['f.csv:3: a problem\n']);
  });

  it('an older diversion given back late does not end a newer one', () => {
    const { log } = logged({ format: 'plain' });
    const first: string[] = [];
    const second: string[] = [];
    const giveBackFirst = log.divert((line) => first.push(line));
    log.divert((line) => second.push(line));
    giveBackFirst();
    log.info('x');
    expect([first, second]).toEqual([[], ['x\n']]);
  });
});
