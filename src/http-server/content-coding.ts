import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import { errorCodes } from 'fastify';

/**
 * The content codings a request body may come in (RFC 9110 §8.4): many HTTP clients compress what they post. Each is
 * decoded as it streams in, and the body limit counts the decoded bytes: a small compressed body that grows to
 * gigabytes (a "zip bomb") is stopped at the limit, never held in memory.
 */
const decoders: Partial<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
  // In node:zlib on every supported Node line (22.15+, 24, 26). A zstd frame names the window its decoder must keep,
  // and the decoder allocates it before it writes a byte: RFC 9659 §3 caps that window at 8 MB for the content
  // coding (as browsers do), so a frame asking more (up to 2 GB) is refused instead of reserving it per request.
  zstd: () => createZstdDecompress({ params: { [constants.ZSTD_d_windowLogMax]: largestZstdWindowLog } }),
};

/** The codings decoded, as a 415's `Accept-Encoding` names them (RFC 9110 §15.5.16): `x-gzip` is gzip's old name. */
export const decodedCodings = Object.keys(decoders).filter((coding) => coding !== 'x-gzip');

/** 2^23 bytes, 8 MB: the largest window RFC 9659 lets a zstd content coding use. */
const largestZstdWindowLog = 23;

/** The codings of a Content-Encoding header, in the order they were applied; `identity` is no coding. */
function codingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function refusal(message: string, statusCode: number): Error {
  return Object.assign(new Error(message), { statusCode });
}

/**
 * The body of a request as its sender wrote it before compressing it: the request itself when it declares no coding,
 * else a stream of the decoded bytes that fails (413, fastify's own "too large" error) once they pass `limit`.
 * Throws a 415 for a coding it does not decode, naming it, as RFC 9110 §15.5.16 asks.
 */
export function decodedBody(request: IncomingMessage, limit: number): Readable {
  const codings = codingsOf(request.headers['content-encoding']);
  if (codings.length === 0) return request;
  const unknown = codings.find((coding) => decoders[coding] === undefined);
  if (unknown !== undefined) {
    throw refusal(
      `Content-Encoding ${unknown} is not accepted; send the body uncompressed, or ${decodedCodings.slice(0, -1).join(', ')} or ${decodedCodings.at(-1)}`,
      415,
    );
  }
  // Codings are undone last first.
  const stages = codings.toReversed().map((coding) => ({ coding, decoder: (decoders[coding] as () => Transform)() }));
  const counted = new DecodedLimit(limit);
  // What fastify compares with Content-Length: the bytes that came over the wire.
  request.on('data', (chunk: Buffer) => (counted.receivedEncodedLength += chunk.length));
  let source: Readable = request;
  for (const { coding, decoder } of stages) {
    // The request is only unpiped, never destroyed with the decoders: the refusal must still be answered on it.
    decoder.on('error', (error: Error) => stop(counted.destroyed ? undefined : codingError(coding, error)));
    source = source.pipe(decoder);
  }
  source.pipe(counted);
  counted.on('error', () => stop(undefined));
  function stop(error: Error | undefined): void {
    request.unpipe();
    for (const { decoder } of stages) decoder.destroy();
    if (error !== undefined) counted.destroy(error);
  }
  return counted;
}

function codingError(coding: string, error: Error): Error {
  if ((error as { code?: unknown }).code === 'ZSTD_error_frameParameter_windowTooLarge') {
    return refusal('The body is not valid zstd (its window is larger than 8 MB, the most RFC 9659 allows)', 400);
  }
  return refusal(`The body is not valid ${coding} (${error.message})`, 400);
}

/** Passes the decoded bytes on until they pass the limit, then fails as fastify does for a body too large. */
class DecodedLimit extends Transform {
  receivedEncodedLength = 0;
  private decodedLength = 0;

  private readonly limit: number;
  constructor(limit: number) {
    super();
    this.limit = limit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.decodedLength += chunk.length;
    if (this.decodedLength > this.limit) done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    else done(null, chunk);
  }
}
