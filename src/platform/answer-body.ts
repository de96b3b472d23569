import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { headerText } from '../lib/http-text.js';

/**
 * An answer's body as the platform wrote it: its content codings undone, its text decoded in the charset its
 * Content-Type declares. Without an Accept-Encoding a server may use any coding (RFC 9110 §12.5.3), and a Java
 * platform may answer `charset=ISO-8859-1`: read as UTF-8 either turns into garbage that parses or passes as text.
 */

/**
 * The largest body b2bctl reads, as sent and once decoded: 256 MiB, some hundred times a page of a thousand orders.
 * Without it a gateway's endless stream, or a few MB of gzip that decode to gigabytes, take all of memory before
 * any message can be written; V8 cannot make a string of more than 512 Mi characters anyway.
 */
export const largestAnswerBytes = 256 * 1024 * 1024;

type Decompress = (bytes: Buffer, largest: number) => Promise<Buffer>;
type ZlibCall<Options> = (bytes: Buffer, options: Options, done: (error: Error | null, result: Buffer) => void) => void;

/** A node:zlib decoder that refuses to write more than the largest answer (`maxOutputLength`, ERR_BUFFER_TOO_LARGE). */
function bounded<Options extends zlib.ZlibOptions | zlib.BrotliOptions | zlib.ZstdOptions>(
  call: ZlibCall<Options>,
): Decompress {
  const decode = promisify(call);
  return (bytes, largest) => decode(bytes, { maxOutputLength: largest } as Options);
}

const gunzip = bounded<zlib.ZlibOptions>(zlib.gunzip);
const inflate = bounded<zlib.ZlibOptions>(zlib.inflate);
const inflateRaw = bounded<zlib.ZlibOptions>(zlib.inflateRaw);
const brotli = bounded<zlib.BrotliOptions>(zlib.brotliDecompress);
const zstd = bounded<zlib.ZstdOptions>(zlib.zstdDecompress);

/** `deflate` is the zlib format (RFC 9110 §8.4.1.2), but some servers send raw deflate: both are read, as browsers do. */
const deflate: Decompress = async (bytes, largest) => {
  try {
    return await inflate(bytes, largest);
  } catch (error) {
    if (isTooLarge(error)) throw error;
    return inflateRaw(bytes, largest);
  }
};

/** The content codings b2bctl undoes, by name (zstd is in node:zlib on every supported Node line: 22.15+, 24, 26). */
const decompressors: ReadonlyMap<string, Decompress> = new Map([
  ['gzip', gunzip],
  ['x-gzip', gunzip],
  ['deflate', deflate],
  ['br', brotli],
  ['zstd', zstd],
]);

/** The Accept-Encoding b2bctl sends: exactly the codings it decodes (a listing of orders compresses well). */
export const acceptedEncodings = 'gzip, deflate, br, zstd';

/**
 * The body's text, or why it cannot be read, for an error naming it: a coding or charset b2bctl cannot decode, or
 * (`tooLarge`) more than the largest answer b2bctl reads.
 */
export type AnswerBody = { text: string } | UnreadableBody;
export type UnreadableBody = { unreadable: string; tooLarge?: boolean; notUtf8?: boolean };

/**
 * How an answer is read: the largest body, and the charset of a text that is not UTF-8 though it declares none or
 * UTF-8 (`answers.charset`).
 */
export interface AnswerReading {
  largest?: number;
  undeclaredCharset?: string;
  /**
   * A redirect or an error answer (3xx, 4xx, 5xx): its status decides what happened, so text that declares no
   * charset and is not UTF-8 is read with U+FFFD where it cannot be, rather than turning a redirect, a refusal or a
   * 502 into an unreadable answer. Only a 2xx's content is what b2bctl hands on.
   */
  statusDecides?: boolean;
}

/** An answer's body cut off at the largest answer b2bctl reads, said in the words of an unreadable body. */
export function tooLargeAnswer(largest = largestAnswerBytes): UnreadableBody {
  return { unreadable: `a body of more than ${sizeText(largest)}`, tooLarge: true };
}

function isTooLarge(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_BUFFER_TOO_LARGE';
}

/** 256 MiB; a limit below a MiB (tests') in bytes. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))} MiB` : `${bytes} bytes`;
}

/** The text of an answer's body, from its raw bytes and its headers. */
export async function answerBody(
  bytes: Buffer,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  reading: AnswerReading = {},
): Promise<AnswerBody> {
  const largest = reading.largest ?? largestAnswerBytes;
  let body = bytes;
  // Codings are listed in the order they were applied: undone from the last.
  const codings = codingsOf(headers['content-encoding']);
  for (const coding of codings.toReversed()) {
    if (body.length === 0) break;
    const decompress = decompressors.get(coding);
    if (decompress === undefined)
      return {
        unreadable: `a body in the content coding "${coding}", which b2bctl cannot decode (it decodes ${[...decompressors.keys()].filter((name) => name !== 'x-gzip').join(', ')})`,
      };
    try {
      body = await decompress(body, largest);
    } catch (error) {
      if (isTooLarge(error))
        return {
          unreadable: `a body that decodes (${coding}) to more than ${sizeText(largest)}`,
          tooLarge: true,
        };
      return {
        unreadable: `a body labelled Content-Encoding: ${codings.join(', ')} that does not decode as ${coding} (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  const declared = charsetOf(headerText(headers['content-type']));
  if (declared === undefined) return utf8Text(body, reading, 'text that is not UTF-8 and declares no charset');
  // A label of UTF-8 (`utf-8`, `utf8`, `unicode-1-1-utf-8`) is held to it, as an answer that declares none is.
  if (encodingOf(declared) === 'utf-8')
    return utf8Text(body, reading, `text labelled charset=${declared} whose bytes are not UTF-8`);
  return decodedText(body, declared);
}

/** The encoding a charset label names, in the WHATWG name TextDecoder gives it; undefined for a label Node does not know. */
function encodingOf(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** The codings a Content-Encoding header names, lower case, `identity` (no coding) left out. */
function codingsOf(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The charset parameter of a Content-Type, unquoted; undefined without one. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(contentType ?? '');
  const charset = (match?.[1] ?? match?.[2])?.trim();
  return charset === '' ? undefined : charset;
}

/**
 * Bytes of an answer that declares no charset, or declares UTF-8, as text: UTF-8, as JSON is (RFC 8259), and
 * `answers.charset` for bytes that are not UTF-8. Text in UTF-8 is read as UTF-8 even with the setting (a platform
 * that writes both, or one fixed since: `Comércio` read as Windows-1252 is `ComÃ©rcio`); accented Windows-1252 text
 * is almost never valid UTF-8. Without the setting, bytes that are not UTF-8 are refused (`unreadable` says why)
 * rather than read with U+FFFD in place of each accent: `S\uFFFDo Jo\uFFFDo` would be handed on as the customer's
 * name, exit 0. A label of UTF-8 costs the platform that means it nothing: its bytes decode the same.
 */
function utf8Text(bytes: Buffer, reading: AnswerReading, unreadable: string): AnswerBody {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    if (reading.undeclaredCharset !== undefined) return decodedText(bytes, reading.undeclaredCharset);
    if (reading.statusDecides === true) return { text: new TextDecoder('utf-8').decode(bytes) };
    return { unreadable, notUtf8: true };
  }
}

/** Bytes as text in a charset (declared, or `answers.charset`), or why that charset cannot be read. */
function decodedText(bytes: Buffer, charset: string): AnswerBody {
  try {
    return { text: new TextDecoder(charset).decode(bytes) };
  } catch {
    // Only the constructor throws (a non-fatal decoder replaces what it cannot read): a charset Node does not know.
    return { unreadable: `text in the charset "${charset}", which b2bctl cannot decode` };
  }
}
