/**
 * writesToNullDevice tells a stdout on the null device (`> /dev/null`, or closed with `>&-`, which node reopens on
 * it) from every stream that keeps what it is given: a file, a pipe, another character device, a memory stream.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { writesToNullDevice } from '../../../../src/io/output/null-device.js';
import { freshWorkDir } from '../../../support/cli.js';
import { removeTemporaryFolders } from '../../../support/temporary.js';

afterAll(removeTemporaryFolders);

function withDescriptor(path: string, check: (fd: number) => void): void {
  const fd = openSync(path, 'w');
  try {
    check(fd);
  } finally {
    closeSync(fd);
  }
}

it('is true for a stream on /dev/null', () => {
  withDescriptor('/dev/null', (fd) => expect(writesToNullDevice({ fd })).toBe(true));
});

it('is false for a file, another character device, a memory stream and a stream without a descriptor', () => {
  withDescriptor(join(freshWorkDir(), 'orders.ndjson'), (fd) => expect(writesToNullDevice({ fd })).toBe(false));
  withDescriptor('/dev/zero', (fd) => expect(writesToNullDevice({ fd })).toBe(false));
  expect(writesToNullDevice(new PassThrough())).toBe(false);
  expect(writesToNullDevice({ fd: 1_000_000 })).toBe(false);
});
