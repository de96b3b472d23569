import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { specialFileKind } from './file-owners.js';

// Windows has no O_NONBLOCK (and no FIFOs at a path).
const noBlock = constants.O_NONBLOCK ?? 0;

/** A file named for its contents (a client secret, a `--map`) that is a FIFO, socket, device or folder instead. */
export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`it is ${kind}, not a file`);
  }
}

/**
 * The whole of a file read by name, refused (NotRegularFileError) when it is not a regular file. A plain open() of
 * a FIFO nobody writes to waits inside libuv's thread pool, where no signal reaches it and process.exit() itself
 * waits for it: a server stopped answering, deaf to SIGTERM. Opened without blocking, the path's kind is known
 * before anything is read.
 */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | noBlock);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path, specialFileKind(stats));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
