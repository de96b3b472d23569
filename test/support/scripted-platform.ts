/**
 * A real HTTP server standing for a platform whose answers a test scripts route by route: for the answers the
 * platform document does not show (a redirect, a portal's page, a Latin-1 or gzip body). Started once per file,
 * its routes and the requests it received cleared after each test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

export type RouteHandler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

export interface ScriptedPlatform {
  /** The base URL, once the file's server listens. */
  readonly url: string;
  /** Handlers by `METHOD /path` (no query); a key ending in `*` matches any path it starts (`PUT /v1/customer/*`). */
  readonly routes: Record<string, RouteHandler>;
  /** The requests received, as `METHOD /path`, in order. */
  readonly received: string[];
  /** The Accept-Encoding of each request received, in order. */
  readonly acceptEncodings: (string | undefined)[];
}

/** The file's scripted platform: a route without a handler answers 404. */
export function useScriptedPlatform(): ScriptedPlatform {
  let server: Server | undefined;
  let url = '';
  const routes: Record<string, RouteHandler> = {};
  const received: string[] = [];
  const acceptEncodings: (string | undefined)[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const key = `${request.method} ${(request.url ?? '').split('?')[0]}`;
        received.push(key);
        acceptEncodings.push(request.headers['accept-encoding']);
        const handler = routes[key] ?? Object.entries(routes).find(([pattern]) => matches(pattern, key))?.[1];
        if (handler) handler(request, Buffer.concat(chunks).toString('utf8'), response);
        else response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  afterEach(() => {
    for (const key of Object.keys(routes)) delete routes[key];
    received.length = 0;
    acceptEncodings.length = 0;
  });
  return {
    get url() {
      return url;
    },
    routes,
    received,
    acceptEncodings,
  };
}

function matches(pattern: string, key: string): boolean {
  return pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1));
}

/**
 * A route answering STATUS with TEXT as JSON (written as it is, so a test can send what is no JSON at all), or with
 * no body and no content type when TEXT is undefined.
 */
export function answerJsonText(status: number, text?: string): RouteHandler {
  return (_request, _body, response) => {
    response.writeHead(status, text === undefined ? {} : { 'content-type': 'application/json' }).end(text ?? '');
  };
}

/** Answers RESPONSE with STATUS and BODY as JSON. */
export function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
