/**
 * deviceKeepingNothing names a stdout on a device that keeps nothing (`> /dev/null`, closed with `>&-`, which node
 * reopens on it, `> /dev/zero`, `> /dev/urandom`), and leaves alone every stream that keeps what it is given: a file,
 * a terminal, a memory stream.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { deviceKeepingNothing } from '../../../../src/io/output/device-keeping-nothing.js';
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

it.each(['/dev/null', '/dev/zero', '/dev/urandom'])('names %s', (device) => {
  withDescriptor(device, (fd) => expect(deviceKeepingNothing({ fd })).toBe(device));
});

it('leaves alone a file, a memory stream and a stream without a descriptor', () => {
  withDescriptor(join(freshWorkDir(), 'orders.ndjson'), (fd) => expect(deviceKeepingNothing({ fd })).toBeUndefined());
  expect(deviceKeepingNothing(new PassThrough())).toBeUndefined();
  expect(deviceKeepingNothing({ fd: 1_000_000 })).toBeUndefined();
});
