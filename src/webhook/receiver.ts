import { isUtf8 } from 'node:buffer';
import { UnavailableError } from '../base/errors.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  deduplicationKey,
  formerDeduplicationKey,
  payloadMismatches,
  type WebhookKind,
} from '../domain/webhook-events.js';
import { baseUrlOf, listeningPort, type RunningServer } from '../http-server/serve.js';
import { answerUnmetExpectations, clientErrorAnswer, type RefusalShape } from '../http-server/client-errors.js';
import { defaultConnectionsPerAddress, limitConnections } from '../http-server/connection-limit.js';
import { trustedPeerCheck } from '../http-server/client-address.js';
import { serverTimeouts } from '../http-server/server-timeouts.js';
import { decodedBody } from '../http-server/content-coding.js';
import { jsonShapeProblem, type JsonShapeLimits } from '../lib/json-shape.js';
import { listenOn } from '../http-server/listen.js';
import { forwardedAware } from '../http-server/forwarded.js';
import { fastifyTrustProxy, type ProxyHeader, type TrustedProxies } from '../http-server/trust-proxy.js';
import { backlogHealth, type LiveHealth } from './backlog.js';
import { healthPage } from './health-page.js';
import type { EventStore, StoredEvent, StoreTiming } from './store/types.js';
import {
  answerTokenRequest,
  defaultTokenFailureLimit,
  tokenRequestLimit,
  tooLargeDescription,
} from '../http-server/token-endpoint.js';
import { FailureLimiter, type FailureLimitOptions, FailureLog } from '../http-server/failure-limit.js';
import { linesPerWindow, ThrottledLog } from '../http-server/throttled-log.js';
import { tokenSigningKey } from './token-keys.js';
import { TokenIssuer, tokenDigest } from '../http-server/tokens.js';

export interface ReceiverPaths {
  token: string;
  customers: string;
  orders: string;
}

export const defaultReceiverPaths: ReceiverPaths = {
  token: '/oauth/token',
  customers: '/webhooks/customers',
  orders: '/webhooks/orders',
};

export interface ReceiverOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  store: EventStore;
  paths: ReceiverPaths;
  /** Largest event body accepted (413 above). */
  bodyLimitBytes: number;
  /** Time a client has to send a whole request before it is answered 408 and its connection closed. */
  requestTimeoutMs: number;
  /** Connections open at once; one more is closed as it is accepted (default 1024). */
  maxConnections?: number;
  /** Connections open at once from one client address, a trusted proxy aside (default 64). */
  maxConnectionsPerAddress?: number;
  /** /healthz says degraded (`delivery stuck`) when a hand-off has been on one event longer than this. */
  stuckAfterMs: number;
  /** The hand-offs this process runs, for /healthz (set once they start). */
  handOffStates?: () => LiveHealth['handOffs'];
  tls?: { cert: Buffer; key: Buffer };
  /** Reverse proxies trusted to name the client; without it, request.ip is the direct peer. */
  trustProxy?: TrustedProxies;
  /** The header those proxies name the client in (X-Forwarded-For when not given). */
  proxyHeader?: ProxyHeader;
  /** Wrong credentials allowed per client address before 429 (default: 10 a minute). */
  tokenFailureLimit?: FailureLimitOptions;
  now?: () => number;
  /** Called once per stored event, after its commit and before the 2xx is sent. */
  onStored?: (event: ReceivedEvent) => void;
  /** Called for a redelivery that was answered 2xx without storing it again. */
  onDuplicate?: (kind: WebhookKind, key: string) => void;
  /** Called for an event refused before it was stored (400, 401, 413, 415), after the log line (if any) for it. */
  onRefused?: (kind: WebhookKind, status: number) => void;
  log?: (message: string) => void;
}

/**
 * Whether the store took the last write: /healthz is degraded from a failed one until one succeeds, its own probe
 * write included (see probeStoreWrites).
 */
interface WriteHealth {
  failingSince?: number;
  /** When /healthz last wrote to find out whether the store writes again, and that write while it runs. */
  probedAt?: number;
  probing?: Promise<void>;
  /** Failed writes so far: a probe that went through clears the flag only if no other write failed meanwhile. */
  failures?: number;
  /** When a failure to write was last logged, and how many were not since: one line a minute, not one an event. */
  loggedAt?: number;
  unlogged?: number;
  /**
   * The smallest write refused since the store began failing, in bytes: on a nearly full disk a token's digest (or
   * the probe's) still fits while no event does, so only a write at least this large shows the store takes events
   * again (a user test: "ok" and "The store writes again" while every event was refused 503).
   */
  refusedBytes?: number;
}

/**
 * A write of `bytes` went through: a run of failures is over, and the next one is logged at once; unless it was
 * smaller than a write refused meanwhile, which shows nothing of whether an event fits.
 */
function writeSucceeded(writes: WriteHealth, log: ((line: string) => void) | undefined, bytes: number): void {
  if (writes.failingSince === undefined || bytes < (writes.refusedBytes ?? 0)) return;
  if (writes.unlogged) log?.(`The store writes again (${writes.unlogged} more failures were not logged one by one).`);
  writes.failingSince = undefined;
  writes.loggedAt = undefined;
  writes.unlogged = 0;
  writes.refusedBytes = undefined;
}

/**
 * A write that failed: the store is failing from now (for /healthz), and it is logged at most once a minute (a full
 * disk fails every request), with how many failures were not said.
 */
function writeFailed(
  writes: WriteHealth,
  now: number,
  log: ((line: string) => void) | undefined,
  failure: { line: string; bytes: number },
): void {
  const { line, bytes } = failure;
  writes.failingSince ??= now;
  writes.refusedBytes = Math.min(writes.refusedBytes ?? bytes, bytes);
  writes.failures = (writes.failures ?? 0) + 1;
  if (writes.loggedAt !== undefined && now - writes.loggedAt < 60_000) {
    writes.unlogged = (writes.unlogged ?? 0) + 1;
    return;
  }
  const more = writes.unlogged ? ` (and ${writes.unlogged} more failures since the last such line)` : '';
  writes.loggedAt = now;
  writes.unlogged = 0;
  log?.(`${line}${more}`);
}

/**
 * The least time between two probe writes of /healthz while the store is failing: a balancer polling every second
 * costs a write every few seconds, not one a poll, and a store back from a stall is seen within this time.
 */
const storeProbeIntervalMs = 5_000;

/**
 * While the store is failing, /healthz finds out by itself whether it writes again: a balancer that took the receiver
 * out on its 503 sends it no event, so no event's write would ever clear the flag, and the receiver stayed out for
 * good after a stall or a full disk (a user test). The probe keeps the digest of a token nobody holds, already expired: the
 * same write an issued token makes, to the same table, swept with the expired tokens. It is as large as the smallest
 * write refused (random, so no store compresses it): a probe smaller than an event showed nothing of whether one
 * fits on a nearly full disk (a user test). One at a time (concurrent polls share it), at most one per
 * storeProbeIntervalMs; a failure leaves the flag as it is and is logged as the others.
 */
function probeStoreWrites(writes: WriteHealth, options: ReceiverOptions, tokenLifetimeMs: number, now: number) {
  if (writes.failingSince === undefined) return Promise.resolve();
  if (writes.probing !== undefined) return writes.probing;
  if (writes.probedAt !== undefined && now - writes.probedAt < storeProbeIntervalMs) return Promise.resolve();
  writes.probedAt = now;
  const failuresBefore = writes.failures;
  const digest = probeDigest(writes.refusedBytes ?? 0);
  const probe = options.store.shareToken(digest, now, tokenLifetimeMs).then(
    () => {
      if (writes.failures === failuresBefore) writeSucceeded(writes, options.log, digest.length);
    },
    (error: unknown) => {
      writeFailed(writes, now, options.log, {
        line: `/healthz could not write to ${options.store.description} either: ${sentenceOf(error)}; it tries again at its next check.`,
        bytes: digest.length,
      });
      // A store that does not answer: the backlog's figures would wait as long, so /healthz says so at once.
      if (error instanceof UnavailableError) throw error;
    },
  );
  writes.probing = probe.finally(() => (writes.probing = undefined));
  return writes.probing;
}

/** A digest no token has, of `bytes` characters at least: random hex, which no store's compression shrinks. */
function probeDigest(bytes: number): string {
  const digest = tokenDigest(randomUUID());
  return bytes <= digest.length ? digest : randomBytes(Math.ceil(bytes / 2)).toString('hex');
}

/** Events refused: each logged, up to `refusalLinesPerMinute` a minute; the rest counted into the next line. */
interface RefusalLines {
  windowStart?: number;
  logged: number;
  unlogged: number;
}

/** A platform sending every event in a wrong way is seen at once, without a line per event of a flood. */
const refusalLinesPerMinute = 10;

/**
 * An event refused before it was stored, said in one line: its status, what the sender was told, who sent it and
 * what it sent (a platform set to send Latin-1 or text/plain has every event refused, and this is where it shows).
 */
function eventRefused(
  lines: RefusalLines,
  options: ReceiverOptions,
  refusal: { kind: WebhookKind; status: number; reason: string; request: FastifyRequest },
): void {
  const now = (options.now ?? Date.now)();
  if (lines.windowStart === undefined || now - lines.windowStart >= 60_000) {
    lines.windowStart = now;
    lines.logged = 0;
  }
  if (lines.logged >= refusalLinesPerMinute) lines.unlogged++;
  else {
    lines.logged++;
    const { headers, ip } = refusal.request;
    const length = headers['content-length'] === undefined ? 'no length' : `${headers['content-length']} bytes`;
    // JSON.parse quotes the text around a fault, line breaks and all: written as \n, the line stays one line.
    const reason = refusal.reason.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
    const type = headers['content-type']?.slice(0, 100) ?? 'none';
    const more = lines.unlogged ? ` (and ${lines.unlogged} more refused since the last such line)` : '';
    lines.unlogged = 0;
    options.log?.(
      `Refused ${refusal.kind === 'orders' ? 'an' : 'a'} ${refusal.kind} event from ${ip} (content-type ${type}, ${length}), not stored: answered HTTP ${refusal.status} "${reason}".${more}`,
    );
  }
  options.onRefused?.(refusal.kind, refusal.status);
}

/** Why an event's token was refused, as its 401 says it and as the log line adds what to look at. */
type TokenRefusal = 'missing' | 'expired' | 'unknown';

const tokenRefusalWords: Record<TokenRefusal, { answer: string; hint: string }> = {
  missing: { answer: 'Bearer token missing', hint: "the platform sent no token: check its webhook's token settings" },
  expired: { answer: 'Token expired', hint: 'the platform should ask a new one' },
  unknown: {
    answer: 'Token unknown',
    hint: "a token this receiver did not issue: another receiver's, or one from before the client secret changed",
  },
};

/**
 * The log of events refused 401 (a user test: a platform posting with no token, or another receiver's, had every
 * event refused with no line and no count anywhere): the first refusal of each client address in a minute gets its
 * line, ten lines at most, the rest counted by address into the minute's last line, as the token endpoint's guesses
 * are (throttled-log.ts). The token is never quoted, nor any header: the address and the route say whose it is.
 */
function unauthorizedEventLog(options: ReceiverOptions): Record<TokenRefusal, ThrottledLog> {
  // One log per reason: a platform with no token and another with a stale one behind the same address are two news.
  const logOf = (verdict: TokenRefusal) =>
    new ThrottledLog({
      log: options.log,
      windowMs: 60_000,
      now: options.now,
      summary: ({ count, from, seconds }) =>
        `Events refused 401 "${tokenRefusalWords[verdict].answer}": ${count} more in the last ${seconds} s, not logged one by one (at most ${linesPerWindow} such lines in ${seconds} s): ${from}.`,
    });
  return { missing: logOf('missing'), expired: logOf('expired'), unknown: logOf('unknown') };
}

/** An event refused 401: its line (throttled), and its count in the minute's summary. */
function eventUnauthorized(
  lines: Record<TokenRefusal, ThrottledLog>,
  options: ReceiverOptions,
  refusal: { kind: WebhookKind; verdict: TokenRefusal; ip: string },
): void {
  const { kind, verdict, ip } = refusal;
  const words = tokenRefusalWords[verdict];
  lines[verdict].event(
    ip,
    () =>
      `Refused ${kind === 'orders' ? 'an' : 'a'} ${kind} event from ${ip}, not stored: answered HTTP 401 "${words.answer}" (${words.hint}).`,
  );
  options.onRefused?.(kind, 401);
}

/** What a sender of another media type is told: what to send (an empty body is answered so too). */
const sendJson = 'Send the event as application/json';
const emptyBody = "The body is empty; send the event's JSON";

/** An event as received: what the store keeps, with the event parsed. */
export type ReceivedEvent = Omit<StoredEvent, 'id'>;

export interface RunningReceiver extends RunningServer {
  tokens: TokenIssuer;
  /** Ends every connection still open, requests in flight too: for a stop that has waited long enough. */
  dropConnections(): void;
}

/**
 * The largest event shape taken: B2B orders of thousands of lines pass, a hostile nesting does not. The keys follow
 * the body limit, one for every 8 bytes (131,072 for the default 1 MB), never fewer than 50,000: a fixed 50,000
 * refused the full-payload event of an order of 2,500 lines with its taxes (907 KB, about 14 bytes a key) that the
 * tax callback had taken and the body limit let through, and no flag could let it in. A body of `--body-limit`
 * bytes holds at most one key per 5 or so anyway; the limit keeps a body of bare keys out, and the depth the stack.
 */
export function eventShapeLimits(bodyLimitBytes: number): JsonShapeLimits {
  return { maxDepth: 64, maxKeys: Math.max(50_000, Math.floor(bodyLimitBytes / 8)) };
}

/** A JSON body kept with its own text, so the store keeps the event exactly as it was sent. */
interface JsonBody {
  raw: string;
  value: unknown;
}

// Parameters allowed: fastify matches the parser against the type with them (`application/json; charset=utf-8`).
const jsonContentType = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/;

/**
 * /healthz as readiness is meant (Kubernetes' readiness probe, a load balancer's health check): 503 only when this
 * receiver cannot take events, its store failing to write or not answering at all. Dead letters and a stuck
 * hand-off are the ERP's side: every receiver sharing a store saw them alike, and a balancer that took them all out
 * stopped intake because delivery had a problem. They stay in the body (status "degraded", the problems), which a
 * monitor reads, with `webhook status` exiting 69 on them.
 */
async function healthAnswer(
  options: ReceiverOptions,
  now: number,
  writes: WriteHealth,
  timing: StoreTiming,
  tokenLifetimeMs: number,
): Promise<{ code: number; body: unknown }> {
  try {
    await probeStoreWrites(writes, options, tokenLifetimeMs, now);
    const live = { handOffs: options.handOffStates?.() ?? [], storeWriteFailingSince: writes.failingSince };
    const health = await backlogHealth(options.store, now, options.stuckAfterMs, live, timing);
    const takesEvents = !health.problems.some((problem) => problem.problem === 'store cannot write');
    return { code: takesEvents ? 200 : 503, body: healthPage(health) };
  } catch (error) {
    // The store did not answer within its time limit, or its connection went: it cannot take events either. What
    // the hand-offs hold is not known, so no figures are given.
    if (!(error instanceof UnavailableError)) throw error;
    return { code: 503, body: { status: 'degraded', problems: [{ problem: 'store cannot answer' }] } };
  }
}

/** Starts the webhook receiver: token endpoint, the two event routes and /healthz. */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const now = options.now ?? Date.now;
  const signingKey = await tokenSigningKey(options.store, options.clientSecret, options.log);
  const tokens = new TokenIssuer(options.clientId, options.clientSecret, options.tokenTtlSeconds, now, signingKey);
  const stopping = { now: false };
  const app = createApp(options, stopping);
  const writes: WriteHealth = {};
  app.get('/healthz', async (_request, reply) => {
    // What the store's statements cost, apart from the time the request waited for its turn and the receiver's
    // other work between them (a monitor can graph it), and how much of that the thread waited for a core.
    const timing: StoreTiming = { workMs: 0 };
    const answer = await healthAnswer(options, now(), writes, timing, tokens.ttlSeconds * 1000);
    const wait = timing.coreWaitMs === undefined ? '' : `, cpu-wait;dur=${timing.coreWaitMs.toFixed(2)}`;
    reply.header('server-timing', `store;dur=${timing.workMs.toFixed(2)}${wait}`);
    return reply.code(answer.code).send(answer.body);
  });
  addTokenRoute(app, tokens, options, writes);
  const refusals: RefusalLines = { logged: 0, unlogged: 0 };
  const unauthorized = unauthorizedEventLog(options);
  for (const kind of ['customers', 'orders'] as const)
    addEventRoute(app, kind, tokens, options, now, writes, { refusals, unauthorized });
  const eventRoutes = new Map<string, WebhookKind>([
    [options.paths.customers, 'customers'],
    [options.paths.orders, 'orders'],
  ]);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ error: 'not_found', error_description: `No route ${request.method} ${request.url.split('?')[0]}` }),
  );
  app.setErrorHandler((error: { statusCode?: number; message: string; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const code = errorCodes[status] ?? (status >= 500 ? 'server_error' : 'bad_request');
    const kind = eventRoutes.get(request.routeOptions.url ?? '');
    const reason = refusalWords(error, kind, request.routeOptions.bodyLimit);
    if (kind !== undefined && status < 500) eventRefused(refusals, options, { kind, status, reason, request });
    return reply.code(status).send({ error: code, error_description: reason });
  });
  await listenOn(app, options.host, options.port);
  const url = baseUrlOf(
    options.tls ? 'https' : 'http',
    options.host,
    listeningPort(app.server.address(), options.port),
  );
  const close = () => {
    stopping.now = true;
    return app.close();
  };
  return { url, tokens, close, dropConnections: () => app.server.closeAllConnections() };
}

/**
 * A restart of the receiver takes about a second (it reads no history): a platform told to send again after this long
 * finds the next one listening, rather than retrying at once into a closed port.
 */
const stoppingRetryAfterSeconds = 5;

/**
 * A request that reaches the receiver once it is stopping (on a kept-alive connection, or pipelined behind one in
 * flight): answered 503 in the receiver's one shape with a Retry-After, and its connection closed, before any route
 * reads it. Fastify's own answer while it closes was `{"error":"Service Unavailable","message":…,"statusCode":503}`
 * with no Retry-After (a user test): a platform reading `error_description` got nothing, and its retry policy no hint.
 */
function answerStopping(response: ServerResponse): void {
  const body = JSON.stringify({
    error: 'temporarily_unavailable',
    error_description: 'The receiver is stopping; the event was not stored: send it again in a moment',
  });
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(stoppingRetryAfterSeconds),
    connection: 'close',
  });
  response.end(body);
}

/** The receiver's refusal shape, `{"error":"…","error_description":…}`, for what node refuses before any route. */
const earlyRefusalShape: RefusalShape = ({ code, message }) => ({
  error: code.replaceAll('-', '_'),
  error_description: message,
});

/**
 * Fastify over node's own server: fastify enforces the body limit while the body streams in (413 without
 * buffering 3 MB), answers 415 for unknown content types and reads the body with backpressure; the node server
 * under it (built here, so its timeouts can be set) answers 408 to a client that trickles its request.
 */
function createApp(options: ReceiverOptions, stopping: { now: boolean }): FastifyInstance {
  const serverOptions = serverTimeouts(options.requestTimeoutMs);
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes,
    // Refusals node makes before any route (431, 408, 400, 417) in the receiver's one shape, not fastify's.
    clientErrorHandler: clientErrorAnswer(earlyRefusalShape),
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // In-flight requests finish on close; idle keep-alive connections are closed so SIGTERM does not wait on them.
    forceCloseConnections: 'idle',
    serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) => {
      const forwarded = forwardedAware(handler, options.trustProxy, options.proxyHeader);
      const serve = (request: IncomingMessage, response: ServerResponse) =>
        stopping.now ? answerStopping(response) : forwarded(request, response);
      return options.tls
        ? createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, serve)
        : createHttpServer(serverOptions, serve);
    },
  });
  guardServer(app, options);
  // A compressed body (Content-Encoding) is decoded before it is parsed, the body limit counting the decoded bytes.
  // Only a POST carries a body here (a GET /healthz naming a coding has nothing to decode).
  app.addHook('preParsing', async (request, _reply, payload) =>
    request.method === 'POST' ? decodedBody(request.raw, request.routeOptions.bodyLimit) : payload,
  );
  // An answer given before the request's body is all in (a 401 from the headers, a 413) closes the connection: left
  // open while a client kept trickling the rest, it held a stopped receiver's process alive as long as the client
  // liked, any host that reaches the port without a token (a user test).
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(jsonContentType, { parseAs: 'buffer' }, (request, body, done) => {
    // JSON is UTF-8 (RFC 8259): another charset, or bytes that are not UTF-8, would be stored garbled ("S\uFFFDo").
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        Object.assign(new Error(`The body is in ${charset}; send the event as JSON in UTF-8`), { statusCode: 415 }),
        undefined,
      );
      return;
    }
    const bytes = body as Buffer;
    // No body at all, whatever its declared type (a client that marks every POST as JSON): the token request's
    // header style carries nothing in it, and an event route answers it 415 as it does a request without a type.
    if (bytes.length === 0) {
      done(null, undefined);
      return;
    }
    if (!isUtf8(bytes)) {
      done(Object.assign(new Error('The body is not UTF-8; it was not stored'), { statusCode: 400 }), undefined);
      return;
    }
    // A byte-order mark before the JSON is no part of it (RFC 8259 lets a reader ignore it).
    const raw = bytes.toString('utf8').replace(/^\uFEFF/, '');
    // Refused before it is parsed or stored: such an event could not be printed nor handed off.
    const problem = jsonShapeProblem(raw, eventShapeLimits(request.routeOptions.bodyLimit));
    if (problem !== undefined) {
      done(Object.assign(new Error(`The body is ${problem}; it was not stored`), { statusCode: 400 }), undefined);
      return;
    }
    try {
      done(null, { raw, value: JSON.parse(raw) } satisfies JsonBody);
    } catch (error) {
      done(
        Object.assign(new Error(`Body is not valid JSON: ${(error as Error).message}`), { statusCode: 400 }),
        undefined,
      );
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  return app;
}

/** On the receiver's node server: the connection cap, and an unmet `Expect` answered in the receiver's shape. */
function guardServer(app: FastifyInstance, options: ReceiverOptions): void {
  answerUnmetExpectations(app.server, earlyRefusalShape);
  limitConnections(
    app.server,
    {
      max: options.maxConnections ?? 1024,
      perAddress: options.maxConnectionsPerAddress ?? defaultConnectionsPerAddress,
      trustedPeer: trustedPeerCheck(options.trustProxy),
    },
    options.log,
  );
}

function addTokenRoute(app: FastifyInstance, tokens: TokenIssuer, options: ReceiverOptions, writes: WriteHealth): void {
  // Kept in the store before the token is answered: valid after a restart, and on the other receivers of a shared
  // store (a load balancer may send the event elsewhere).
  const now = options.now ?? Date.now;
  const shareToken = async (token: string) => {
    const digest = tokenDigest(token);
    try {
      const lifetimeMs = tokens.ttlSeconds * 1000;
      await options.store.shareToken(digest, now() + lifetimeMs, lifetimeMs);
      writeSucceeded(writes, options.log, digest.length);
    } catch (error) {
      // The platform asks a token before each event: a store that cannot keep one is a store that cannot write.
      writeFailed(writes, now(), options.log, {
        line: `Could not keep an issued token in ${options.store.description}: ${sentenceOf(error)}. Answered 503 so the platform asks again.`,
        bytes: digest.length,
      });
      throw new TokenNotKept();
    }
  };
  const limit = options.tokenFailureLimit ?? defaultTokenFailureLimit;
  const endpoint = {
    tokens,
    failures: new FailureLimiter(limit, options.now),
    failureLog: new FailureLog(options.log, limit.windowMs, 'Token requests', options.now),
    onIssued: shareToken,
  };
  app.post(options.paths.token, { bodyLimit: tokenRequestLimit }, async (request, reply) => {
    try {
      return await answerTokenRequest(request, reply, endpoint);
    } catch (error) {
      if (!(error instanceof TokenNotKept)) throw error;
      return reply
        .code(503)
        .send({ error: 'temporarily_unavailable', error_description: 'The token could not be kept; ask again later' });
    }
  });
}

/** A token issued but not kept in the store: not answered, since the events it would open could not be stored. */
class TokenNotKept extends Error {}

function addEventRoute(
  app: FastifyInstance,
  kind: WebhookKind,
  tokens: TokenIssuer,
  options: ReceiverOptions,
  now: () => number,
  writes: WriteHealth,
  logs: { refusals: RefusalLines; unauthorized: Record<TokenRefusal, ThrottledLog> },
): void {
  const { refusals } = logs;
  const requireToken = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const verdict = match?.[1]
      ? await tokens.verify(match[1], (digest, at) => options.store.tokenExpiry(digest, at))
      : 'missing';
    if (verdict === 'valid') return;
    eventUnauthorized(logs.unauthorized, options, { kind, verdict, ip: request.ip });
    // Answered before the body is read: an unauthenticated sender never gets to fill memory or the disk.
    reply.header('www-authenticate', `Bearer error="invalid_token"`);
    return reply.code(401).send({ error: 'invalid_token', error_description: tokenRefusalWords[verdict].answer });
  };
  app.post(options.paths[kind], { onRequest: requireToken }, async (request, reply) => {
    // Only the JSON parser gives a JsonBody, and fastify runs it for the JSON media types alone.
    if (!isJsonBody(request.body)) {
      // Marked JSON but empty (after its Content-Encoding is decoded): the body is what is wrong, not its type.
      if (jsonContentType.test(request.headers['content-type'] ?? '')) {
        eventRefused(refusals, options, { kind, status: 400, reason: emptyBody, request });
        return reply.code(400).send({ error: 'bad_request', error_description: emptyBody });
      }
      eventRefused(refusals, options, { kind, status: 415, reason: sendJson, request });
      return reply.code(415).send({ error: 'unsupported_media_type', error_description: sendJson });
    }
    const { raw, value } = request.body;
    const receivedAt = now();
    const deliveryId = randomUUID();
    const event: ReceivedEvent = {
      receivedAt: new Date(receivedAt).toISOString(),
      kind,
      deliveryId,
      key: deduplicationKey(kind, value, deliveryId, raw),
      flags: payloadMismatches(kind, value),
      // request.ip: the forwarded client when the server is told to trust a proxy, the peer otherwise.
      clientAddress: request.ip,
      event: value,
    };
    let stored: boolean;
    // The key the same event had before keys read ids and stamps as meant: its redelivery stays a duplicate.
    const formerKey = formerDeduplicationKey(kind, value, deliveryId, raw);
    try {
      // Resolves only after the commit, and concurrent copies of one event are settled by the key's uniqueness.
      ({ stored } = await options.store.append({ ...event, receivedAt, raw, formerKey }));
      writeSucceeded(writes, options.log, Buffer.byteLength(raw));
    } catch (error) {
      writeFailed(writes, now(), options.log, {
        line: `Could not store a ${kind} event in ${options.store.description}: ${sentenceOf(error)}. Answered 503 so the platform can resend it.`,
        bytes: Buffer.byteLength(raw),
      });
      return reply
        .code(503)
        .send({ error: 'inbox_unavailable', error_description: 'The event could not be stored; send it again later' });
    }
    if (!stored) {
      options.onDuplicate?.(kind, event.key);
      return { status: 'duplicate' };
    }
    options.onStored?.(event);
    return { status: 'stored', deliveryId: event.deliveryId };
  });
}

const errorCodes: Record<number, string> = { 413: 'payload_too_large', 415: 'unsupported_media_type' };

/**
 * What a request refused before its handler is told, and the log quotes, in b2bctl's words where fastify's own do
 * not say what to do: a type no parser takes ("Unsupported Media Type"), a body past the limit ("Request body is too
 * large", without the limit), as `tax serve` words its 413.
 */
function refusalWords(error: { message: string; code?: string }, kind: WebhookKind | undefined, limit: number): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendJson;
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return error.message;
  // The events' limit is the operator's to raise; the token request's is fixed (a form of two fields).
  return kind === undefined
    ? tooLargeDescription('this receiver', limit)
    : `${tooLargeDescription('this receiver', limit, 'event', '--body-limit')}; it was not stored`;
}

function isJsonBody(body: unknown): body is JsonBody {
  return body !== null && typeof body === 'object' && 'raw' in body && 'value' in body;
}

/** An error's message inside a longer line: without its own full stop (the store's lines end with one). */
function sentenceOf(error: unknown): string {
  return (error as Error).message.replace(/\.$/, '');
}
