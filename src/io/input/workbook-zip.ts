import type { Readable } from 'node:stream';
import { resourceLimits } from 'node:worker_threads';
import { createInflateRaw } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import { InputError } from '../../base/errors.js';
import { OverlongXmlError } from './workbook-xlsx-rows.js';

/**
 * A workbook's zip container, read by entry name. A workbook's parts are not in reading order (LibreOffice writes
 * the sheet before its shared strings), so the zip is read by random access from its directory, never streamed
 * front to back: see docs/decisions/0019-workbook-reader.md.
 */
export interface WorkbookZip {
  has(name: string): boolean;
  /** The entry's bytes, inflated as they are read. */
  open(name: string): Promise<Readable>;
  /**
   * A small entry (workbook.xml, styles.xml) as text; past `bound` bytes, an OverlongXmlError naming the part (a
   * hostile or damaged entry inflates into gigabytes).
   */
  text(name: string, bound?: number): Promise<string>;
  close(): void;
}

/**
 * Inflated in 16 KB chunks on a thread whose young generation is held small, as the validation thread's
 * (src/bulk/validate-thread.ts, 4 MB): a chunk is memory outside the heap, freed only when the collector runs, and
 * with 64 KB chunks the few objects they come with leave up to ~60 MB of read chunks waiting for it (bench/README.md,
 * "Workbooks on a thread"). Any other thread, the main one or a test runner's, reads 64 KB.
 */
const smallHeapChunks = (resourceLimits.maxYoungGenerationSizeMb ?? Number.POSITIVE_INFINITY) <= 16;

/**
 * Opens the zip of a workbook file (stdin or a pipe is copied to a file first: a zip is read from its end); a damaged
 * zip is one line naming the file.
 */
export async function openWorkbookZip(path: string, file: string): Promise<WorkbookZip> {
  const { default: yauzl } = await import('yauzl');
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { autoClose: false, strictFileNames: false });
  } catch (error) {
    throw damaged(file, error);
  }
  const entries = new Map<string, Entry>();
  try {
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
  } catch (error) {
    zip.close();
    throw damaged(file, error);
  }
  const open = async (name: string): Promise<Readable> => {
    const entry = entries.get(name);
    if (!entry) throw damaged(file, new Error(`it has no ${name}`));
    try {
      // Inflated here, in chunks of 64 KB rather than zlib's 16 KB: a sheet of a million rows is 250 MB of XML,
      // and each chunk costs a turn of the event loop and a batch of rows (but see smallHeapChunks).
      if (entry.compressionMethod !== 8 || entry.isEncrypted()) return await zip.openReadStreamPromise(entry);
      const raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
      const inflate = createInflateRaw({ chunkSize: smallHeapChunks ? 16 * 1024 : 64 * 1024 });
      raw.on('error', (error) => inflate.destroy(error));
      inflate.on('close', () => raw.destroy());
      return raw.pipe(inflate);
    } catch (error) {
      throw damaged(file, error);
    }
  };
  return {
    has: (name) => entries.has(name),
    open,
    async text(name, bound = Number.POSITIVE_INFINITY) {
      const chunks: Buffer[] = [];
      let length = 0;
      const stream = await open(name);
      try {
        for await (const chunk of stream) {
          chunks.push(chunk as Buffer);
          length += (chunk as Buffer).length;
          if (length > bound) throw new OverlongXmlError({ part: name }, length);
        }
      } catch (error) {
        if (error instanceof OverlongXmlError) throw error;
        throw damaged(file, error);
      } finally {
        stream.destroy();
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    close: () => zip.close(),
  };
}

/** A workbook whose zip cannot be read: cut short by a copy, or not a workbook at all. */
export function damaged(file: string, error: unknown): InputError {
  if (error instanceof InputError) return error;
  // The zip reader's first sentence, as a clause: "end of central directory record signature not found".
  const message = error instanceof Error ? error.message : String(error);
  const sentence = (message.split(/\.\s/)[0] as string).replace(/\.$/, '');
  const reason = sentence.charAt(0).toLowerCase() + sentence.slice(1);
  return new InputError(
    `${file}: cannot read the workbook (${reason}); the file is damaged or cut short. Open it in the spreadsheet program and save it again.`,
    { file },
  );
}
