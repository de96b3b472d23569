import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { erpAuthorizationFor } from '../../../src/net/erp-credential.js';
import { type ConnectionRules, type Lookup, thisMachineOnly } from '../../../src/net/dispatcher.js';
import { forwardTo } from '../../../src/webhook/consumers.js';
import { ForwardThread } from '../../../src/webhook/forward-thread.js';
import { HandOff } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { fastHandOff } from '../../support/fast-hand-off.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { textServer } from '../../support/text-server.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { untilWith } from '../../support/until.js';

const until = untilWith({ deadlineMs: 20_000 });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
});
afterAll(removeReceiverFolders);

/** A store holding events 1..count before any hand-off runs: the hand-off reads them ahead, as a run. */
async function storeWith(count: number): Promise<SqliteStore> {
  const store = await SqliteStore.open(temporaryFolder());
  closers.push(() => store.close());
  await store.openHandOff('forward', 'erp', true);
  for (let id = 1; id <= count; id++)
    await store.append(inboxEvent(id, { receivedAt: Date.UTC(2026, 10, 23, 6, 0, id) }));
  return store;
}

/** An HTTP server that hands each request's JSON body, once read, to `take`. */
function jsonServer(take: (body: unknown, request: IncomingMessage, response: ServerResponse) => void): Server {
  return createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => take(JSON.parse(text), request, response));
  });
}

/** The id of the stored event's own `{ id }`. */
const eventIdOf = (stored: unknown) => ((stored as StoredEvent).event as { id: number }).id;

/** The ERP's URL once `server` listens on loopback; closed, its connections cut, after the test. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
}

/**
 * An ERP answering `answer(id, attempt)` (a status, or 'hang' for no answer), recording each request: the event's
 * id, its delivery id header, and the client port of its connection.
 */
async function erp(answer: (id: number, attempt: number) => number | 'hang') {
  const requests: { id: number; deliveryId: string; port: number; status: number | 'hang' }[] = [];
  const taken: number[] = [];
  const hanging: ServerResponse[] = [];
  const server = jsonServer((body, request, response) => {
    const id = eventIdOf(body);
    const status = answer(id, requests.filter((seen) => seen.id === id).length + 1);
    requests.push({
      id,
      deliveryId: String(request.headers['x-b2bctl-delivery-id']),
      port: request.socket.remotePort ?? 0,
      status,
    });
    if (status === 'hang') return void hanging.push(response);
    if (status < 300) taken.push(id);
    response.writeHead(status).end(status < 300 ? 'ok' : 'refused');
  });
  return { url: await listening(server), requests, taken };
}

function handOff(store: SqliteStore, consumer: ReturnType<typeof forwardTo>, log: string[] = []) {
  return fastHandOff(store, 'forward', consumer, closers, log);
}

const idsFrom = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('forwardTo: events read ahead go to the ERP from a thread of their own', () => {
  it('sends a run in order on one kept connection; a 503 is retried from its event, a 422 is dead at once', async () => {
    const store = await storeWith(60);
    const target = await erp((id, attempt) => (id === 10 && attempt === 1 ? 503 : id === 20 ? 422 : 200));
    const log: string[] = [];
    const consumer = forwardTo(target.url, {});
    // One at a time from this thread only for a retry: event 10's second attempt.
    const singles: number[] = [];
    const deliver = consumer.deliver.bind(consumer);
    consumer.deliver = (stored, signal) => {
      singles.push((stored.event as { id: number }).id);
      return deliver(stored, signal);
    };
    handOff(store, consumer, log);
    await until(() => target.taken.length === 59, 'every event but the refused one');
    expect(singles).toEqual([10]);
    expect(target.taken).toEqual(idsFrom(1, 60).filter((id) => id !== 20));
    // Each event asked once, in order; event 10 twice (its 503, then its retry), event 20 once (its 422).
    expect(target.requests.map((request) => request.id)).toEqual([...idsFrom(1, 10), ...idsFrom(10, 60)]);
    expect(target.requests.every((request) => request.deliveryId === `d${request.id}`)).toBe(true);
    // The runs keep their connection: one for the thread, one for a retry from the receiver's own thread.
    expect(new Set(target.requests.map((request) => request.port)).size).toBeLessThanOrEqual(2);
    await until(() => log.some((line) => line.includes('is dead')), 'the dead letter');
    expect((await store.deadLetters()).map(({ eventId, attempts, error }) => ({ eventId, attempts, error }))).toEqual([
      { eventId: 20, attempts: 1, error: 'HTTP 422: refused' },
    ]);
    expect(log[0]).toMatch(/orders event 10 failed \(attempt 1, .*: HTTP 503: refused\); trying again/);
  });

  it("user-info in --forward-to is the ERP's Basic credential on every request: the thread's, a retry's, alone or read ahead", async () => {
    const store = await storeWith(12);
    const credentials: (string | undefined)[] = [];
    const server = jsonServer((body, request, response) => {
      credentials.push(request.headers.authorization);
      // The first try of event 5 fails: its retry goes from the receiver's own thread, through undici.
      const id = eventIdOf(body);
      const failing = id === 5 && credentials.length === 5;
      response.writeHead(request.headers.authorization === undefined ? 401 : failing ? 500 : 200).end('ok');
    });
    const url = (await listening(server)).replace('http://', 'http://erp%40loja:s%C3%AAnha%3A1@');
    // As `webhook listen --forward-to` reads it (warned of: the process list shows it).
    const warnings: string[] = [];
    const authorization = erpAuthorizationFor(url, {
      flag: '--forward-to',
      prefix: 'B2BCTL_WEBHOOK_FORWARD',
      allowHttp: false,
      env: {},
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toHaveLength(1);
    handOff(store, forwardTo(url, {}, undefined, undefined, { authorization }));
    await until(() => credentials.length === 13, 'twelve events and one retry');
    const expected = `Basic ${Buffer.from('erp@loja:sênha:1').toString('base64')}`;
    expect(credentials).toEqual(Array(13).fill(expected));
  });

  it('passes each event on as it came: an id past 2^53 keeps its digits, the read-ahead run and a retry alike', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    closers.push(() => store.close());
    await store.openHandOff('forward', 'erp', true);
    const raws = ['{"id":18014398509481985,"status":"PAID"}', '{ "id" : 9007199254740993 , "n": 1.10 }'];
    for (const [index, raw] of raws.entries())
      await store.append({ ...inboxEvent(index + 1, { receivedAt: Date.UTC(2026, 10, 23, 6, 0, index) }), raw });
    const bodies: string[] = [];
    const server = textServer((text, _request, response) => {
      bodies.push(text);
      // The first try of the second event fails: its retry goes from the receiver's own thread.
      response.writeHead(bodies.length === 2 ? 500 : 200).end('ok');
    });
    handOff(store, forwardTo(await listening(server), {}));
    await until(() => bodies.length === 3, 'two events and one retry');
    expect(bodies[0]).toContain(`"event":${raws[0]}`);
    expect(bodies[1]).toContain(`"event":${raws[1]}`);
    expect(bodies[2]).toBe(bodies[1]);
  });

  it('sends nothing past a request cut by stop(); the next start sends that event again, then the rest', async () => {
    const store = await storeWith(10);
    let hang = true;
    const target = await erp((id) => (id === 5 && hang ? 'hang' : 200));
    const first = handOff(store, forwardTo(target.url, {}));
    await until(() => target.requests.some((request) => request.id === 5), 'event 5 to be sent');
    await first.stop();
    expect(target.requests.map((request) => request.id)).toEqual(idsFrom(1, 5));
    expect(await store.deadLetters()).toEqual([]);

    hang = false;
    handOff(store, forwardTo(target.url, {}));
    await until(() => target.taken.length === 10, 'the rest');
    expect(target.taken).toEqual(idsFrom(1, 10));
    expect(target.requests.map((request) => request.id)).toEqual([...idsFrom(1, 5), ...idsFrom(5, 10)]);
  });

  it('fails a request past --forward-timeout in that flag’s words, then delivers the event on a retry', async () => {
    const store = await storeWith(3);
    const target = await erp((id, attempt) => (id === 2 && attempt === 1 ? 'hang' : 200));
    const log: string[] = [];
    handOff(store, forwardTo(target.url, {}, 300), log);
    await until(() => target.taken.length === 3, 'every event');
    expect(target.taken).toEqual([1, 2, 3]);
    expect(log[0]).toMatch(/orders event 2 failed \(attempt 1, .*--forward-timeout \(0\.3 s\) to answer/);
  });

  it('fails an answer cut in the middle, or stalled in the middle past --forward-timeout, and retries it', async () => {
    const store = await storeWith(4);
    const seen: number[] = [];
    const server = jsonServer((body, _request, response) => {
      const id = eventIdOf(body);
      seen.push(id);
      const attempt = seen.filter((each) => each === id).length;
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
      // Event 2's first answer is cut; event 3's first one stalls after its first bytes.
      if (id === 2 && attempt === 1) response.destroy();
      else if (!(id === 3 && attempt === 1)) response.end('x'.repeat(93));
    });
    const log: string[] = [];
    handOff(store, forwardTo(await listening(server), {}, 300), log);
    await until(() => seen.filter((id) => id === 4).length === 1 && log.length >= 2, 'every event');
    expect(seen).toEqual([1, 2, 2, 3, 3, 4]);
    expect(log[0]).toMatch(/orders event 2 failed \(attempt 1, .*was cut \(ECONNRESET\)/);
    expect(log[1]).toMatch(/orders event 3 failed \(attempt 1, .*--forward-timeout \(0\.3 s\) to answer/);
  });

  it('moves the hand-off’s busySince on while a run of slow answers goes on: a long run is not stuck', async () => {
    const store = await storeWith(4);
    const answered: number[] = [];
    const server = jsonServer((body, _request, response) => {
      setTimeout(() => {
        answered.push(eventIdOf(body));
        response.end('ok');
      }, 700);
    });
    const started = new HandOff(store, 'forward', forwardTo(await listening(server), {}), {
      clock: systemClock,
      log: () => undefined,
      giveUpAfterMs: 60_000,
      pollMs: 50,
    });
    started.start();
    closers.push(() => started.stop());
    await until(() => started.state().busySince !== undefined, 'the run to start');
    const first = started.state().busySince as number;
    // Told after the second answer (past a second) and before the run of four ends: after it, busySince is unset.
    await until(() => (started.state().busySince ?? 0) > first, 'busySince to move on during the run');
    expect(answered.length).toBeLessThan(4);
    await until(() => answered.length === 4, 'the run');
  });

  it('a time-out past what a timer holds (24.8 days) waits as long as it can, not 1 ms: each answer is taken', async () => {
    // The flags refuse such a limit; this is the guard behind them, on the thread's timer and this thread's.
    const slow = jsonServer((_body, _request, response) => {
      setTimeout(() => response.writeHead(200).end('ok'), 50);
    });
    const url = await listening(slow);
    const consumer = forwardTo(url, {}, 30 * 86_400_000);
    closers.push(async () => consumer.close?.());
    const store = await storeWith(2);
    const events = await store.pendingForHandOff('forward', undefined, 2);
    const signal = new AbortController().signal;
    const run = await consumer.deliverInOrder?.(events.events, signal);
    expect(run).toEqual({ taken: 2 });
  });

  it('tells a failure to connect as a single delivery tells it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const consumer = forwardTo(`http://127.0.0.1:${port}/hook`, {});
    closers.push(async () => consumer.close?.());
    const store = await storeWith(2);
    const events = await store.pendingForHandOff('forward', undefined, 2);
    const signal = new AbortController().signal;
    const run = await consumer.deliverInOrder?.(events.events, signal);
    const single = await consumer.deliver(events.events[0] as StoredEvent, signal).catch((error: Error) => error);
    expect(run?.taken).toBe(0);
    expect(run?.failure?.message).toMatch(/ECONNREFUSED/);
    expect(run?.failure?.message).toBe((single as Error).message);
  });
});

/** An ERP that takes JSON arrays of events (--forward-batch): `answer(ids)` gives each POST's status. */
async function batchErp(answer: (ids: number[]) => number) {
  const posts: { ids: number[]; events: string; status: number }[] = [];
  const taken: number[] = [];
  const server = jsonServer((body, request, response) => {
    const ids = (body as StoredEvent[]).map(eventIdOf);
    const status = answer(ids);
    posts.push({ ids, events: String(request.headers['x-b2bctl-events']), status });
    if (status < 300) taken.push(...ids);
    response.writeHead(status).end(status < 300 ? 'ok' : 'refused');
  });
  return { url: await listening(server), posts, taken };
}

describe('forwardTo with --forward-batch: arrays of events, taken or refused together', () => {
  it('sends 25 events as arrays of 10, 10 and 5, in order, each saying how many it carries', async () => {
    const store = await storeWith(25);
    const target = await batchErp(() => 200);
    handOff(store, forwardTo(target.url, {}, 30_000, 10));
    await until(() => target.taken.length === 25, 'every event');
    expect(target.posts.map((post) => post.ids)).toEqual([idsFrom(1, 10), idsFrom(11, 20), idsFrom(21, 25)]);
    expect(target.posts.map((post) => post.events)).toEqual(['10', '10', '5']);
  });

  it('sends a batch refused for good again event by event: the refused one is dead, the others taken', async () => {
    const store = await storeWith(12);
    const target = await batchErp((batch) => (batch.includes(7) ? 422 : 200));
    const log: string[] = [];
    handOff(store, forwardTo(target.url, {}, 30_000, 10), log);
    await until(() => target.taken.length === 11, 'every event but the refused one');
    expect(target.taken).toEqual(idsFrom(1, 12).filter((id) => id !== 7));
    // Alone up to the refused one; after it, batches again.
    expect(target.posts.map((post) => post.ids)).toEqual([
      idsFrom(1, 10),
      ...idsFrom(1, 7).map((id) => [id]),
      idsFrom(8, 12),
    ]);
    await until(() => log.some((line) => line.includes('is dead')), 'the dead letter');
    expect((await store.deadLetters()).map(({ eventId, attempts }) => ({ eventId, attempts }))).toEqual([
      { eventId: 7, attempts: 1 },
    ]);
  });

  it('retries a batch answered 503 from its first event, alone, then goes on in batches', async () => {
    const store = await storeWith(12);
    let first = true;
    const target = await batchErp(() => {
      const status = first ? 503 : 200;
      first = false;
      return status;
    });
    handOff(store, forwardTo(target.url, {}, 30_000, 10));
    await until(() => target.taken.length === 12, 'every event');
    expect(target.taken).toEqual(idsFrom(1, 12));
    expect(target.posts.map((post) => post.ids)).toEqual([idsFrom(1, 10), [1], idsFrom(2, 11), [12]]);
  });
});

/** A resolver that answers every name with `address` (an array when asked for all, as node:net asks). */
function resolvingTo(address: string): Lookup {
  return (_hostname, options, callback) =>
    options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
}

/** One event as the thread POSTs it. */
const oneRequest = [{ headers: { 'content-type': 'application/json' }, body: '{"id":1}' }];

/** A thread to `url` with `rules`, closed after the test. */
function threadTo(url: string, rules: ConnectionRules, timeoutMs = 30_000): ForwardThread {
  const thread = new ForwardThread(url, timeoutMs, rules);
  closers.push(() => thread.close());
  return thread;
}

describe("the forwarding thread's connections follow the connection rules of net/ (connectionRules)", () => {
  it('resolves plain-HTTP localhost by the rules: a loopback answer is used, another is refused before connecting', async () => {
    const connections: string[] = [];
    const server = createServer((request, response) => {
      connections.push(String(request.socket.remoteAddress));
      response.end('ok');
    });
    const url = (await listening(server)).replace('127.0.0.1', 'localhost');
    const signal = new AbortController().signal;
    // The system's resolver is never asked: the answer is the rules' lookup's, run on the receiver's thread.
    const here = threadTo(url, { timeout: 10_000, lookup: thisMachineOnly(resolvingTo('127.0.0.1')) });
    expect(await here.deliverInOrder(oneRequest, signal)).toEqual({ taken: 1 });
    expect(connections).toHaveLength(1);
    // A hosts file mapping localhost elsewhere (a user test): nothing leaves, not even a connection.
    const elsewhere = threadTo(url, { timeout: 10_000, lookup: thisMachineOnly(resolvingTo('192.0.2.7')) });
    const refused = await elsewhere.deliverInOrder(oneRequest, signal);
    expect(refused.taken).toBe(0);
    expect(refused.failure).toMatchObject({ code: 'ENOTLOCAL', message: expect.stringContaining('192.0.2.7') });
    expect(connections).toHaveLength(1);
  });

  it("fails a connection not open within the rules' connect timeout, with the code undici gives it", async () => {
    const server = createServer((_request, response) => response.end('ok'));
    const url = (await listening(server)).replace('127.0.0.1', 'localhost');
    // A resolver that never answers: the connection never opens, however long --forward-timeout is.
    const thread = threadTo(url, { timeout: 200, lookup: () => undefined });
    const outcome = await thread.deliverInOrder(oneRequest, new AbortController().signal);
    expect(outcome).toMatchObject({ taken: 0, failure: { code: 'UND_ERR_CONNECT_TIMEOUT' } });
  });

  it('takes --forward-timeout as the time to the headers, then between chunks, on the thread as on a retry', async () => {
    // Headers at once, then ten chunks 100 ms apart: the whole answer takes a second, no gap 400 ms.
    const server = createServer((_request, response) => {
      response.writeHead(200);
      let sent = 0;
      const next = () => {
        if (++sent === 10) return void response.end('.');
        response.write('.');
        setTimeout(next, 100);
      };
      next();
    });
    const consumer = forwardTo(await listening(server), {}, 400);
    closers.push(async () => consumer.close?.());
    const store = await storeWith(2);
    const { events } = await store.pendingForHandOff('forward', undefined, 2);
    const signal = new AbortController().signal;
    expect(await consumer.deliverInOrder?.(events, signal)).toEqual({ taken: 2 });
    await expect(consumer.deliver(events[0] as StoredEvent, signal)).resolves.toBeUndefined();
  });

  it('fails an answer whose headers do not come within --forward-timeout in the words a retry uses', async () => {
    const hanging: ServerResponse[] = [];
    const server = createServer((_request, response) => void hanging.push(response));
    const consumer = forwardTo(await listening(server), {}, 300);
    closers.push(async () => consumer.close?.());
    const store = await storeWith(1);
    const { events } = await store.pendingForHandOff('forward', undefined, 1);
    const signal = new AbortController().signal;
    const run = await consumer.deliverInOrder?.(events, signal);
    const single = await consumer.deliver(events[0] as StoredEvent, signal).catch((error: Error) => error);
    expect(run?.taken).toBe(0);
    expect(run?.failure?.message).toMatch(/UND_ERR_HEADERS_TIMEOUT.*--forward-timeout \(0\.3 s\) to answer/);
    expect(run?.failure?.message).toBe((single as Error).message);
  });
});
