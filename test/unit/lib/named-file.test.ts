/**
 * The one way a file a user names is opened: without waiting, its kind read through the descriptor, refused unless
 * its caller reads that kind. In process: were any open here to block on a FIFO, it would hold the test worker, so
 * a regression hangs this file rather than passing.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  NotRegularFileError,
  PipeWithoutWriterError,
  openNamedFileSync,
  readFileOrPipe,
  readRegularFile,
  readRegularFileSync,
} from '../../../src/lib/named-file.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

/** A folder holding `file` (a regular file), `fifo` (no writer) and `folder`. */
function namedThings(): Record<'file' | 'fifo' | 'folder', string> {
  const base = temporaryFolder('b2bctl-named-');
  const things = { file: join(base, 'file.json'), fifo: join(base, 'fifo'), folder: join(base, 'folder') };
  writeFileSync(things.file, '{"a":1}');
  execFileSync('mkfifo', ['-m', '600', things.fifo]);
  mkdirSync(things.folder);
  return things;
}

async function failureOf(read: () => unknown): Promise<Error> {
  try {
    await read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it was read');
}

describe('readRegularFile and readRegularFileSync: a regular file only', () => {
  it.each([
    ['readRegularFile', readRegularFile],
    ['readRegularFileSync', readRegularFileSync],
  ] as const)('%s: reads a file; refuses a FIFO, a device and a folder, naming what each is', async (_name, read) => {
    const things = namedThings();
    expect((await read(things.file)).toString()).toBe('{"a":1}');
    const refused: [string, string][] = [
      [things.fifo, 'a named pipe (FIFO)'],
      ['/dev/zero', 'a device'],
      [things.folder, 'a folder'],
    ];
    for (const [path, kind] of refused) {
      const failure = await failureOf(() => read(path));
      expect(failure).toBeInstanceOf(NotRegularFileError);
      expect(failure.message).toBe(`it is ${kind}, not a file`);
      expect((failure as NotRegularFileError).path).toBe(path);
    }
  });
});

describe('readFileOrPipe: a file or a pipe', () => {
  it('reads a file whole', async () => {
    expect((await readFileOrPipe(namedThings().file)).toString()).toBe('{"a":1}');
  });

  it('refuses a FIFO no program writes to at once, and a device', async () => {
    const things = namedThings();
    const failure = await failureOf(() => readFileOrPipe(things.fifo));
    expect(failure).toBeInstanceOf(PipeWithoutWriterError);
    expect(failure.message).toBe(
      'no program is writing to the pipe: start the program that writes it first, or pass a file',
    );
    expect((await failureOf(() => readFileOrPipe('/dev/zero'))).message).toBe('it is a device, not a file');
  });

  it('reads a FIFO a program writes to until its writer closes it, what comes after the read began included', async () => {
    const { fifo } = namedThings();
    // Opened for reading and writing, the FIFO has a writer without waiting for a reader: this test is the program.
    const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(writer, '{"first":');
    const reading = readFileOrPipe(fifo);
    writeSync(writer, '"second"}');
    closeSync(writer);
    expect((await reading).toString()).toBe('{"first":"second"}');
  });

  it('a FIFO whose writer has sent nothing yet is waited on, not refused', async () => {
    const { fifo } = namedThings();
    const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const reading = readFileOrPipe(fifo);
    writeSync(writer, '{}');
    closeSync(writer);
    expect((await reading).toString()).toBe('{}');
  });
});

describe('openNamedFileSync', () => {
  it('passes the caller’s flags: O_NOFOLLOW refuses a link (ELOOP)', () => {
    const things = namedThings();
    const link = join(things.folder, 'link.json');
    symlinkSync(things.file, link);
    expect(() => openNamedFileSync(link, { flags: constants.O_NOFOLLOW })).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
  });
});
