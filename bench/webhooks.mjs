// Webhook receiver benchmarks of issue 13, each figure beside a baseline measured in the same run:
//   1. events/s and p99 of acknowledged events at concurrency 32, `webhook listen` fsyncing before each answer with
//      group commit, against a bare node http server on the same machine answering 200 without writing
//      (target: >= 40% of its rate, p99 < 50 ms), and against the same receiver fsyncing each event on its own;
//   2. RSS of a receiver after taking many events (target: flat, the later figure within 1.2x of the earlier).
// Usage: npm run bench:webhooks [-- --quick] [-- --memory-events N]   (--quick: 3,000 events per rate run, 40,000 for
// memory; the figure is --memory-events 1000000)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { benchEnv, cli, megabytes, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const rateEvents = quick ? 3_000 : 10_000;
const memoryOption = process.argv.indexOf('--memory-events');
const memoryEvents = memoryOption > 0 ? Number(process.argv[memoryOption + 1]) : quick ? 40_000 : 200_000;
const concurrency = 32;
const secret = 'bench-secret';
/** One figure line: events per second and the 99th percentile of answer times. */
const line = (figures) => `${Math.round(figures.rate)} events/s, p99 ${figures.p99.toFixed(1)} ms`;
let allOk = true;

const bareServer = `
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"stored"}'));
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

/** Starts a server process and resolves with its URL (its first stdout line); later stdout is drained. */
function startServer(args, env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ url: text.slice(0, newline), child, stop: () => stop(child) });
    };
    child.stdout.on('data', onData);
    child.on('close', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('close');
    child.on('close', resolve);
    child.kill('SIGTERM');
  });
}

async function tokenOf(url) {
  const answer = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
    body: JSON.stringify({ clientId: 'bench', clientSecret: secret }),
  });
  return (await answer.json()).access_token;
}

/** Sends `count` distinct orders events with `concurrency` in flight; events/s and latency percentiles. */
async function drive(url, token, count, firstId = 1) {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const id = firstId + next++;
      const body = JSON.stringify({
        id,
        orderId: id,
        status: 'AWAITING_PAYMENT',
        approvalWorkflow: false,
        workflowIsApproved: false,
        dateCreated: '2026-11-23T06:00:00.000Z',
        lastUpdated: '2026-11-23T06:00:00.000Z',
        partnerCompanyName: 'Comercial Exemplo Ltda',
        partnerDocument: '11.222.333/0001-81',
      });
      const sent = performance.now();
      const answer = await pool.request({
        method: 'POST',
        path: '/webhooks/orders',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      await answer.body.text();
      if (answer.statusCode !== 200) throw new Error(`HTTP ${answer.statusCode}`);
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rate: count / seconds, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

console.log(
  `webhook receiver benchmarks (Node ${process.version}${quick ? ', quick' : ''}; concurrency ${concurrency})`,
);
const { env, cleanup } = benchEnv({ B2BCTL_WEBHOOK_CLIENT_SECRET: secret });
const inboxes = [];
const listen = (extra = []) => {
  const inbox = mkdtempSync(join(tmpdir(), 'b2bctl-bench-inbox-'));
  inboxes.push(inbox);
  return startServer(
    [cli, 'webhook', 'listen', '--port', '0', '--client-id', 'bench', '--inbox', inbox, ...extra],
    env,
  );
};
try {
  const bare = await startServer(['-e', bareServer], env);
  await drive(bare.url, 'none', 500); // warm-up
  const bareFigures = await drive(bare.url, 'none', rateEvents);
  await bare.stop();

  const grouped = await listen();
  const groupedToken = await tokenOf(grouped.url);
  await drive(grouped.url, groupedToken, 500, 10_000_000);
  const groupedFigures = await drive(grouped.url, groupedToken, rateEvents);
  await grouped.stop();

  const single = await listen(['--no-group-commit']);
  const singleToken = await tokenOf(single.url);
  await drive(single.url, singleToken, 200, 10_000_000);
  const singleFigures = await drive(single.url, singleToken, Math.min(rateEvents, 2_000));
  await single.stop();

  const share = groupedFigures.rate / bareFigures.rate;
  console.log(`bare node http (no write)                    ${line(bareFigures)}`);
  console.log(`listen, fsync per event (no group commit)    ${line(singleFigures)}`);
  allOk =
    verdict(
      'listen, group commit vs bare node http',
      `${line(groupedFigures)}: ${(share * 100).toFixed(0)}% of bare (target >= 40%), ${(groupedFigures.rate / singleFigures.rate).toFixed(1)}x per-event fsync; p99 target < 50 ms`,
      share >= 0.4 && groupedFigures.p99 < 50,
    ) && allOk;

  const long = await listen();
  const longToken = await tokenOf(long.url);
  const early = Math.round(memoryEvents / 5);
  await drive(long.url, longToken, early);
  const rssEarly = rssOf(long.child.pid);
  await drive(long.url, longToken, memoryEvents - early, early + 1);
  const rssLate = rssOf(long.child.pid);
  await long.stop();
  allOk =
    verdict(
      `RSS after ${memoryEvents} vs ${early} events`,
      `${megabytes(rssLate)} vs ${megabytes(rssEarly)}: ${(rssLate / rssEarly).toFixed(2)}x (target <= 1.2x)`,
      rssLate / rssEarly <= 1.2,
    ) && allOk;
} finally {
  for (const inbox of inboxes) rmSync(inbox, { recursive: true, force: true });
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
