import { InputError, UsageError } from '../../base/errors.js';
import type { TextEncoding } from './sniff.js';
import {
  brazilianEncodingOf,
  doubledUtf8Accent,
  implausibleCharacter,
  undoubledWord,
  useIconv,
  utf8Accent,
  utf8ReadAsLegacy,
  wordAround,
  wordBounds,
} from './brazilian-text.js';
import { nothingSent } from './nothing-sent.js';

/**
 * Decodes a byte stream as one encoding for the whole file (docs/input-files.md), streaming: a file is
 * valid UTF-8 throughout, or it is in a legacy encoding throughout. UTF-8 is decoded optimistically
 * and strictly; a byte that is not UTF-8 after accents that were UTF-8 is "mixed encodings", named by
 * its line, never a silent switch. A file that was plain ASCII up to that byte was never UTF-8 text:
 * it goes on as Windows-1252, which reads the ASCII before it identically. Bytes a legacy encoding
 * does not define, and text that no Brazilian office writes, stop the run instead of being sent.
 */
export async function* decodeText(
  bytes: AsyncIterable<Buffer | string>,
  encoding: TextEncoding,
  file: string,
  options: { sniffed?: boolean; sends?: boolean } = {},
): AsyncGenerator<string> {
  const lines = new LineCounter();
  const source = asBuffers(bytes);
  const reading = { file, lines, sniffed: options.sniffed === true, sends: options.sends };
  try {
    if (isUtf8(encoding)) {
      const rest = yield* decodeUtf8(source, reading);
      if (!rest) return;
      yield* decodeLegacy(rest.chunks, 'windows-1252', { ...reading, sniffed: true });
      return;
    }
    yield* decodeLegacy(source, encoding, reading);
  } finally {
    // decodeUtf8 pulls chunks by hand: a reader that stops early (RecordChecker's re-read) closes the file here.
    await source.return(undefined);
  }
}

function isUtf8(encoding: string): boolean {
  return /^utf-?8$/i.test(encoding);
}

async function* asBuffers(bytes: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  for await (const chunk of bytes) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/** The LFs of a chunk, found by indexOf: 4x faster than a loop over every byte on a million-line file. */
function lineFeeds(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) count++;
  return count;
}

/** Counts the line breaks (LF, CRLF, a lone CR of old Mac exports) of the text or bytes seen so far. */
class LineCounter {
  private breaks = 0;
  private pendingCarriageReturn = false;

  /** Counts the breaks in `units` (byte values or UTF-16 code units) up to `end`; returns the line `end` is on. */
  count(units: ArrayLike<number>, end = units.length): number {
    // A whole chunk of bytes without a CR (nearly every file): only its LFs to count.
    if (units instanceof Uint8Array && end === units.length && !this.pendingCarriageReturn && !units.includes(0x0d))
      return (this.breaks += lineFeeds(units)) + 1;
    for (let index = 0; index < end; index++) {
      const unit = units[index];
      if (unit === 0x0a) {
        if (!this.pendingCarriageReturn) this.breaks++;
        this.pendingCarriageReturn = false;
      } else {
        if (this.pendingCarriageReturn) this.pendingCarriageReturn = false;
        if (unit === 0x0d) {
          this.breaks++;
          this.pendingCarriageReturn = true;
        }
      }
    }
    return this.breaks + 1;
  }
}

function hexBytes(bytes: Uint8Array): string {
  return [...bytes].map((byte) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
}

/** What decoding a file shares: its name and line count, whether its encoding was sniffed, whether the command sends. */
interface Reading {
  file: string;
  lines: LineCounter;
  sniffed: boolean;
  sends: boolean | undefined;
}

async function* decodeUtf8(
  chunks: AsyncGenerator<Buffer>,
  reading: Reading,
): AsyncGenerator<string, { chunks: AsyncGenerator<Buffer> } | undefined> {
  const { file, lines, sniffed, sends } = reading;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let offset = 0;
  let previous: Buffer = Buffer.alloc(0);
  let nonAsciiSeen = false;
  /** The first line that held a UTF-8 accent, and the word: what makes a later non-UTF-8 byte "mixed". */
  let firstUtf8: { line: number; word: string } | undefined;
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value;
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      // The last bytes of the previous chunk may hold the start of the bad sequence.
      const window = Buffer.concat([previous.subarray(Math.max(0, previous.length - 3)), chunk]);
      const tail = window.length - chunk.length;
      const bad = Math.max(firstInvalidUtf8(window), tail);
      const beforeBad = chunk.subarray(0, bad - tail);
      const utf8Seen = nonAsciiSeen || beforeBad.some((byte) => byte >= 0x80);
      if (sniffed && !utf8Seen) {
        async function* fromHere(): AsyncGenerator<Buffer> {
          yield chunk;
          yield* chunks;
        }
        return { chunks: fromHere() };
      }
      if (utf8Seen && !firstUtf8) {
        // The accents are in this chunk, before the bad byte: said as the earlier ones would be.
        const before = new TextDecoder('utf-8').decode(beforeBad);
        const accent = Math.max(0, before.search(/[\u0080-\uffff]/));
        firstUtf8 = { line: lines.count([]) + lineFeedsBefore(before, accent), word: wordAround(before, accent) };
      }
      throw notUtf8(file, lines.count(beforeBad), window.subarray(bad, bad + 4), offset + bad - tail, firstUtf8, sends);
    }
    if (!nonAsciiSeen) {
      const accent = text.search(/[\u0080-\uffff]/);
      if (accent !== -1) {
        nonAsciiSeen = true;
        firstUtf8 = { line: lines.count([]) + lineFeedsBefore(text, accent), word: wordAround(text, accent) };
      }
    }
    const doubled = nonAsciiSeen ? doubledUtf8Accent(text) : -1;
    if (doubled !== -1) throw utf8Doubled(text, doubled, file, lines.count([]) + lineFeedsBefore(text, doubled), sends);
    lines.count(chunk);
    offset += chunk.length;
    previous = chunk;
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    const tail = previous.subarray(Math.max(0, previous.length - 3));
    const start = Math.max(
      0,
      tail.findLastIndex((byte) => byte >= 0xc0),
    );
    throw notUtf8(file, lines.count([]), tail.subarray(start), offset - tail.length + start, firstUtf8, sends);
  }
  return undefined;
}

/**
 * A byte that is not UTF-8. After UTF-8 accents (`utf8`), the file holds two encodings: no single encoding reads it
 * whole, so no `--encoding` is offered (Windows-1252 would garble the UTF-8 lines); only the fix of the file.
 */
function notUtf8(
  file: string,
  line: number,
  bytes: Uint8Array,
  at: number,
  utf8: { line: number; word: string } | undefined,
  sends: boolean | undefined,
): InputError {
  const where = `bytes ${hexBytes(bytes.subarray(0, Math.min(bytes.length, 4)))} after byte ${at}`;
  const earlier = utf8?.word ? `line ${utf8.line} holds UTF-8 ("${utf8.word}")` : 'the lines before it are UTF-8';
  const message = utf8
    ? `${file}:${line}: mixed encodings: line ${line} is not UTF-8 (${where}) but ${earlier}; no single encoding reads the file whole${nothingSent(sends, ', so nothing was sent')}. Re-export the whole file as "CSV UTF-8", or retype line ${line} in UTF-8.`
    : `${file}:${line}: not valid UTF-8 (${where}). If it was saved by Excel as plain "CSV", pass --encoding windows-1252, or re-export it as "CSV UTF-8".`;
  return new InputError(message, { file, line });
}

/**
 * UTF-8 text saved as UTF-8 a second time (read as Windows-1252 on the way): `ConceiÃ§Ã£o` would reach the platform as
 * the customer's name. Refused with the word as it first read, as the other garbled text is.
 */
function utf8Doubled(text: string, at: number, file: string, line: number, sends: boolean | undefined): InputError {
  const word = wordAround(text, at);
  const undone = undoubledWord(word);
  return new InputError(
    `${file}:${line}: "${word}" is UTF-8 text converted to UTF-8 a second time${undone === undefined ? '' : ` (it was "${undone}")`}${nothingSent(sends)}. Export the file from the ERP again as "CSV UTF-8", or convert it back once (iconv -f utf-8 -t windows-1252).`,
    { file, line },
  );
}

/** The line feeds of `text` before `end`. */
function lineFeedsBefore(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/** The index of the first byte that does not belong to a well-formed UTF-8 sequence; a sequence cut by the end is fine. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return index;
    for (let step = 1; step < length; step++) {
      if (index + step >= bytes.length) return bytes.length;
      const byte = bytes[index + step] as number;
      const [min, max] = step === 1 ? [low, high] : [0x80, 0xbf];
      if (byte < min || byte > max) return index;
    }
    index += length;
  }
  return bytes.length;
}

/** Characters a legacy decode yields from a misread CP850 or MacRoman export: never next to a letter in Brazilian text. */
const foreignCharacters = '‚ƒ„†‡ˆ‰Š‹ŒŽ˜š›œžŸ¢£¤¥¦¨¯±´µ¶·¸¹¼½¾¿ÆæÐðÞþ×÷';
const foreignNextToLetter = new RegExp(`\\p{L}[${foreignCharacters}]|[${foreignCharacters}]\\p{L}`, 'u');
async function* decodeLegacy(
  chunks: AsyncGenerator<Buffer>,
  encoding: string,
  reading: Reading,
): AsyncGenerator<string> {
  const { lines } = reading;
  const { default: iconv } = await import('iconv-lite');
  useIconv(iconv);
  if (!iconv.encodingExists(encoding))
    throw new UsageError(
      `--encoding ${encoding}: not an encoding b2bctl knows; use a name such as utf-8, windows-1252, cp850, macintosh or utf-16le.`,
    );
  const singleByte = !/^(utf|ucs|utf-?16|utf-?32|gb|big5|shift|euc|cp9[35]|iso-?2022)/i.test(encoding);
  const decoder = iconv.getDecoder(encoding);
  let first = true;
  for await (const raw of chunks) {
    let chunk = raw;
    // A BOM ahead of legacy text (the tool's own former advice, or a converter's) is no character of the file.
    if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf && singleByte) chunk = chunk.subarray(3);
    first = false;
    const text = decoder.write(chunk);
    if (singleByte) checkLegacyText(text, chunk, { ...reading, encoding });
    lines.count(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * A guessed legacy encoding whose reading holds a character no Brazilian office types there (`2§ andar`, `Ant“nio`)
 * while another Office encoding reads the same bytes as Brazilian text (`2º andar`, `Antônio`: a CP850 export whose
 * accents Windows-1252 also defines): the bytes are valid in both, so which one the file is cannot be told and is
 * not guessed. Refused naming both readings and the `--encoding` that settles it. A reading no other encoding
 * explains goes on as it reads (`Müller`).
 */
function refuseAmbiguousReading(text: string, chunk: Buffer, context: Reading & { encoding: string }): void {
  const at = implausibleCharacter(text);
  if (at === -1) return;
  const { encoding, file, lines } = context;
  const [start, end] = wordBounds(text, at);
  const guess = brazilianEncodingOf(chunk, [start, end], encoding);
  if (guess === undefined) return;
  const line = new LineCounter().count(chunk, at) + lines.count([]) - 1;
  // A no-break space (CP850's á) is written out: shown as itself, `Cl udio` reads as two words.
  const word = text.slice(start, end).replaceAll('\u00a0', '\\u00a0');
  throw new InputError(
    `${file}:${line}: "${word}" as ${encoding} is "${guess.text}" as ${guess.described}, and b2bctl cannot tell which encoding the file is${nothingSent(context.sends)}. Pass --encoding ${guess.label} if it reads "${guess.text}" (or --encoding ${encoding} if "${word}" is right), or re-export the file as "CSV UTF-8".`,
    { file, line },
  );
}

/** In a single-byte encoding, character i of the chunk's text is byte i of the chunk: problems are named by line and byte. */
function checkLegacyText(text: string, chunk: Buffer, context: Reading & { encoding: string }): void {
  const { encoding, file, lines } = context;
  const undefinedByte = text.indexOf('\uFFFD');
  // Checked under any single-byte encoding, the one given with --encoding too (the flag our own messages suggest,
  // kept in a cron line when the ERP's export changes): such text is never sent garbled. Text that really holds
  // these characters beside letters goes as UTF-8, where this check does not apply.
  const foreign = foreignNextToLetter.exec(text);
  const mojibake = utf8Accent(chunk);
  const at = Math.min(
    undefinedByte === -1 ? Infinity : undefinedByte,
    foreign ? foreign.index : Infinity,
    mojibake === -1 ? Infinity : mojibake,
  );
  if (at === Infinity) {
    if (context.sniffed) refuseAmbiguousReading(text, chunk, context);
    return;
  }
  const line = new LineCounter().count(chunk, at) + lines.count([]) - 1;
  if (mojibake === at) throw utf8ReadAsLegacy(text, chunk, at, { ...context, line });
  const [start, end] = wordBounds(text, at);
  const guess = brazilianEncodingOf(chunk, [start, end], encoding);
  const hint = guess
    ? `the file is probably ${guess.described}, where it reads "${guess.text}": pass --encoding ${guess.label}${context.sniffed ? '' : ` instead of ${encoding}`}, or re-export it as "CSV UTF-8".`
    : context.sniffed
      ? `no encoding Office writes (CP850, MacRoman) reads it as Brazilian text either: re-export the file as "CSV UTF-8", or pass its encoding with --encoding if you know it.`
      : `pass the file's encoding with --encoding (such as cp850 or macintosh), or re-export it as "CSV UTF-8".`;
  if (undefinedByte === at)
    throw new InputError(
      `${file}:${line}: byte ${hexBytes(chunk.subarray(at, at + 1))} is not a character in ${encoding}; ${hint}`,
      { file, line },
    );
  throw new InputError(
    `${file}:${line}: "${text.slice(start, end)}" is not Brazilian text when read as ${encoding}; ${hint}`,
    { file, line },
  );
}
