/**
 * `orders poll >> FILE`: a disk that fills up cuts a write short without an error (node's stdout on a file writes
 * what fits), and the error comes only with a later write. The sink's flush, after which the cursor moves, must see
 * that the file holds less than it was handed: it cuts the file back to the last whole order and throws, so the cursor
 * never passes the order that was cut. The short write is made here by cutting the file behind the stream's back.
 */
import { closeSync, ftruncateSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import { createOrderSink } from '../../../src/orders/order-output.js';
import type { ListedOrder } from '../../../src/platform/orders.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

/** A stdout on a regular file, written synchronously as node's stdout on a file is. */
function fileStdout(fd: number): Writable & { fd: number } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(fd, chunk);
      done();
    },
  });
  return Object.assign(stream, { fd });
}

const version = (id: number): ListedOrder =>
  ({ id: String(id), orderNumber: String(id), lastUpdated: '2026-11-30T01:00:00.000Z' }) as ListedOrder;

it('a flush after a write cut short throws and cuts the file back to the last whole order', async () => {
  const path = join(temporaryFolder(), 'orders.ndjson');
  writeFileSync(path, '{"id":"kept from before"}\n');
  const fd = openSync(path, 'a');
  try {
    const stdout = fileStdout(fd);
    const context = {
      io: { stdout, isStdoutTTY: false },
      globals: {},
      outputFormat: () => 'ndjson',
    } as unknown as Context;
    const sink = createOrderSink(context, undefined);
    await sink.write(version(1), { id: 1 });
    expect(await sink.flush()).toBe(true);
    const covered = statSync(path).size;
    await sink.write(version(2), { id: 2, note: 'x'.repeat(100) });
    // The disk filled in the middle of order 2: only part of it reached the file.
    ftruncateSync(fd, covered + 20);
    await expect(sink.flush()).rejects.toThrow(
      `cannot write to stdout (a write was cut short): the file was cut back to the ${covered} bytes the cursor covers, so it ends with a whole order; make room or write elsewhere, then run the command again: it continues from the cursor.`,
    );
    expect(readFileSync(path, 'utf8')).toBe('{"id":"kept from before"}\n{"id":1}\n');
  } finally {
    closeSync(fd);
  }
});
