import type { Readable } from 'node:stream';
import { InputError, InterruptedError, UsageError } from '../../base/errors.js';
import { binaryKind, markupKind } from './binary-kinds.js';
import { type InputBytes, inputName, openBytes, peekBytes, unreadable as unreadableInput } from './byte-source.js';
import { openCsv } from './csv-input.js';
import { decodeText } from './decode-text.js';
import { jsonRecords } from './json-input.js';
import { readJsonValues, readNdjsonValues } from './json-values.js';
import { type InputOptions, noRecords, type OpenedInput, type ReadInput, withBatchesOfOne } from './opened-input.js';
import {
  byteOrderMark,
  delimiterLine,
  formatFromContent,
  formatFromExtension,
  looksBinary,
  nulInText,
  sniffDecimal,
  sniffDelimiter,
  sniffEncoding,
  type TextEncoding,
} from './sniff.js';

/*
 * The door b2bctl reads a text input through: what the file is (empty, binary, markup, JSON under a CSV name), in
 * which encoding, and which reader takes it (csv-input.ts, json-input.ts). What a reader hands out is opened-input.ts.
 */

export { parseHeaderMap } from './header-map-file.js';
export {
  batchesOfOne,
  type InputOptions,
  type InputRecord,
  type OpenedInput,
  recordPlace,
  skippedNote,
  type WrittenCells,
} from './opened-input.js';

const sniffBytes = 64 * 1024;

/** Past this, a table sized from an estimate would hold more than it could save (and an odd head misleads). */
const maxEstimatedLines = 2 ** 21;

/** The lines of a file of `size` bytes, extrapolated from those of its first bytes; undefined without a size. */
function estimatedLines(size: number | undefined, head: Buffer): number | undefined {
  if (size === undefined) return undefined;
  let lines = 0;
  for (let at = head.indexOf(10); at !== -1; at = head.indexOf(10, at + 1)) lines++;
  return Math.min(maxEstimatedLines, Math.round((lines * size) / Math.max(1, head.length)));
}

/**
 * Opens a CSV, JSON (array or one object) or NDJSON input, from a file or `-` for stdin, and streams
 * its records (docs/input-files.md). Format, encoding and delimiter are sniffed unless given.
 */
export async function openInput(options: InputOptions): Promise<OpenedInput> {
  const bytes = await openBytes(options.path, options.stdin, {
    interrupt: options.interrupt,
    pipeWait: options.pipeWait,
    name: options.displayName ?? inputName(options.path),
    unchanged: options.unchanged,
  });
  // The file is let go of on every way out: a refused input (binary, markup, a bad header) as well as a caller's close().
  const close = () => void bytes.stream.destroy();
  try {
    return { ...(await readInput(options, bytes)), close };
  } catch (error) {
    close();
    throw error;
  }
}

async function readInput(options: InputOptions, bytes: InputBytes): Promise<ReadInput> {
  const file = options.displayName ?? inputName(options.path);
  // A file that opens but cannot be read (a failing disk, /proc, a revoked network share) fails here, at its first bytes.
  const peeked = await peekBytes(bytes.stream, sniffBytes).catch((error: unknown) => {
    throw error instanceof InterruptedError ? error : unreadableInput(options.path, error);
  });
  const head = peeked.head;
  // An empty export means nothing to do tonight, as a header-only file does: the command says so and exits 0.
  if (head.length === 0)
    return withBatchesOfOne({
      file,
      format: (options.path === '-' ? undefined : formatFromExtension(options.path)) ?? 'csv',
      encoding: options.encoding ?? 'utf-8',
      records: noRecords(),
      skipped: { blankRows: 0 },
    });
  const bom = byteOrderMark(head);
  // "Unicode text" is UTF-16 with a BOM (or named by --encoding): its NUL bytes are no sign of a binary file.
  const utf16 = bom?.encoding.startsWith('utf-16') || /^utf-?16/i.test(options.encoding ?? '');
  if (options.sheet !== undefined)
    throw new UsageError(`--sheet ${options.sheet}: ${file} is text, not a workbook (.xlsx, .ods); drop --sheet.`);
  const kind = utf16 ? undefined : binaryKind(head);
  if (kind) throw new InputError(`${file}: ${kind}`, { file });
  if (!utf16 && looksBinary(head)) {
    const nul = nulInText(head);
    if (nul)
      throw new InputError(
        `${file}:${nul.line}: a NUL byte (0x00, byte ${nul.byte} of the file), which no text holds; the rest reads as text, so the export is probably damaged there. Delete it (or export the data again) and run again.`,
        { file, line: nul.line },
      );
    throw new InputError(`${file}: looks like a binary file, not CSV or JSON text. Export the data as CSV or JSON.`, {
      file,
    });
  }

  const sniffed = options.encoding === undefined;
  const encoding = options.encoding ?? (bom?.encoding.startsWith('utf-16') ? bom.encoding : sniffEncoding(head));
  const headText = await decodeHead(head, encoding);
  const markup = markupKind(headText);
  if (markup) throw new InputError(`${file}: ${markup}`, { file });
  const format = (options.path === '-' ? undefined : formatFromExtension(options.path)) ?? formatFromContent(headText);
  // A JSON export saved under a .csv name reads as one absurd column: say what the file is instead.
  if (
    format === 'csv' &&
    formatFromContent(headText) !== 'csv' &&
    /^\s*(?:\[\s*)?\{\s*"/.test(headText.replace(/^\uFEFF/, ''))
  )
    throw new InputError(
      `${file}: holds JSON (it starts with "${headText
        .replace(/^\uFEFF/, '')
        .trimStart()
        .slice(
          0,
          1,
        )}"), not CSV, though its name says CSV. Rename it to .${formatFromContent(headText) === 'ndjson' ? 'ndjson' : 'json'}, or pipe it on stdin (-), where the format is read from the content.`,
      { file },
    );
  const text = decodeText(peeked.stream as Readable, encoding, file, { sniffed, sends: options.sends });

  if (format === 'csv') {
    const declared = delimiterLine(headText);
    const delimiter = options.delimiter ?? declared ?? sniffDelimiter(headText);
    const sniffedDecimal = options.decimal === undefined ? sniffDecimal(headText, delimiter) : undefined;
    const decimal = options.decimal ?? sniffedDecimal?.decimal ?? '.';
    const opened = await openCsv(file, text, {
      ...options,
      delimiter,
      decimal,
      encoding,
      hasDelimiterLine: declared !== undefined,
      delimiterGiven: options.delimiter !== undefined,
      decimalSettled: options.decimal !== undefined || sniffedDecimal?.settled === true,
    });
    return { ...opened, estimatedRecords: estimatedLines(bytes.size, head) };
  }
  const values = format === 'json' ? readJsonValues(text, file) : readNdjsonValues(text, file);
  return withBatchesOfOne({ file, format, encoding, records: jsonRecords(values, options), skipped: { blankRows: 0 } });
}

/** The first bytes as text, for sniffing format and delimiter only: a cut character or bad byte does not matter here. */
async function decodeHead(head: Buffer, encoding: TextEncoding): Promise<string> {
  if (/^utf-?8$/i.test(encoding)) return new TextDecoder('utf-8').decode(head);
  const { default: iconv } = await import('iconv-lite');
  if (!iconv.encodingExists(encoding))
    throw new UsageError(
      `--encoding ${encoding}: not an encoding b2bctl knows; use a name such as utf-8, windows-1252, cp850, macintosh or utf-16le.`,
    );
  return iconv.decode(head, encoding);
}
