import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createFileExclusively } from './private-file.js';

/** A stream's bytes in a private temporary file, and how to remove it (at once, or when the process exits). */
export interface PrivateTemporaryFile {
  path: string;
  /** Removes the file and its folder; safe to call again, and while the file is still open (POSIX keeps its bytes). */
  remove(): void;
}

/**
 * Copies a stream that can be read once (stdin, a pipe) to a private file: a fresh 0700 folder under the system's
 * temporary folder, the file in it created 0600 with O_EXCL|O_NOFOLLOW. The copy may hold customers' data, so it is
 * removed when the process exits by any path, a second Ctrl-C included, if the caller has not removed it before.
 */
export async function copyToPrivateTemporaryFile(
  stream: NodeJS.ReadableStream,
  options: { prefix: string; name: string; signal?: AbortSignal },
): Promise<PrivateTemporaryFile> {
  // The PID in the name lets a later run find and remove a copy whose run was killed (SIGKILL, the OOM killer), as
  // it removes such a run's verdicts: the exit handler below never runs then, and the copy holds customers' data.
  const folder = mkdtempSync(join(tmpdir(), `${options.prefix}${process.pid}-`));
  const path = join(folder, options.name);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.removeListener('exit', remove);
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', remove);
  const interrupted = rejectionOnAbort(options.signal);
  try {
    const copied = pipeline(stream, createWriteStream(path, { fd: createFileExclusively(path) }), {
      signal: options.signal,
    });
    // A source that replays a peeked head (an async generator) is destroyed only once its next chunk comes: on a
    // silent writer that is never, so an interruption ends the wait itself rather than waiting for the pipeline.
    copied.catch(() => {});
    await Promise.race([copied, interrupted.promise]);
  } catch (error) {
    remove();
    throw error;
  } finally {
    interrupted.stop();
  }
  return { path, remove };
}

/** A promise rejected with the signal's reason when it aborts (never settled without one), and how to stop listening. */
function rejectionOnAbort(signal: AbortSignal | undefined): { promise: Promise<never>; stop(): void } {
  const listening: { onAbort?: () => void } = {};
  const promise = new Promise<never>((_, reject) => {
    listening.onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', listening.onAbort, { once: true });
  });
  return { promise, stop: () => listening.onAbort && signal?.removeEventListener('abort', listening.onAbort) };
}
