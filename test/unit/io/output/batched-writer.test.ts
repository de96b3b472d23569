/**
 * Problem lines written in batches (issue 10: 20,000 problem lines of a file of duplicates were 20,000 system
 * calls): fewer writes, every byte in order, each line at most one turn of the event loop late, the stream's
 * backpressure kept, and a logger's batched stretch written whole however it ends.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../../src/base/clock.js';
import { batchedWriter } from '../../../../src/io/output/batched-writer.js';
import { createLogger } from '../../../../src/io/output/logger.js';
import { createRecordWriter } from '../../../../src/io/output/record-writer.js';

/** A stream that records each write it is given, as one system call each would be. */
function countingStream(highWaterMark = 1024 * 1024) {
  const writes: string[] = [];
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push(String(chunk));
      callback();
    },
  });
  return { stream, writes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedWriter', () => {
  it('writes the lines of one turn of the event loop in one write, in order, the rest on the next turn', async () => {
    const { stream, writes } = countingStream();
    const batch = batchedWriter(stream);
    for (let line = 1; line <= 1000; line++) void batch.write(`line ${line}\n`);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    void batch.write('line 1001\n');
    await nextTurn();
    expect(writes).toHaveLength(2);
    await batch.flush();
    expect(writes.join('')).toBe(Array.from({ length: 1001 }, (_, index) => `line ${index + 1}\n`).join(''));
  });

  it('writes at once when 64 KB are waiting, so a fast producer never holds a file of text', () => {
    const { stream, writes } = countingStream();
    const batch = batchedWriter(stream);
    const line = `${'x'.repeat(99)}\n`;
    for (let count = 0; count < 2000; count++) void batch.write(line);
    expect(writes.length).toBe(Math.floor((2000 * 100) / (64 * 1024)));
    expect(writes.every((text) => text.length >= 64 * 1024 && text.length < 64 * 1024 + 100)).toBe(true);
  });

  it('keeps the backpressure: a full stream makes the writer wait for drain', async () => {
    const stream = new PassThrough({ highWaterMark: 16 });
    const batch = batchedWriter(stream);
    expect(batch.write('a'.repeat(70_000))).toBeInstanceOf(Promise);
    let drained = false;
    const waiting = batch.flush().then(() => (drained = true));
    await nextTurn();
    expect(drained).toBe(false);
    let read = '';
    stream.on('data', (chunk) => (read += chunk));
    await waiting;
    expect(read).toHaveLength(70_000);
  });

  it('flush writes nothing when nothing waits', async () => {
    const { stream, writes } = countingStream();
    await batchedWriter(stream).flush();
    expect(writes).toEqual([]);
  });
});

describe('a batched record writer', () => {
  it('writes the same bytes as an unbatched one, in fewer writes, all of them by the time end resolves', async () => {
    const plain = countingStream();
    const batched = countingStream();
    const layout = { table: [], csv: ['line', 'message'] };
    for (const format of ['ndjson', 'csv', 'json'] as const) {
      plain.writes.length = 0;
      batched.writes.length = 0;
      const one = createRecordWriter(format, plain.stream, layout, { color: false });
      const other = createRecordWriter(format, batched.stream, layout, { color: false, batched: true });
      for (let line = 2; line < 500; line++) {
        await one.write({ line, message: `=line ${line}` });
        await other.write({ line, message: `=line ${line}` });
      }
      expect(await other.end()).toBe(await one.end());
      expect(batched.writes.join('')).toBe(plain.writes.join(''));
      expect(batched.writes.length).toBeLessThan(plain.writes.length / 10);
    }
  });
});

describe('Logger.batched', () => {
  const clock: Clock = { now: () => Date.parse('2026-11-21T05:00:01.250Z'), sleep: async () => {} };

  it('writes the lines logged inside in few writes, every one of them before it resolves, even when it throws', async () => {
    const { stream, writes } = countingStream();
    const log = createLogger({
      stderr: stream,
      isStderrTTY: false,
      clock,
      format: 'text',
      quiet: false,
      verbose: false,
    });
    log.info('before');
    await expect(
      log.batched(async () => {
        for (let line = 2; line < 2000; line++) log.warn(`f.csv:${line}: a problem`);
        throw new Error('stopped');
      }),
    ).rejects.toThrow('stopped');
    log.info('after');
    expect(writes.length).toBeLessThan(10);
    const lines = writes.join('').split('\n');
    expect(lines[0]).toBe('2026-11-21T05:00:01.250Z before');
    expect(lines[1]).toBe('2026-11-21T05:00:01.250Z f.csv:2: a problem');
    expect(lines.at(-3)).toBe('2026-11-21T05:00:01.250Z f.csv:1999: a problem');
    expect(lines.at(-2)).toBe('2026-11-21T05:00:01.250Z after');
    expect(lines).toHaveLength(2001);
  });

  it('writes each line at once outside a batched stretch', () => {
    const { stream, writes } = countingStream();
    const log = createLogger({
      stderr: stream,
      isStderrTTY: true,
      clock,
      format: 'text',
      quiet: false,
      verbose: false,
    });
    log.warn('one');
    log.warn('two');
    expect(writes).toEqual(['one\n', 'two\n']);
  });
});
