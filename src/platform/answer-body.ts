import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { headerText } from '../lib/http-text.js';

/**
 * An answer's body as the platform wrote it: its content codings undone, its text decoded in the charset its
 * Content-Type declares. Without an Accept-Encoding a server may use any coding (RFC 9110 §12.5.3), and a Java
 * platform may answer `charset=ISO-8859-1`: read as UTF-8 either turns into garbage that parses or passes as text.
 */

type Decompress = (bytes: Buffer) => Promise<Buffer>;

const gunzip: Decompress = promisify(zlib.gunzip);
const inflate: Decompress = promisify(zlib.inflate);
const inflateRaw: Decompress = promisify(zlib.inflateRaw);
const brotli: Decompress = promisify(zlib.brotliDecompress);
const zstd: Decompress = promisify(zlib.zstdDecompress);

/** `deflate` is the zlib format (RFC 9110 §8.4.1.2), but some servers send raw deflate: both are read, as browsers do. */
const deflate: Decompress = async (bytes) => {
  try {
    return await inflate(bytes);
  } catch {
    return inflateRaw(bytes);
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

/** The body's text, or why it cannot be read (a coding or charset b2bctl cannot decode), for an error naming it. */
export type AnswerBody = { text: string } | { unreadable: string };

/** The text of an answer's body, from its raw bytes and its headers. */
export async function answerBody(
  bytes: Buffer,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Promise<AnswerBody> {
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
      body = await decompress(body);
    } catch (error) {
      return {
        unreadable: `a body labelled Content-Encoding: ${codings.join(', ')} that does not decode as ${coding} (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return decodedText(body, charsetOf(headerText(headers['content-type'])));
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

/** Bytes as text in the declared charset (UTF-8 when none is), or why that charset cannot be read. */
function decodedText(bytes: Buffer, charset: string | undefined): AnswerBody {
  try {
    return { text: new TextDecoder(charset ?? 'utf-8').decode(bytes) };
  } catch {
    // Only the constructor throws (a non-fatal decoder replaces what it cannot read): a charset Node does not know.
    return { unreadable: `text in the charset "${charset}", which b2bctl cannot decode` };
  }
}
