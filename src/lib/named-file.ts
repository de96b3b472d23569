import { type Stats, closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Socket } from 'node:net';
import { specialFileKind } from './file-owners.js';

/**
 * Every file b2bctl reads because a user named it (an input, an NF-e, a `--map`, a secret, a schema, a request body)
 * is opened here. A plain open() of a FIFO nobody writes to waits inside libuv's thread pool, where no signal reaches
 * it and process.exit() itself waits for it: the command hung, deaf to Ctrl-C and SIGTERM. Opened without blocking,
 * the open returns at once, and what the path is, is read through the descriptor (a name swapped after a look at it
 * cannot slip by) before anything is read: a device such as /dev/zero, read for ever, is refused with the rest.
 */

// Windows has no O_NONBLOCK (and no FIFOs at a path).
export const noBlock = constants.O_NONBLOCK ?? 0;

/** What a caller accepts besides a regular file, and how it opens it. */
export interface NamedFileOptions {
  /** A FIFO or a process substitution (`<(cat f.csv)`), which can be read once, as a pipe. */
  pipes?: boolean;
  /** More open flags: O_NOFOLLOW where a link must not be followed. */
  flags?: number;
}

/** A named file refused for what it is, before anything was read; its message is the reason, with the fix. */
export abstract class NamedFileRefusal extends Error {}

/** A file named for its contents that is a FIFO, socket, device or folder instead (or a FIFO where none is read). */
export class NotRegularFileError extends NamedFileRefusal {
  readonly path: string;
  readonly kind: string;
  constructor(path: string, kind: string) {
    super(`it is ${kind}, not a file`);
    this.path = path;
    this.kind = kind;
  }
}

/** A pipe read whole that no program writes to: a FIFO whose writer has not started, or one that wrote nothing. */
export class PipeWithoutWriterError extends NamedFileRefusal {
  readonly path: string;
  constructor(path: string) {
    super('no program is writing to the pipe: start the program that writes it first, or pass a file');
    this.path = path;
  }
}

/** Whether an opened path is read as a pipe: a FIFO, a process substitution, a socket handed over as /dev/fd/N. */
export function isPipeKind(stats: Stats): boolean {
  return stats.isFIFO() || stats.isSocket();
}

/** Opens `path` to read, without waiting, and refuses (closed) what the caller does not accept. */
export async function openNamedFile(
  path: string,
  options: NamedFileOptions = {},
): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(path, constants.O_RDONLY | noBlock | (options.flags ?? 0));
  try {
    const stats = await handle.stat();
    refuseUnaccepted(path, stats, options);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** openNamedFile's descriptor, for a caller that reads synchronously or hands a pipe to a socket. */
export function openNamedFileSync(path: string, options: NamedFileOptions = {}): { descriptor: number; stats: Stats } {
  const descriptor = openSync(path, constants.O_RDONLY | noBlock | (options.flags ?? 0));
  try {
    const stats = fstatSync(descriptor);
    refuseUnaccepted(path, stats, options);
    return { descriptor, stats };
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

function refuseUnaccepted(path: string, stats: Stats, options: NamedFileOptions): void {
  if (stats.isFile() || (options.pipes === true && isPipeKind(stats))) return;
  throw new NotRegularFileError(path, specialFileKind(stats));
}

/** The whole of a regular file read by name; anything else is refused (NotRegularFileError). */
export async function readRegularFile(path: string): Promise<Buffer> {
  const { handle } = await openNamedFile(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The whole of a file or a pipe (`--input <(jq ... )`) read by name. A pipe is read in the event loop, so Ctrl-C
 * ends a wait on a slow writer; one no program writes to is refused at once (PipeWithoutWriterError): Linux tells a
 * reader of a FIFO no hang-up before a writer has come and gone, so it would be waited on for ever.
 */
export async function readFileOrPipe(path: string): Promise<Buffer> {
  const { descriptor, stats } = openNamedFileSync(path, { pipes: true });
  if (!isPipeKind(stats)) {
    try {
      return readFileSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  }
  // What is there already is read without waiting; a socket is made only while a writer may still send, and the
  // first look tells a FIFO no program writes to (at its end before anything came).
  const chunks: Buffer[] = [];
  let chunk: Buffer | undefined;
  try {
    for (chunk = readWithoutWaiting(descriptor); chunk?.length; chunk = readWithoutWaiting(descriptor))
      chunks.push(chunk);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  if (chunk !== undefined) {
    // At its end: no writer is left, or none ever came.
    closeSync(descriptor);
    if (chunks.length === 0) throw new PipeWithoutWriterError(path);
    return Buffer.concat(chunks);
  }
  const socket = new Socket({ fd: descriptor, readable: true, writable: false });
  for await (const piece of socket) chunks.push(piece as Buffer);
  return Buffer.concat(chunks);
}

/** What Atomics.wait sleeps on between two looks at a pipe: nothing ever wakes it, so it sleeps the time given. */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * readFileOrPipe for a caller that reads synchronously (a JSON setting, `--schema <(jq … )`). A pipe whose writer has
 * sent nothing yet is looked at again every few milliseconds until its writer closes it: the process waits on it as
 * a plain read did, but one no program writes to is refused at once instead of waited on for ever.
 */
export function readFileOrPipeSync(path: string): Buffer {
  const { descriptor, stats } = openNamedFileSync(path, { pipes: true });
  try {
    if (!isPipeKind(stats)) return readFileSync(descriptor);
    let chunk = readWithoutWaiting(descriptor);
    if (chunk?.length === 0) throw new PipeWithoutWriterError(path);
    const chunks: Buffer[] = [];
    for (; chunk?.length !== 0; chunk = readWithoutWaiting(descriptor)) {
      if (chunk === undefined) Atomics.wait(pause, 0, 0, 5);
      else chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * What a pipe opened without blocking holds now: its bytes; none at its end (no writer is left, or none ever came:
 * a writer still opening it counts already); undefined while its writer has sent nothing yet.
 */
function readWithoutWaiting(descriptor: number): Buffer | undefined {
  const buffer = Buffer.alloc(64 * 1024);
  try {
    return buffer.subarray(0, readSync(descriptor, buffer, 0, buffer.length, null));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return undefined;
    throw error;
  }
}
