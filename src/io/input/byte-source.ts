import { type Stats, createReadStream, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { pipeline, Readable, Transform } from 'node:stream';
import { InputError, InterruptedError } from '../../base/errors.js';
import { NotRegularFileError, isPipeKind, openNamedFileSync } from '../../lib/named-file.js';
import { printable } from '../../lib/printable.js';

/**
 * The display name of an input: its path, or `stdin` for `-`; as messages name it, on one line whatever the name holds
 * (a line break in a file name as `\n`: a log line cut in two named no file, and lost its time or its `exit N`).
 */
export function inputName(path: string): string {
  return path === '-' ? 'stdin' : printable(path);
}

/** An input's bytes, and its size when it is a regular file (undefined for stdin and pipes). */
export interface InputBytes {
  stream: Readable;
  size?: number;
}

/**
 * Opens a file, a FIFO or process substitution (or stdin for `-`) as a byte stream; a missing or unreadable file, a
 * folder or a device (/dev/zero would be read for ever) is exit 66 with the fix. A pipe or stdin may wait on a writer
 * that sends nothing: the run's Ctrl-C (`interrupt`) ends the wait with an InterruptedError naming the input as the
 * run does (`name`), where a file is read to its end. A regular file's `unchanged` check runs after each chunk is
 * read (see InputOptions.unchanged).
 */
export async function openBytes(
  path: string,
  stdin: NodeJS.ReadableStream,
  options: { interrupt?: AbortSignal; name?: string; unchanged?: () => void; pipeWait?: PipeWaitNotice } = {},
): Promise<InputBytes> {
  const { interrupt, name = inputName(path), unchanged } = options;
  if (path === '-')
    return { stream: endedOnInterrupt(stdin instanceof Readable ? stdin : Readable.from(stdin), name, interrupt) };
  try {
    const opened = openNamedInput(path, options.pipeWait, name);
    if (isPipeKind(opened.stats)) return { stream: endedOnInterrupt(opened.stream, name, interrupt) };
    return { stream: unchanged ? checkedAfterEachChunk(opened.stream, unchanged) : opened.stream, size: opened.size };
  } catch (error) {
    throw unreadable(path, error);
  }
}

/**
 * The file's chunks, each handed on only once `unchanged` has passed after it was read: the bytes of a file another
 * program rewrites as it is read (an ERP's export, truncated and written again) fail there, before any record of them
 * is judged, so no problem of a half-rewritten file is printed as if it were the file's. A stat per 32 KB read: some
 * 400 for a file of 500,000 lines.
 */
function checkedAfterEachChunk(stream: Readable, unchanged: () => void): Readable {
  const check = (): Error | null => {
    try {
      unchanged();
      return null;
    } catch (error) {
      return error as Error;
    }
  };
  const checked = new Transform({
    transform: (chunk: Buffer, _encoding, callback) => callback(check(), chunk),
    // At the end as well: a file cut short by the rewrite ends early, and its last, cut line is a record only then.
    flush: (callback) => callback(check()),
  });
  // Destroyed (the caller's close(), a refusal), the file's stream is destroyed too, and its descriptor closed.
  return pipeline(stream, checked, () => {});
}

/**
 * A named input opened without waiting (named-file.ts): a file's bytes from its start, or a pipe's as they come. A
 * pipe that `pipeWait` is given for says once on the log what the run waits for, should nothing come (see below).
 */
export function openNamedInput(
  path: string,
  pipeWait?: PipeWaitNotice,
  name = inputName(path),
): InputBytes & { stats: Stats } {
  const { descriptor, stats } = openNamedFileSync(path, { pipes: true });
  // A pipe is read in the event loop, so its wait for a writer can be interrupted (Linux reports no hang-up to a
  // reader until a writer has come and gone).
  if (isPipeKind(stats)) {
    const socket = new Socket({ fd: descriptor, readable: true, writable: false });
    if (pipeWait) sayWhenSilent(socket, name, stats.isFIFO() && !path.startsWith('/dev/fd/'), pipeWait);
    return { stream: socket, stats };
  }
  return { stream: createReadStream('', { fd: descriptor, highWaterMark: 32 * 1024 }), size: stats.size, stats };
}

/** The command's clock and log, for the one line a pipe with no writer earns. */
export interface PipeWaitNotice {
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  warn: (message: string) => void;
}

/** How long a pipe may send nothing before the run says what it waits for. */
export const pipeWaitNoticeMs = 2_000;

/**
 * A FIFO no program writes to is waited on for ever (a bulk input may be one, or a `<(…)`: the writer may start
 * later), and a cron job's log would show nothing of why it hangs. Linux gives the reader no event for "no writer
 * yet", so a timer: if the pipe has sent no byte and is still open `pipeWaitNoticeMs` after it was opened, one
 * warning says so. The timer ends with the pipe; a pipe that has sent anything is never named.
 */
function sayWhenSilent(socket: Socket, name: string, fifo: boolean, notice: PipeWaitNotice): void {
  const closed = new AbortController();
  socket.once('close', () => closed.abort());
  notice.sleep(pipeWaitNoticeMs, closed.signal).then(
    () => {
      if (socket.bytesRead > 0 || socket.destroyed || socket.readableEnded) return;
      notice.warn(
        fifo
          ? `Waiting for a program to write to ${name}: it is a named pipe (FIFO), and nothing has come from it in ${pipeWaitNoticeMs / 1000} s. The run reads it once a program writes it and closes it; until then it waits, holding no lock (Ctrl-C or SIGTERM ends it, nothing sent).`
          : `Waiting for ${name}: it is a pipe, and nothing has come from it in ${pipeWaitNoticeMs / 1000} s. The run reads it once the program writing it writes and ends (Ctrl-C or SIGTERM ends it, nothing sent).`,
      );
    },
    () => {},
  );
}

/** The stream, destroyed with an InterruptedError when the run is interrupted while it is still read. */
function endedOnInterrupt(stream: Readable, name: string, interrupt: AbortSignal | undefined): Readable {
  if (interrupt === undefined) return stream;
  const onAbort = () =>
    stream.destroy(new InterruptedError(`Interrupted while reading ${name}; nothing more was read.`));
  if (interrupt.aborted) onAbort();
  else {
    interrupt.addEventListener('abort', onAbort, { once: true });
    stream.once('close', () => interrupt.removeEventListener('abort', onAbort));
  }
  return stream;
}

/** True for a FIFO or socket (`mkfifo`, a process substitution `<(cat f.csv)`); a missing path is left to the reader. */
export function isPipe(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}

/** The one line for an input that cannot be opened or read (exit 66), with what to check. */
export function unreadable(path: string, error: unknown): InputError {
  if (error instanceof InputError) return error;
  if (error instanceof NotRegularFileError)
    return new InputError(`${shortPath(inputName(path))}: ${error.message}.`, { file: path, missing: true });
  const code = (error as NodeJS.ErrnoException).code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file; check the path',
    EACCES: 'permission denied; check the file is readable by this user',
    EPERM: 'permission denied; check the file is readable by this user',
    EISDIR: 'it is a folder, not a file',
    ENOTDIR: 'a part of the path is a file, not a folder; check the path',
    ELOOP: 'is a symbolic link that leads back to itself (a loop of links); point it at the real file',
    EIO: 'the system could not read it (EIO: a failing disk or a lost network share); copy it somewhere readable and pass the copy',
    ENAMETOOLONG:
      'the path is longer than the system allows (a name of more than 255 bytes, or a path of more than 4,096); check the path, or move the file to a shorter one',
    EMFILE: 'too many files are open in this process or system; close some programs and run again',
    ENFILE: 'too many files are open in this process or system; close some programs and run again',
    EBUSY: 'is in use by the system or another program; run again once it is free, or copy it and pass the copy',
    ENXIO: 'is a device or socket nobody serves; pass a file',
    ETIMEDOUT: 'the network share it is on did not answer; check the share, or copy the file somewhere local',
    ESTALE: 'the network share it is on was lost (ESTALE); mount it again, or copy the file somewhere local',
    EINVAL: 'is not a path the system can open; check the path',
  };
  const reason = (code && reasons[code]) ?? `cannot be read (${code ?? (error as Error).message})`;
  return new InputError(`${shortPath(inputName(path))}: ${reason}.`, { file: path, missing: true });
}

function asBuffer(value: Buffer | string): Buffer {
  return typeof value === 'string' ? Buffer.from(value) : value;
}

/** A path as a message names it: a path of thousands of characters is shortened, its start and end kept. */
function shortPath(path: string): string {
  return path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-40)} (${path.length} characters)` : path;
}

/**
 * Reads the first `bytes` of a stream without losing them: the returned stream replays the head,
 * then the rest. Used to sniff format and encoding on stdin, which cannot be read twice.
 */
export async function peekBytes(stream: Readable, bytes: number): Promise<{ head: Buffer; stream: Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  let headSent = false;
  let pumping = false;
  /** Pushes the head, then the source's chunks, until the reader wants no more for now. */
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      if (!headSent) {
        headSent = true;
        if (head.length > 0 && !replayed.push(head)) return;
      }
      for (;;) {
        const next = ended ? { done: true as const } : await iterator.next();
        if (next.done) {
          replayed.push(null);
          return;
        }
        if (!replayed.push(asBuffer(next.value as Buffer | string))) return;
      }
    } catch (error) {
      replayed.destroy(error as Error);
    } finally {
      pumping = false;
    }
  };
  const replayed = new Readable({
    read: () => void pump(),
    // Destroyed (Ctrl-C, a reader that stops early such as RecordChecker's re-read for a repeat), the replay
    // destroys its source as well: a read of the source waits until a next chunk comes, never from a silent
    // writer, and the source's handle would keep the process up.
    destroy: (error, callback) => {
      stream.destroy();
      Promise.resolve(iterator.return?.()).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
  return { head, stream: replayed };
}
