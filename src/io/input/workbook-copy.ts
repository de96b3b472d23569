import type { Readable } from 'node:stream';
import { InterruptedError } from '../../base/errors.js';
import { nothingSent } from './nothing-sent.js';
import { temporaryFolderError } from '../temporary-folder.js';
import { copyToPrivateTemporaryFile, type PrivateTemporaryFile } from '../../lib/private-temporary-file.js';

/**
 * A workbook on stdin or a pipe, copied to a private temporary file: a zip is read from its end. A Ctrl-C while the
 * writer is still sending ends the copy, and the run, with one line naming the input.
 */
export async function copyOfWorkbookStream(
  stream: Readable,
  file: string,
  format: 'xlsx' | 'ods',
  interrupt: AbortSignal | undefined,
  sends: boolean | undefined,
): Promise<PrivateTemporaryFile> {
  try {
    return await copyToPrivateTemporaryFile(stream, {
      prefix: 'b2bctl-workbook-',
      name: `stdin.${format}`,
      signal: interrupt,
    });
  } catch (error) {
    if (interrupt?.aborted) throw new InterruptedError(`Interrupted while reading ${file}${nothingSent(sends)}.`);
    throw temporaryFolderError(error, `a private copy of ${file}`);
  }
}
