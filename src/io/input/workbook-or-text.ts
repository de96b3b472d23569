import type { Readable } from 'node:stream';
import { InterruptedError } from '../../base/errors.js';
import { workbookFormat } from './binary-kinds.js';
import { inputName, openBytes, peekBytes } from './byte-source.js';
import { type InputOptions, type OpenedInput, openInput } from './open-input.js';

/**
 * Opens any input a command reads: a workbook (.xlsx, .ods, known by its first bytes) through the workbook reader,
 * loaded only then; anything else through openInput (CSV, JSON, NDJSON).
 */
export async function openAnyInput(options: InputOptions): Promise<OpenedInput> {
  const name = options.displayName ?? inputName(options.path);
  let bytes: { stream: Readable; size?: number };
  try {
    bytes = await openBytes(options.path, options.stdin, {
      interrupt: options.interrupt,
      pipeWait: options.pipeWait,
      name,
    });
  } catch {
    // A missing or unreadable file: openInput says so in the words of every other input.
    return openInput(options);
  }
  const peeked = await peekBytes(bytes.stream, 4).catch((error: unknown) => {
    // A Ctrl-C while a silent writer sends nothing ends the run; an unreadable input is openInput's to say.
    if (error instanceof InterruptedError) throw error;
    return undefined;
  });
  // The file's own stream is closed here when the file is read again by path: the replaying stream of an
  // unstarted peek would not close it (a descriptor left to the garbage collector, with Node's warning).
  const reread = options.path !== '-' && bytes.size !== undefined;
  if (!peeked) {
    bytes.stream.destroy();
    return openInput(options);
  }
  const format = workbookFormat(peeked.head);
  if (format) {
    const { openWorkbookInput } = await import('./workbook-input.js');
    if (reread) bytes.stream.destroy();
    return openWorkbookInput(
      options,
      name,
      format,
      reread ? { path: options.path } : { stream: peeked.stream as Readable },
    );
  }
  if (reread) {
    bytes.stream.destroy();
    return openInput(options);
  }
  // Stdin and pipes can be read once: the bytes already taken are handed back with the rest.
  return openInput({
    ...options,
    path: '-',
    displayName: name,
    stdin: peeked.stream as Readable,
  });
}
