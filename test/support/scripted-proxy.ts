/**
 * A proxy in front of the sandbox that answers chosen requests itself: an error status, a connection reset
 * before the platform sees the request, or the platform's work done and its answer lost. The answers the
 * platform does not script for us (a 5xx on one route, a lost answer after a create) are made here, so the
 * command's handling of them can be tested in process against the real sandbox behind.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { freshConfigDir } from './cli.js';
import { runCommandLine } from './command-line.js';
import { resetCounts, sandboxPassword, sandboxUser } from './sandbox.js';

/** One request that reached the proxy. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  body: string;
}

/** What the proxy does with a request; undefined passes it to the platform and its answer back. */
export type ProxyAction =
  | { answer: number; body?: unknown; headers?: Record<string, string> }
  | { reset: 'before' }
  /** The platform applies the request; the connection is then reset, so the client never sees the answer. */
  | { reset: 'after' }
  /** The platform gets the request only once `hold` settles: still working on it when the client gives up. */
  | { hold: Promise<void> }
  /** The platform applies the request; its answer is replaced by this status with `body` (default: none). */
  | { appliedThenAnswer: number; body?: unknown }
  /** The platform applies the request (`applied` is told); its answer is passed back only once `answerHeld` settles. */
  | { answerHeld: Promise<void>; applied: () => void }
  | undefined;

export interface ScriptedProxy {
  url: string;
  /** Every request that reached the proxy, in order. */
  requests: ProxiedRequest[];
  /** Resolves once every request that reached the proxy so far has been handled (a held one passed on). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Forwarded both ways; the rest (host, length, connection) belongs to each hop. */
const forwardedRequestHeaders = ['authorization', 'content-type', 'accept', 'user-agent'];
const forwardedAnswerHeaders = ['content-type', 'retry-after', 'date'];

/** Starts a proxy to `target` on 127.0.0.1 and an ephemeral port; `decide` is asked about each request. */
export async function startScriptedProxy(
  target: string,
  decide: (request: ProxiedRequest) => ProxyAction,
): Promise<ScriptedProxy> {
  const requests: ProxiedRequest[] = [];
  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = {
      method: incoming.method ?? 'GET',
      url: incoming.url ?? '/',
      body: Buffer.concat(chunks).toString(),
    };
    requests.push(request);
    const action = decide(request);
    if (action && 'answer' in action) {
      outgoing.writeHead(action.answer, { 'content-type': 'application/json', ...action.headers });
      outgoing.end(action.body === undefined ? '' : JSON.stringify(action.body));
      return;
    }
    if (action && 'reset' in action && action.reset === 'before') {
      incoming.socket.resetAndDestroy();
      return;
    }
    if (action && 'hold' in action) await action.hold;
    const headers: Record<string, string> = {};
    for (const name of forwardedRequestHeaders) {
      const value = incoming.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(new URL(request.url, target), {
      method: request.method,
      headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    });
    const text = await answer.text();
    if (action && 'reset' in action && action.reset === 'after') {
      incoming.socket.resetAndDestroy();
      return;
    }
    if (action && 'appliedThenAnswer' in action) {
      if (action.body === undefined) outgoing.writeHead(action.appliedThenAnswer).end();
      else
        outgoing
          .writeHead(action.appliedThenAnswer, { 'content-type': 'application/json' })
          .end(JSON.stringify(action.body));
      return;
    }
    if (action && 'answerHeld' in action) {
      action.applied();
      await action.answerHeld;
    }
    const answerHeaders: Record<string, string> = {};
    for (const name of forwardedAnswerHeaders) {
      const value = answer.headers.get(name);
      if (value !== null) answerHeaders[name] = value;
    }
    outgoing.writeHead(answer.status, answerHeaders).end(text);
  };
  const handling = new Set<Promise<void>>();
  const server = createServer((incoming, outgoing) => {
    const handled = handle(incoming, outgoing).catch((error: unknown) => {
      // A client that gave up has closed the connection: nothing is left to answer.
      if (!outgoing.destroyed) outgoing.writeHead(599).end(String(error));
    });
    handling.add(handled);
    void handled.finally(() => handling.delete(handled));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    idle: async () => {
      await Promise.all(handling);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Call at the top of a test file: what starts a scripted proxy in front of `target` (startScriptedProxy), every one
 * it started closed after each test, as each file wrote for itself.
 */
export function useScriptedProxy(): (
  target: string,
  decide: Parameters<typeof startScriptedProxy>[1],
) => Promise<ScriptedProxy> {
  let open: ScriptedProxy[] = [];
  afterEach(async () => {
    await Promise.all(open.map((proxy) => proxy.close()));
    open = [];
  });
  return async (target, decide) => {
    const proxy = await startScriptedProxy(target, decide);
    open.push(proxy);
    return proxy;
  };
}

/** The route part of a proxied request's URL, without the query. */
export function pathOf(request: ProxiedRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

/** A fresh config folder logged in to SANDBOX through PROXY, the sandbox's request counts cleared after the log-in. */
export async function loggedInThroughProxy(sandbox: RunningSandbox, proxy: ScriptedProxy): Promise<string> {
  const proxied = freshConfigDir();
  const login = await runCommandLine(
    ['login', '--base-url', proxy.url, '--username', sandboxUser, '--password-stdin'],
    { configDir: proxied, stdin: `${sandboxPassword}\n` },
  );
  expect(login.code).toBe(0);
  await resetCounts(sandbox);
  return proxied;
}
