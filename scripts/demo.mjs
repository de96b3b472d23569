// The demo: start the sandbox on a free port, log in to a throwaway profile, list sales reps, import customers and
// stock, and watch the customers webhooks arrive at `b2bctl webhook listen`.
// Every step runs the real b2bctl binary, exactly as a user would type it.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const cli = join(import.meta.dirname, '..', 'bin', 'b2bctl.js');
const configDir = mkdtempSync(join(tmpdir(), 'b2bctl-demo-'));
// The bulk commands write their reports beside the input: work on copies, not on samples/.
const work = mkdtempSync(join(tmpdir(), 'b2bctl-demo-files-'));
for (const name of ['customers-excel.csv', 'customers.json', 'stock.csv'])
  copyFileSync(join(import.meta.dirname, '..', 'samples', name), join(work, name));
const env = { ...process.env, B2BCTL_CONFIG_DIR: configDir, B2BCTL_PROFILE: 'demo' };
for (const name of ['B2BCTL_BASE_URL', 'B2BCTL_TOKEN', 'B2BCTL_USERNAME', 'B2BCTL_PASSWORD']) delete env[name];

// The receiver and the sandbox share the webhook client secret through the environment, never argv.
env.B2BCTL_WEBHOOK_CLIENT_SECRET = 'demo-webhook-secret-0123456789abcdef';
const inbox = join(work, 'inbox');

/** Starts a long-running b2bctl server and resolves with the URL it prints first; later lines go to `onLine`. */
function serve(args, onLine = () => undefined) {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`b2bctl ${args[0]} exited with ${code}`)));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (first) => {
      resolve(first);
      lines.on('line', onLine);
    });
  });
  return { child, url };
}

const receiver = serve(
  ['webhook', 'listen', '--port', '0', '--client-id', 'demo-erp', '--inbox', inbox, '-o', 'table'],
  (line) => process.stderr.write(`  [webhook listen] ${line}\n`),
);
const receiverUrl = await receiver.url;
const sandboxServer = serve([
  'sandbox',
  '--port',
  '0',
  '--webhook-url',
  receiverUrl,
  '--webhook-client-id',
  'demo-erp',
  '--webhook-style',
  'body',
]);
const sandbox = sandboxServer.child;
const baseUrl = await sandboxServer.url;

/** Waits until the sandbox has attempted every webhook delivery it queued. */
async function webhooksSettled() {
  for (let attempt = 0; attempt < 100; attempt++) {
    const deliveries = await (await fetch(`${baseUrl}/_sandbox/webhook-deliveries`)).json();
    if (deliveries.every((delivery) => delivery.status !== 'pending')) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('webhook deliveries still pending');
}

let failed = false;
function step(title, args, input) {
  process.stderr.write(`\n# ${title}\n$ b2bctl ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [cli, ...args], {
    env,
    input,
    stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) {
    process.stderr.write(`(exit ${result.status})\n`);
    failed = true;
  }
}

try {
  step(
    'Log in with the sandbox integration user (password piped on stdin)',
    ['login', '--base-url', baseUrl, '--username', 'integration@sandbox.test', '--password-stdin'],
    'sandbox-secret\n',
  );
  step('Who am I?', ['whoami', '-o', 'table']);
  step('Sales reps whose e-mail contains "silva"', ['sellers', 'list', '--email', 'silva', '-o', 'table']);
  step('Every page (--all), 5 per request, for e-mails containing "ana"', [
    'sellers',
    'list',
    '--email',
    'ana',
    '--all',
    '--limit',
    '5',
    '-o',
    'table',
  ]);
  step('Check a customer spreadsheet as pt-BR Excel saves it (Windows-1252, semicolons), sending nothing', [
    'customer',
    'validate',
    join(work, 'customers-excel.csv'),
  ]);
  step('Import it', ['customer', 'create', join(work, 'customers-excel.csv')]);
  step('Import a JSON export too', ['customer', 'create', join(work, 'customers.json')]);
  const deliveries = await webhooksSettled();
  process.stderr.write(
    `\n# The sandbox sent ${deliveries.length} customers webhooks (token first, then the event); the receiver stored them in its inbox:\n`,
  );
  step("Events in the receiver's inbox (each fsynced before its 2xx)", [
    'webhook',
    'inbox',
    '--inbox',
    inbox,
    '-o',
    'table',
  ]);
  step('Deactivate one of them', ['customer', 'status', '100.799.819-92', 'inactive', '-o', 'table']);
  step('Push the nightly stock and price file (decimal commas) through the 50-item route', [
    'stock',
    'push',
    join(work, 'stock.csv'),
  ]);
  step('Poll the orders updated in the last day (the first run of a profile says where to start)', [
    'orders',
    'poll',
    '--since',
    '1d',
    '-o',
    'table',
  ]);
  step('Poll again, as cron would a minute later: only order versions not emitted yet', [
    'orders',
    'poll',
    '-o',
    'table',
  ]);
} finally {
  sandbox.kill('SIGINT');
  receiver.child.kill('SIGTERM');
  await new Promise((resolve) => receiver.child.once('exit', resolve));
  // The throwaway profile holds a token: it goes. The files are kept, since the steps above printed
  // their paths (reports, errors files, the inbox) for the reader to open.
  rmSync(configDir, { recursive: true, force: true });
  process.stderr.write(
    `\n# The reports, errors files and webhook inbox above are kept in ${work} (delete it when done).\n`,
  );
}
process.exitCode = failed ? 1 : 0;
