// The demo: start the sandbox on a free port, log in to a throwaway profile, list sales reps.
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

const sandbox = spawn(process.execPath, [cli, 'sandbox', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const baseUrl = await new Promise((resolve, reject) => {
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  createInterface({ input: sandbox.stdout }).once('line', resolve);
});

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
  step('Deactivate one of them', ['customer', 'status', '100.799.819-92', 'inactive', '-o', 'table']);
  step('Push the nightly stock and price file (decimal commas) through the 50-item route', [
    'stock',
    'push',
    join(work, 'stock.csv'),
  ]);
} finally {
  sandbox.kill('SIGINT');
  rmSync(configDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
