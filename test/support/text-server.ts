import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** An HTTP server that hands each request's body, read whole as UTF-8 text, to `take` with the request. */
export function textServer(take: (text: string, request: IncomingMessage, response: ServerResponse) => void): Server {
  return createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => take(text, request, response));
  });
}
