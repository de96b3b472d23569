import { InterruptedError } from '../base/errors.js';
import { temporaryFolderError } from '../io/temporary-folder.js';
import { copyToPrivateTemporaryFile, type PrivateTemporaryFile } from '../lib/private-temporary-file.js';

/**
 * Copies stdin (or a pipe) to a private temporary file, because a bulk run reads its input twice
 * (validate, then send) and a pipe can be read only once. Memory stays flat; the file goes when the
 * run ends, or when the process exits by any path. A first Ctrl-C while the writer is silent stops here.
 */
export async function spoolStdin(
  stdin: NodeJS.ReadableStream,
  options: { name: string; signal?: AbortSignal } = { name: 'stdin' },
): Promise<PrivateTemporaryFile> {
  try {
    return await copyToPrivateTemporaryFile(stdin, { prefix: 'b2bctl-stdin-', name: 'stdin', signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted)
      throw new InterruptedError(`Interrupted while reading ${options.name}; nothing was sent.`);
    throw temporaryFolderError(error, `a private copy of ${options.name}`);
  }
}
