// Delivery and health figures of bench/webhooks.mjs: the hand-off's rate beside intake's, and /healthz under load.
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';

const erpServer = `
let count = 0, last = 0;
const server = require('node:http').createServer((request, response) => {
  if (request.method === 'GET') return response.end(JSON.stringify({ count, last }));
  // An array is a --forward-batch POST: each of its events counts.
  const events = Number(request.headers['x-b2bctl-events'] ?? 1);
  request.resume();
  request.on('end', () => { count += events; last = Date.now(); response.end('ok'); });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

/**
 * An ERP answering 200 to every POST in a process of its own (an array of events, --forward-batch, counted by its
 * x-b2bctl-events header); GET gives how many events it took and when the last.
 */
export async function startErp(env) {
  const child = spawn(process.execPath, ['-e', erpServer], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  return {
    url,
    stats: async () => (await fetch(url)).json(),
    stop: () => new Promise((resolve) => child.on('close', resolve).kill('SIGTERM')),
  };
}

/** Waits until the ERP has taken `count` events; the time of the last, in Date.now() terms. */
async function deliveredBy(erp, count, patienceMs = 600_000) {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    const stats = await erp.stats();
    if (stats.count >= count) return stats.last;
    if (Date.now() > deadline) throw new Error(`only ${stats.count} of ${count} events delivered`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Intake and delivery over the same events: `count` orders sent at the benchmark's concurrency to a receiver that
 * forwards to an ERP answering at once. Intake: events/s until the last answer; delivery: events/s until the ERP
 * took the last one, both from the first send.
 */
export async function deliveryBesideIntake({ listen, drive, tokenOf, count, extra, env }) {
  const erp = await startErp(env);
  const receiver = await listen(['--forward-to', `${erp.url}/hook`, ...extra]);
  try {
    const token = await tokenOf(receiver.url);
    const warmUp = 300;
    await drive(receiver.url, token, warmUp, 60_000_000 + Math.floor(Math.random() * 1e6) * 1000);
    await deliveredBy(erp, warmUp);
    const started = Date.now();
    const intake = await drive(receiver.url, token, count, Math.floor(Math.random() * 1e6) * 1000 + 1);
    const intakeEnded = Date.now();
    // Delivered while intake ran, and the rate of the rest alone: held by intake's turns, or by the round trip.
    const duringIntake = (await erp.stats()).count - warmUp;
    const catchUpFrom = Date.now();
    const lastDelivered = await deliveredBy(erp, warmUp + count);
    const intakeRate = count / ((intakeEnded - started) / 1000);
    const deliveryRate = count / ((Math.max(lastDelivered, intakeEnded) - started) / 1000);
    const aloneRate =
      lastDelivered > catchUpFrom ? (count - duringIntake) / ((lastDelivered - catchUpFrom) / 1000) : undefined;
    return { intakeRate, deliveryRate, p99: intake.p99, duringIntake, aloneRate };
  } finally {
    await receiver.stop();
    await erp.stop();
  }
}

/**
 * The prober of /healthz, on a thread of its own as a load balancer is a process of its own: polled from the thread
 * that drives intake, an answer's time included that thread's own turns (a 191 ms answer beside a receiver whose
 * event loop never stopped for more than 30 ms). 30 answers alone, then after 'start' one every 100 ms until 'stop'.
 * Given a bare server's URL, it is asked alike, 50 ms after each /healthz: what the machine and the client add to
 * any answer while intake runs, the baseline of the receiver's figures.
 */
const healthzProber = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
let state = 'alone';
parentPort.on('message', (message) => (state = message));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function ask(url) {
  const sent = performance.now();
  const answer = await fetch(url);
  await answer.text();
  const ms = performance.now() - sent;
  const timing = answer.headers.get('server-timing') ?? '';
  const store = /store;dur=([\\d.]+)/.exec(timing);
  const coreWait = /cpu-wait;dur=([\\d.]+)/.exec(timing);
  return { ms, store: store ? Number(store[1]) : undefined, coreWait: coreWait ? Number(coreWait[1]) : undefined };
}
(async () => {
  const healthz = workerData.url + '/healthz';
  const alone = [];
  for (let index = 0; index < 30; index++) alone.push((await ask(healthz)).ms);
  if (workerData.bareUrl) for (let index = 0; index < 30; index++) await ask(workerData.bareUrl);
  parentPort.postMessage({ alone });
  while (state === 'alone') await pause(5);
  const under = [];
  const bare = [];
  while (state === 'start') {
    under.push(await ask(healthz));
    await pause(50);
    if (workerData.bareUrl) bare.push((await ask(workerData.bareUrl)).ms);
    await pause(50);
  }
  parentPort.postMessage({ under, bare });
})();
`;

/**
 * /healthz answer times while intake runs at the benchmark's concurrency: one request every 100 ms (a load
 * balancer's or a watchdog's pace) for the duration of `count` events. Returns p50, p99 and the slowest, in ms;
 * with `bareUrl`, the same of a bare server asked alike in the same window.
 */
export async function healthzUnderLoad({ url, token, drive, count, bareUrl }) {
  const prober = new Worker(healthzProber, { eval: true, workerData: { url, bareUrl } });
  const next = () => new Promise((resolve) => prober.once('message', resolve));
  // Alone first: what the answer costs without intake's commits to wait behind.
  const alone = (await next()).alone.toSorted((a, b) => a - b);
  const answers = next();
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
  prober.postMessage('start');
  const intakeFrom = Date.now();
  const intake = await drive(url, token, count, Math.floor(Math.random() * 1e6) * 1000 + 1);
  const intakeUntil = Date.now();
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a thread's port, not a window: no origin
  prober.postMessage('stop');
  const { under, bare } = await answers;
  await prober.terminate();
  const times = under.map((answer) => answer.ms);
  const storeTimes = under.filter((answer) => answer.store !== undefined).map((answer) => answer.store);
  // The store's own time: its statements' time less the receiver thread's waits for a core in them (builds that say
  // them; Linux), the part of a statement's time that is the machine's.
  const storeOwnTimes = under
    .filter((answer) => answer.store !== undefined && answer.coreWait !== undefined)
    .map((answer) => Math.max(0, answer.store - answer.coreWait));
  times.sort((a, b) => a - b);
  storeTimes.sort((a, b) => a - b);
  storeOwnTimes.sort((a, b) => a - b);
  const at = (share, list = times) => list[Math.min(list.length - 1, Math.floor(list.length * share))] ?? 0;
  return {
    aloneMedian: alone[15] ?? 0,
    p50: at(0.5),
    p99: at(0.99),
    slowest: times.at(-1) ?? 0,
    /** The store's own work per answer (the receiver's Server-Timing header), when it says it. */
    storeP50: storeTimes.length ? at(0.5, storeTimes) : undefined,
    storeP99: storeTimes.length ? at(0.99, storeTimes) : undefined,
    storeSlowest: storeTimes.at(-1),
    /** The store's work less the receiver's waits for a core in it (Server-Timing cpu-wait: SQLite on Linux). */
    storeOwnP99: storeOwnTimes.length ? at(0.99, storeOwnTimes) : undefined,
    storeOwnSlowest: storeOwnTimes.at(-1),
    answers: times.length,
    /** The bare server asked alike in the same window, when one was given. */
    bare: bare.length === 0 ? undefined : percentiles(bare),
    intake,
    /** When intake ran, in Date.now() terms (for the event-loop probe's findings). */
    intakeFrom,
    intakeUntil,
  };
}

/** p50, p99 and the slowest of a list of times. */
function percentiles(times) {
  const sorted = times.toSorted((a, b) => a - b);
  const at = (share) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), slowest: sorted.at(-1) ?? 0, answers: sorted.length };
}
