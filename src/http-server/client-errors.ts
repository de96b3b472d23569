import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * What a server answers of a request node refuses before any route sees it (headers past 16 KB, a request not all in
 * within its time, bytes that are not HTTP, an `Expect` other than 100-continue): node's and fastify's own answers
 * came in fastify's shape (`{"error":"Request Header Fields Too Large","message":…,"statusCode":431}`) or with an
 * empty body, where each server promises one shape for every refusal. `code` is in kebab case (`headers-too-large`);
 * each server's shape writes it its own way.
 */
export interface EarlyRefusal {
  status: number;
  code: string;
  message: string;
}

/** A server's refusal shape: `tax serve`'s `{error, message}`, the receiver's `{error, error_description}`. */
export type RefusalShape = (refusal: EarlyRefusal) => Record<string, string>;

const headersTooLarge: EarlyRefusal = {
  status: 431,
  code: 'headers-too-large',
  message: 'The request headers are larger than this server reads',
};
const timedOut: EarlyRefusal = {
  status: 408,
  code: 'request-timeout',
  message: 'The request did not all arrive in time',
};
const notHttp: EarlyRefusal = { status: 400, code: 'bad-request', message: 'The request is not valid HTTP' };
// The header's value is never quoted back (decision 0037: a refused header is never quoted).
const unmetExpectation: EarlyRefusal = {
  status: 417,
  code: 'expectation-failed',
  message: 'Only Expect: 100-continue is supported; send the request without another Expect header',
};

/**
 * Fastify's `clientErrorHandler`: the refusal of a request node could not read, in the server's shape, then the
 * connection closed (as fastify's own handler does: what follows on it cannot be read either).
 */
export function clientErrorAnswer(shape: RefusalShape): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    // A connection reset: nothing to answer, nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? timedOut
          : notHttp;
    if (socket.writable) {
      const body = JSON.stringify(shape(refusal));
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/** Answers a request whose `Expect` is not 100-continue 417 in the server's shape (node's own 417 has no body). */
export function answerUnmetExpectations(server: Server, shape: RefusalShape): void {
  server.on('checkExpectation', (_request, response) => {
    const body = JSON.stringify(shape(unmetExpectation));
    response.writeHead(unmetExpectation.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
}
