/**
 * The one way a file a user names is opened: without waiting, its kind read through the descriptor, refused unless
 * its caller reads that kind. In process: were any open here to block on a FIFO, it would hold the test worker, so
 * a regression hangs this file rather than passing.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  NotRegularFileError,
  PipeWithoutWriterError,
  openNamedFileSync,
  readFileOrPipe,
  readFileOrPipeSync,
  readRegularFile,
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

describe('readRegularFile: a regular file only', () => {
  it('reads a file; refuses a FIFO, a device and a folder, naming what each is', async () => {
    const things = namedThings();
    expect((await readRegularFile(things.file)).toString()).toBe('{"a":1}');
    const refused: [string, string][] = [
      [things.fifo, 'a named pipe (FIFO)'],
      ['/dev/zero', 'a device'],
      [things.folder, 'a folder'],
    ];
    for (const [path, kind] of refused) {
      const failure = await failureOf(() => readRegularFile(path));
      expect(failure).toBeInstanceOf(NotRegularFileError);
      expect(failure.message).toBe(`it is ${kind}, not a file`);
      expect((failure as NotRegularFileError).path).toBe(path);
    }
  });
});

/**
 * A writer (node -e, argv: the FIFO, the reading process) holding the FIFO as its fd 3: it writes `"second"}` and
 * closes once the reading process holds the FIFO open for reading (its descriptors in /proc), whatever the load.
 */
const writeOnceRead = `
const { closeSync, readdirSync, readFileSync, readlinkSync, writeSync } = require('node:fs');
const [fifo, reader] = process.argv.slice(1);
const reading = () => readdirSync('/proc/' + reader + '/fd').some((fd) => {
  try {
    if (readlinkSync('/proc/' + reader + '/fd/' + fd) !== fifo) return false;
    const flags = /flags:\\s*(\\d+)/.exec(readFileSync('/proc/' + reader + '/fdinfo/' + fd, 'utf8'));
    return flags !== null && (parseInt(flags[1], 8) & 3) === 0;
  } catch {
    return false;
  }
});
const started = Date.now();
const poll = setInterval(() => {
  if (!reading() && Date.now() - started < 60000) return;
  clearInterval(poll);
  writeSync(3, '"second"}');
  closeSync(3);
}, 2);
`;

describe.each([
  ['readFileOrPipe', readFileOrPipe],
  ['readFileOrPipeSync', readFileOrPipeSync],
] as const)('%s: a file or a pipe', (_name, read) => {
  it('reads a file whole', async () => {
    expect((await read(namedThings().file)).toString()).toBe('{"a":1}');
  });

  it('refuses a FIFO no program writes to at once, and a device', async () => {
    const things = namedThings();
    const failure = await failureOf(() => read(things.fifo));
    expect(failure).toBeInstanceOf(PipeWithoutWriterError);
    expect(failure.message).toBe(
      'no program is writing to the pipe: start the program that writes it first, or pass a file',
    );
    expect((await failureOf(() => read('/dev/zero'))).message).toBe('it is a device, not a file');
  });

  it('reads a FIFO until its writer, another process, closes it: what it sends after the read began included', async () => {
    const { fifo } = namedThings();
    const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(writer, '{"first":');
    // The child holds the writing end from its start (its fd 3), so the FIFO has a writer once this one closes it;
    // it writes the rest once the read has begun (a reading descriptor of this process on the FIFO), never before:
    // a child done before the read began would leave the FIFO open by no one, and its bytes gone.
    const child = spawn(process.execPath, ['-e', writeOnceRead, realpathSync(fifo), String(process.pid)], {
      stdio: ['ignore', 'ignore', 'ignore', writer],
    });
    const childEnded = new Promise((resolve) => child.once('close', resolve));
    closeSync(writer);
    expect((await read(fifo)).toString()).toBe('{"first":"second"}');
    await childEnded;
  });
});

describe('readFileOrPipe: in the event loop', () => {
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
