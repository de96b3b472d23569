import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InterruptedError } from '../base/errors.js';
import { createFileExclusively } from '../lib/private-file.js';

/**
 * Copies stdin (or a pipe) to a private temporary file, because a bulk run reads its input twice
 * (validate, then send) and a pipe can be read only once. Memory stays flat; the file goes when the
 * run ends, or when the process exits by any path. A first Ctrl-C while the writer is silent stops here.
 */
export async function spoolStdin(
  stdin: NodeJS.ReadableStream,
  options: { name: string; signal?: AbortSignal } = { name: 'stdin' },
): Promise<{ path: string; remove(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'b2bctl-stdin-'));
  const path = join(folder, 'stdin');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.removeListener('exit', remove);
    rmSync(folder, { recursive: true, force: true });
  };
  // A copy may hold customers' passwords: it must not stay in /tmp when a second Ctrl-C ends the process.
  process.once('exit', remove);
  try {
    await pipeline(stdin, createWriteStream(path, { fd: createFileExclusively(path) }), { signal: options.signal });
  } catch (error) {
    remove();
    if (options.signal?.aborted)
      throw new InterruptedError(`Interrupted while reading ${options.name}; nothing was sent.`);
    throw error;
  }
  return { path, remove };
}
