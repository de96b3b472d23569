import { tmpdir } from 'node:os';
import { UsageError } from '../base/errors.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import { printable } from '../lib/printable.js';

/**
 * The temporary folder (TMPDIR) full, read-only or missing, said as the output paths that cannot be written are
 * (exit 2, nothing sent), naming the folder and the variable: the bare `ENOSPC: no space left on device, write`
 * named neither and exited 1, "some records failed" to a scheduler. System errors only; any other passes as it is.
 */
export function temporaryFolderError(error: unknown, what: string, folder = tmpdir()): unknown {
  const cause = systemErrorCause(error);
  if (cause === undefined) return error;
  return new UsageError(
    `Cannot write ${what} in the temporary folder ${printable(folder)} (${cause}); nothing was sent. It needs about as much free room as the input: make room there, or set TMPDIR to a writable folder with room.`,
    { cause: error },
  );
}
