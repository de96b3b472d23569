// Tax callback benchmarks (`b2bctl tax serve`), each figure beside its baseline in the same run, driven by
// autocannon (as the receiver's bench), every request a different cart (quantities and prices drawn per request
// from a seeded generator, so no cache of answers could help):
//   1. answers/s at concurrency 32, 50 items a request, from a table, in three rounds that drive each server in
//      turn (the middle round's share judged): against a bare node http server that reads the same carts and
//      answers a constant body of the answers' size (target: >= 80% of its rate), with the share
//      a bare server that also parses each cart reaches, the ceiling of any server reading the cart, and the share
//      of a plain callback doing the same work (JSON.parse, a Map of rows, JSON.stringify: the same answer); and
//      the p99 of the answers at a steady 1,000 carts a second, beside the bare server's (target: p99 <= 5 ms);
//   2. a 100,000-row table replaced while under load: every request answered 200, p99 during the swap reported;
//   3. --forward-to with an ERP answering in 200 ms, 2 s and never, budget 300 ms: every answer within the budget
//      plus 10 ms, beside a bare server that answers every cart at the budget, driven alike (what the client and
//      the machine add to an answer due at 300 ms).
// With --against DIR (another checkout of b2bctl, built), part 1 also runs that build's `tax serve`, in three
// rounds alternated with this one's and the bare server's: answers/s and server CPU a request of each, same run.
// The ERP of part 3 is a process of its own, as a real one is: in the client's process, its work would delay the
// client's reading of the answers and count against the server.
// Usage: npm run bench:tax [-- [--quick] [--against ../b2bctl-main] [--only table,reload,forward]]
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { benchEnv, cli, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';
import { startServer } from './lib/server-process.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const againstAt = process.argv.indexOf('--against');
const against = againstAt < 0 ? undefined : process.argv[againstAt + 1];
const onlyAt = process.argv.indexOf('--only');
/** `--only table,forward`: the parts to run (default: all three). */
const parts = new Set(onlyAt < 0 ? ['table', 'reload', 'forward'] : process.argv[onlyAt + 1].split(','));
const requests = quick ? 5_000 : 20_000;
const concurrency = 32;
const token = 'bench-tax-token-0123456789abcdef01234';
const folder = mkdtempSync(join(tmpdir(), 'b2bctl-bench-tax-'));
const { env, cleanup } = benchEnv({ B2BCTL_TAX_TOKEN: token });
let allOk = true;

const header = 'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n';
/** A table of `rows` NCMs (84000000 + n) for SP → RJ and SP → MG, taxpayer and not; `icmsRate` marks the version. */
function writeTable(path, rows, icmsRate) {
  const lines = [header];
  for (let n = 0; n < rows / 4; n++) {
    const ncm = String(84_000_000 + n);
    lines.push(
      `${ncm};SP;RJ;taxpayer;${icmsRate};;5;40;20;\n${ncm};SP;RJ;non-taxpayer;${icmsRate};;5;;20;2\n`,
      `${ncm};SP;MG;taxpayer;${icmsRate};;5;;18;\n${ncm};SP;MG;non-taxpayer;${icmsRate};;5;;18;2\n`,
    );
  }
  writeFileSync(`${path}.new`, lines.join(''));
  renameSync(`${path}.new`, path);
}

/** Carts of 50 items in the callback's default shape, each drawn afresh: quantities and prices from a seeded generator. */
function cartMaker(seed) {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return () =>
    JSON.stringify({
      origin: { state: 'SP' },
      destination: { state: 'RJ' },
      customer: { document: '11.222.333/0001-81', paysIcms: true },
      items: Array.from({ length: 50 }, (_, n) => ({
        sku: `SKU-${n}`,
        ncm: String(84_000_000 + n * 7),
        quantity: 1 + Math.floor(random() * 40),
        unitPrice: Math.round(1_000 + random() * 500_000) / 100,
        discount: random() < 0.2 ? Math.round(random() * 500) / 100 : 0,
        freight: Math.round(random() * 2_000) / 100,
      })),
    });
}

/**
 * A process's CPU time so far (user + system), in microseconds, from /proc (Linux; 10 ms ticks): the figure the
 * load of a shared machine moves least. Undefined elsewhere.
 */
function cpuMicroseconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** The answer of the `tax serve` at `url` to one cart, as the bare servers' body of the same size. */
async function answerOf(url) {
  const answer = await fetch(`${url}/tax`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: cartMaker(99)(),
  });
  const body = await answer.text();
  if (answer.status !== 200) throw new Error(`tax serve answered ${answer.status}: ${body}`);
  return body;
}

/**
 * Sends `count` carts with `concurrency` in flight through autocannon, each request a new cart; answers/s, p99,
 * the largest latency and how many were not 200. `during` runs while the requests go.
 */
async function drive(url, count, { during, seed = 1, pid, madeFirst = false } = {}) {
  const makeCart = cartMaker(seed);
  // Carts made in advance leave the client nothing to do between an answer and the next request but send it: with
  // 32 answers due at the same moment (the budget's end), making the carts as they go would stamp the last answers
  // late by the others' making.
  const made = madeFirst ? Array.from({ length: count }, makeCart) : undefined;
  let sent = 0;
  const nextCart = made === undefined ? makeCart : () => made[sent++ % made.length];
  const cpuBefore = cpuMicroseconds(pid);
  const started = performance.now();
  let lastAnswer = started;
  const times = [];
  const run = autocannon({
    url: `${url}/tax`,
    method: 'POST',
    connections: concurrency,
    pipelining: 1,
    amount: count,
    timeout: 30,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: nextCart() }) }],
  });
  // autocannon notices the end only at its next one-second tick: the rate is counted to the last answer.
  run.on('response', (_client, _status, _bytes, responseTime) => {
    lastAnswer = performance.now();
    times.push(responseTime);
  });
  await during?.();
  const result = await run;
  const cpuAfter = cpuMicroseconds(pid);
  const answered = result['2xx'];
  return {
    rate: (result.requests.total * 1000) / (lastAnswer - started),
    p99: result.latency.p99,
    max: result.latency.max,
    notOk: count - answered,
    answered,
    times,
    cpuPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / count,
  };
}

/**
 * Sends `count` carts at a steady `perSecond`, each when its time comes whatever the answers before it (autocannon's
 * rate sends each second's quota at the second's start, a burst). The sends wait for no answer, so a slow server
 * cannot delay them: an answer's time is counted from its send (counted from when it was due, a pause of this
 * client's own collector counted against the server). p99 and the largest, in ms.
 */
async function paced(url, count, perSecond) {
  const warmUp = 200;
  count += warmUp;
  const carts = Array.from({ length: count }, cartMaker(5));
  const pool = new Pool(url, { connections: concurrency });
  const times = [];
  const answers = [];
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const due = started + (index * 1000) / perSecond;
    const wait = due - performance.now();
    // Every send yields first, so that the answers before it are read as they come.
    await new Promise((resolve) => (wait >= 1 ? setTimeout(resolve, wait) : setImmediate(resolve)));
    const sent = performance.now();
    answers.push(
      pool
        .request({
          path: '/tax',
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: carts[index],
        })
        .then(async (answer) => {
          await answer.body.text();
          if (answer.statusCode !== 200) throw new Error(`HTTP ${answer.statusCode}`);
          // The first answers open the pool's connections: not counted.
          if (index >= warmUp) times.push(performance.now() - sent);
        }),
    );
  }
  await Promise.all(answers);
  await pool.close();
  times.sort((a, b) => a - b);
  return { p99: times[Math.floor(times.length * 0.99)] ?? 0, max: times.at(-1) ?? 0 };
}

/** Part 1 for another build beside this one and the bare server, in alternated rounds (--against). */
async function alternate(tax, bare, rules) {
  const other = await startServer(serveArgs(rules, [], join(against, 'bin', 'b2bctl.js')), env);
  await drive(other.url, 500, { seed: 2 });
  const servers = [
    ['this build', tax],
    [`${against}`, other],
    ['bare http', bare],
  ];
  for (let round = 1; round <= 3; round++) {
    const figures = [];
    for (const [name, server] of servers) {
      const result = await drive(server.url, requests, { seed: 10 + round, pid: server.child.pid });
      const cpu = result.cpuPerRequest === undefined ? '' : `, CPU ${result.cpuPerRequest.toFixed(0)} µs`;
      figures.push(`${name} ${Math.round(result.rate)}/s p99 ${result.p99.toFixed(1)} ms${cpu}`);
    }
    console.log(`  round ${round} (load average ${loadavg()[0].toFixed(2)}): ${figures.join('; ')}`);
  }
  await other.stop();
}

/** An ERP answering every POST after `delayMs` (never, when undefined), for a process of its own. */
/**
 * An ERP answering every POST after its delay, or never; `GET /delay?ms=N|never` sets the delay (0 at first), so a
 * server can be warmed by a prompt ERP and then measured against a slow one.
 */
const erpServer = `
  let delayMs = 0;
  const server = require('node:http').createServer((request, response) => {
    if (request.method === 'GET') {
      const ms = new URL(request.url, 'http://erp').searchParams.get('ms');
      delayMs = ms === 'never' ? undefined : Number(ms);
      return response.end('ok');
    }
    request.resume();
    if (delayMs === undefined) return;
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'), delayMs);
  });
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;

/**
 * A bare node http server shaped as `tax serve` with an ERP that never answers (the baseline of part 3): it reads
 * each cart, answers the first `held` of them with `body` when `budgetMs` have passed since each came, and every
 * later one at once, as `tax serve` does once its ERP has 64 requests open. `GET /reset` counts from 0 again (after
 * a warm-up).
 */
const budgetServer = (body, budgetMs, held) => `
  const body = ${JSON.stringify(body)};
  let waiting = 0;
  const server = require('node:http').createServer((request, response) => {
    const came = performance.now();
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (request.method === 'GET') {
      waiting = 0;
      return response.end('ok');
    }
    request.resume();
    request.on('end', () =>
      waiting++ < ${held} ? setTimeout(answer, ${budgetMs} - (performance.now() - came)) : answer(),
    );
  });
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;

/**
 * A bare node http server answering `body` to every request once it has read it: drained unread (part 1's baseline),
 * or with `parses`, collected and read with JSON.parse (the ceiling of any server that reads the cart).
 */
const bareServer = (body, { parses }) => `
  const body = ${JSON.stringify(body)};
  const server = require('node:http').createServer((request, response) => {
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (!${parses}) {
      request.resume();
      return request.on('end', answer);
    }
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      answer();
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;

/**
 * The plainest server that does the callback's work (part 1's baseline of the same work): the carts read with
 * JSON.parse, the table held in a Map by NCM and sale, the taxes the bench's carts (a taxpayer's) need in doubles
 * rounded to centavos (IPI, own ICMS, ICMS-ST with the adjusted MVA between states), the answer an object of
 * tax serve's shape given to JSON.stringify. No check of the credential, the cart or an
 * amount, no log, no count: less than any callback should do, and the same bytes as tax serve's for the bench's
 * carts (checked on one before the drive).
 */
const plainCallback = (rules) => `
  const rows = new Map();
  for (const line of require('node:fs').readFileSync(${JSON.stringify(rules)}, 'utf8').trim().split('\\n').slice(1)) {
    const [ncm, from, to, buyer, icms, , ipi, mva, destination] = line.split(';');
    const rate = (text) => ({ text: text || '0', value: Number(text || 0) / 100 });
    rows.set(ncm + '|' + from + '|' + to + '|' + buyer, {
      icms: rate(icms), ipi: rate(ipi), mva: Number(mva || 0) / 100, destination: rate(destination),
    });
  }
  const cents = (value) => Math.round(value * 100) / 100;
  const money = (value) => value.toFixed(2);
  const server = require('node:http').createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const cart = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const from = cart.origin.state;
      const to = cart.destination.state;
      const taxpayer = cart.customer.paysIcms === true;
      const sale = '|' + from + '|' + to + '|' + (taxpayer ? 'taxpayer' : 'non-taxpayer');
      // No DIFAL nor FCP: the bench's carts are a taxpayer's.
      const totals = { merchandise: 0, ipi: 0, icms: 0, icmsSt: 0, difal: 0, fcp: 0, added: 0 };
      const items = cart.items.map((item) => {
        const row = rows.get(item.ncm + sale);
        const merchandise = cents(item.quantity * item.unitPrice - (item.discount ?? 0));
        const operation = cents(merchandise + (item.freight ?? 0));
        const ipi = cents(operation * row.ipi.value);
        const icmsBase = taxpayer ? operation : cents(operation + ipi);
        const icms = cents(icmsBase * row.icms.value);
        const answer = { sku: item.sku, ncm: item.ncm, merchandise: money(merchandise),
          ipi: { base: money(operation), rate: row.ipi.text, value: money(ipi) },
          icms: { base: money(icmsBase), rate: row.icms.text, value: money(icms) }, added: '' };
        let added = ipi;
        if (taxpayer && row.mva > 0) {
          const mva = from === to ? row.mva : (1 + row.mva) * (1 - row.icms.value) / (1 - row.destination.value) - 1;
          const base = cents((operation + ipi) * (1 + mva));
          const value = Math.max(0, cents(base * row.destination.value - icms));
          const shownMva = String(Math.round(mva * 1e4) / 100);
          answer.icmsSt = { base: money(base), rate: row.destination.text, value: money(value), mva: shownMva };
          totals.icmsSt += value;
          added += value;
        }
        answer.added = money(added);
        totals.merchandise += merchandise;
        totals.ipi += ipi;
        totals.icms += icms;
        totals.added += added;
        return answer;
      });
      const summed = {};
      for (const [name, value] of Object.entries(totals)) summed[name] = money(value);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, totals: summed }));
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`;

/** A round's share of the bare server's rate that tax serve reached. */
const shareOfBare = (round) => round.ours.rate / round.baseline.rate;

/** The servers' CPU per request, where /proc tells it. */
const cpuShown = (ours, baseline) =>
  ours.cpuPerRequest === undefined || baseline.cpuPerRequest === undefined
    ? ''
    : `; server CPU a request ${ours.cpuPerRequest.toFixed(0)} µs, bare ${baseline.cpuPerRequest.toFixed(0)} µs`;

const serveArgs = (rules, extra = [], launcher = cli) => [
  launcher,
  'tax',
  'serve',
  '--rules',
  rules,
  '--auth',
  'bearer',
  '--port',
  '0',
  ...extra,
];

try {
  console.log(
    `tax serve benchmarks (Node ${process.version}${quick ? ', quick' : ''}; concurrency ${concurrency}, 50 items a request; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
  );

  const small = join(folder, 'impostos.csv');
  writeTable(small, 4_000, 12);

  if (parts.has('table')) {
    // 1. Answers from the table against a bare server answering a body of the same size.
    const tax = await startServer(serveArgs(small), env);
    const answerBody = await answerOf(tax.url);
    const bare = await startServer(['-e', bareServer(answerBody, { parses: false })], env);
    // The least any callback does beside the bare server: read each cart as JSON. Its share of the bare server's
    // rate is the ceiling of any server that reads the cart, on this machine with the client beside it.
    const parsing = await startServer(['-e', bareServer(answerBody, { parses: true })], env);
    // The same work in the plainest code: what the 80% asks of any server that answers the cart, on this machine.
    const plain = await startServer(['-e', plainCallback(small)], env);
    const plainAnswer = await answerOf(plain.url);
    const sameAnswer =
      plainAnswer === answerBody ? 'the same answer' : `NOT the same answer (${plainAnswer.length} bytes)`;
    await drive(tax.url, 500, { seed: 2 });
    await drive(bare.url, 500, { seed: 2 });
    await drive(parsing.url, 500, { seed: 2 });
    await drive(plain.url, 500, { seed: 2 });
    // Three rounds, each driving the four servers in turn: this machine's speed swings within a minute, and one drive
    // of each could fall in different spells (a --quick run read 86% once, its bare server driven in a slow one).
    // Each round's shares are of that round's bare server; the figures below are the middle round's by tax serve's.
    const servers = { ours: tax, baseline: bare, parsed: parsing, plainly: plain };
    const rounds = [];
    for (let round = 1; round <= 3; round++) {
      const figures = {};
      for (const [name, server] of Object.entries(servers))
        figures[name] = await drive(server.url, requests, { seed: 2 + round, pid: server.child.pid });
      rounds.push(figures);
      const shown = (name, label) => {
        const { rate, cpuPerRequest } = figures[name];
        const share = name === 'baseline' ? '' : ` (${((rate / figures.baseline.rate) * 100).toFixed(0)}%)`;
        return `${label} ${Math.round(rate)}/s${share}${cpuPerRequest === undefined ? '' : `, ${cpuPerRequest.toFixed(0)} µs`}`;
      };
      console.log(
        `  round ${round} (load average ${loadavg()[0].toFixed(2)}): ${shown('ours', 'tax serve')}; ${shown('baseline', 'bare')}; ${shown('parsed', 'parsing')}; ${shown('plainly', 'plain callback')}`,
      );
    }
    const { ours, baseline, parsed, plainly } = rounds.toSorted((a, b) => shareOfBare(a) - shareOfBare(b))[1];
    await parsing.stop();
    await plain.stop();
    const shareOf = (figures) =>
      `${Math.round(figures.rate)}/s, ${((figures.rate / baseline.rate) * 100).toFixed(0)}% of the bare server's rate${
        figures.cpuPerRequest === undefined ? '' : `, server CPU a request ${figures.cpuPerRequest.toFixed(0)} µs`
      }`;
    console.log(
      `  a bare server that also parses each cart (JSON.parse, the least a callback does): ${shareOf(parsed)}`,
    );
    console.log(
      `  a plain callback doing the same work (JSON.parse, a Map of rows, doubles, JSON.stringify; ${sameAnswer}): ${shareOf(plainly)}; tax serve ${(ours.rate / plainly.rate).toFixed(2)}× its rate`,
    );
    // The answer time at a steady pace below saturation. With 32 connections each sending its next cart at once,
    // an answer's time is mostly the queue before it (Little's law: 32 / rate, so p99 <= 5 ms needs 6,400 answers/s
    // or more, above the bare server's own rate on two cores): at saturation the p99 measures the rate, not the
    // answer. 1,000 carts a second is well above a store's checkouts and below either server's limit.
    const pacedCount = quick ? 3_000 : 10_000;
    const steady = await paced(tax.url, pacedCount, 1_000);
    const steadyBare = await paced(bare.url, pacedCount, 1_000);
    if (against !== undefined) await alternate(tax, bare, small);
    await bare.stop();
    await tax.stop();
    const share = ours.rate / baseline.rate;
    allOk =
      verdict(
        'tax serve, 50 items, from the table',
        `${Math.round(ours.rate)} answers/s, p99 ${ours.p99.toFixed(1)} ms; bare http ${Math.round(baseline.rate)}/s, p99 ${baseline.p99.toFixed(1)} ms: ${(share * 100).toFixed(0)}%, the middle of three rounds (target >= 80%)${cpuShown(ours, baseline)}`,
        share >= 0.8 && ours.notOk === 0,
      ) && allOk;
    allOk =
      verdict(
        'tax serve, 50 items, 1,000 carts/s',
        `p99 ${steady.p99.toFixed(1)} ms, largest ${steady.max.toFixed(1)} ms; bare http p99 ${steadyBare.p99.toFixed(1)} ms, largest ${steadyBare.max.toFixed(1)} ms (target p99 <= 5 ms)`,
        steady.p99 <= 5,
      ) && allOk;
  }

  if (parts.has('reload')) {
    // 2. A 100,000-row table replaced under load.
    const large = join(folder, 'grande.csv');
    writeTable(large, 100_000, 12);
    const reloading = await startServer(serveArgs(large), env);
    const swapped = await drive(reloading.url, requests, {
      during: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        writeTable(large, 100_000, 7);
        while (!/reloaded: 100000 rows/.test(reloading.stderr()))
          await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    await reloading.stop();
    const failed = swapped.notOk;
    allOk =
      verdict(
        '100,000-row table replaced under load',
        `${failed} of ${requests} requests not 200; p99 ${swapped.p99.toFixed(1)} ms, largest ${swapped.max.toFixed(0)} ms over the run (target: none failed)`,
        failed === 0,
      ) && allOk;
  }

  if (parts.has('forward')) {
    // 3. --forward-to an ERP that answers in 200 ms, 2 s, never; the budget is 300 ms. Each server is first warmed by
    // the ERP answering at once, as a server that has been up is (a fresh process's first answers run through code
    // not yet compiled: that burst is shown apart); then the ERP slows down and the figures are taken.
    const erp = await startServer(['-e', erpServer], env);
    const erpDelay = async (ms) => (await fetch(`${erp.url}/delay?ms=${ms ?? 'never'}`)).text();
    // The baseline, driven as the servers are: a bare server that answers the first 64 carts at the budget, to the
    // millisecond, and the rest at once, with a body of the answers' size. What its largest answer takes over 300 ms
    // at this client is the client's and the machine's (32 answers due in the same millisecond are read one after
    // the other by one JavaScript thread), not the server's: the target's 10 ms are the server's share.
    const sample = await startServer(serveArgs(small), env);
    const sampleAnswer = await answerOf(sample.url);
    await sample.stop();
    const atBudget = await startServer(['-e', budgetServer(sampleAnswer, 300, 64)], env);
    await drive(atBudget.url, quick ? 2_000 : 10_000);
    await fetch(`${atBudget.url}/reset`);
    const bare = await drive(atBudget.url, quick ? 300 : 1_000, { pid: atBudget.child.pid, madeFirst: true });
    await atBudget.stop();
    console.log(
      `  baseline: a bare server answering the first 64 carts at 300 ms and the rest at once: largest answer ${bare.max.toFixed(0)} ms at this client`,
    );
    for (const [name, delayMs] of [
      ['200 ms', 200],
      ['2 s', 2_000],
      ['never', undefined],
    ]) {
      await erpDelay(0);
      const forwarding = await startServer(
        serveArgs(small, ['--forward-to', `${erp.url}/impostos`, '--budget', '300ms']),
        env,
      );
      const cold = await drive(forwarding.url, 64);
      await drive(forwarding.url, quick ? 2_000 : 10_000);
      await erpDelay(delayMs);
      const figures = await drive(forwarding.url, quick ? 300 : 1_000, { pid: forwarding.child.pid, madeFirst: true });
      await forwarding.stop();
      // Those that waited for the ERP or the budget, and those answered at once while the ERP had its limit of
      // requests open.
      const waited = figures.times.filter((ms) => ms >= 100);
      const atOnce = figures.times.filter((ms) => ms < 100);
      // Past the budget, the server's share: its largest answer beside the bare server's at the budget.
      const overBare = delayMs === 200 ? undefined : figures.max - bare.max;
      allOk =
        verdict(
          `--forward-to, ERP answering in ${name}`,
          `largest answer ${figures.max.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms for a 300 ms budget (target: <= 310 ms${overBare === undefined ? '' : `; ${overBare >= 0 ? '+' : ''}${overBare.toFixed(0)} ms beside the bare server's ${bare.max.toFixed(0)} ms, target <= +10 ms`}); ${waited.length} waited (largest ${Math.max(0, ...waited).toFixed(0)} ms), ${atOnce.length} answered at once (largest ${Math.max(0, ...atOnce).toFixed(0)} ms); a fresh server's first burst ${cold.max.toFixed(0)} ms${figures.cpuPerRequest === undefined ? '' : `; server CPU a request ${figures.cpuPerRequest.toFixed(0)} µs`}`,
          (figures.max <= 310 || (overBare !== undefined && overBare <= 10)) && figures.notOk === 0,
        ) && allOk;
    }
    await erp.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
