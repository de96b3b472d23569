// Makes test/fixtures/inbox/v1/inbox.sqlite: an inbox written by a release of b2bctl through its own commands, so
// that the migration test opens what a user's disk holds, not what today's code believes an old inbox was.
// Two runs of the given release's `webhook listen`, events sent by its own `webhook trigger`:
//   1. hand-off `erp` (--forward-to a local ERP): customers 1-5 delivered, except customer 3, which the ERP answers
//      422 and so becomes a dead letter;
//   2. hand-off `archive` (--exec, created at the newest event) while `erp` has no target: orders 6 and 7 go to
//      `archive` only, so `erp` stays at event 5 with two events pending.
// Usage: node scripts/make-inbox-fixture.mjs <b2bctl-bin.js of the release> <output folder>
// (the release of commit c8613bd: git worktree add /tmp/inbox-old c8613bd, its node_modules, node scripts/build.mjs)
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [bin, output] = process.argv.slice(2);
if (!bin || !output) {
  console.error('Usage: node scripts/make-inbox-fixture.mjs <b2bctl-bin.js> <output folder>');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'b2bctl-inbox-fixture-'));
const inbox = join(work, 'inbox');
const environment = {
  ...process.env,
  B2BCTL_CONFIG_DIR: join(work, 'config'),
  B2BCTL_WEBHOOK_CLIENT_SECRET: 'fixture-secret-of-at-least-thirty-two-characters',
  NO_COLOR: '1',
};
const ceilingMs = 60_000;

/** The ERP: 422 for customer 3 (a permanent refusal), 200 for the others; keeps the ids it took. */
async function startErp() {
  const taken = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const id = JSON.parse(body).id;
      taken.push(id);
      response.writeHead(id === 3 ? 422 : 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, taken, close: () => server.close() };
}

/** Starts `webhook listen` and resolves with its URL once it prints it. */
function listen(handOffFlags) {
  const child = spawn(
    process.execPath,
    [bin, 'webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', inbox, ...handOffFlags],
    { env: environment, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  child.stderr.on('data', (chunk) => (printed += chunk));
  const url = new Promise((found, failed) => {
    child.stdout.on('data', (chunk) => {
      printed += chunk;
      const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(printed);
      if (match) found(match[0]);
    });
    child.on('exit', (code) => failed(new Error(`webhook listen exited ${code}: ${printed}`)));
  });
  const stopped = new Promise((done) => child.on('exit', done));
  return { url, stop: () => (child.kill('SIGTERM'), stopped) };
}

function trigger(url, kind, event) {
  const file = join(work, `${kind}-${event.id}.json`);
  writeFileSync(file, JSON.stringify(event));
  execFileSync(
    process.execPath,
    [bin, 'webhook', 'trigger', kind, '--url', url, '--client-id', 'erp', '--data', file],
    {
      env: environment,
      stdio: 'ignore',
    },
  );
}

/** Waits until every hand-off in /healthz has nothing pending. */
async function drained(url, handOffs) {
  const until = Date.now() + ceilingMs;
  while (Date.now() < until) {
    const health = await (await fetch(`${url}/healthz`)).json();
    const listed = health.handOffs.filter((handOff) => handOffs.includes(handOff.name));
    if (listed.length === handOffs.length && listed.every((handOff) => handOff.pending === 0)) return health;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`hand-offs ${handOffs.join(', ')} still pending after ${ceilingMs} ms`);
}

const erp = await startErp();
try {
  const first = listen(['--forward-to', erp.url, '--handoff', 'erp', '--give-up-after', '1m']);
  const firstUrl = await first.url;
  for (const id of [1, 2, 3, 4, 5])
    trigger(firstUrl, 'customers', { id, name: `Cliente ${id}`, document: '52998224725', email: `c${id}@example.com` });
  const health = await drained(firstUrl, ['erp']);
  if (health.handOffs[0].dead !== 1) throw new Error(`expected one dead letter: ${JSON.stringify(health)}`);
  await first.stop();

  const second = listen(['--exec', 'cat > /dev/null', '--handoff', 'archive']);
  const secondUrl = await second.url;
  for (const id of [6, 7])
    trigger(secondUrl, 'orders', { id, number: `PED-${id}`, status: 'new', lastUpdated: '2026-11-27T10:00:00Z' });
  await drained(secondUrl, ['archive']);
  await second.stop();

  mkdirSync(output, { recursive: true });
  // The receiver stopped cleanly, so the write-ahead log was written back into the file and removed.
  for (const suffix of ['-wal', '-shm']) if (existsSync(join(inbox, `inbox.sqlite${suffix}`))) throw new Error(suffix);
  copyFileSync(join(inbox, 'inbox.sqlite'), join(resolve(output), 'inbox.sqlite'));
  console.log(`ERP took ${erp.taken.join(', ')}; wrote ${join(output, 'inbox.sqlite')}`);
} finally {
  erp.close();
  rmSync(work, { recursive: true, force: true });
}
