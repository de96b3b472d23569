/** `b2bctl tax serve`'s refusals at start, in process: no credential in argv, none missing, no open door. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/tax/cli.js';
import { run, type TaxServeOptions } from '../../../src/commands/tax/serve.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { parseWithGroup } from '../../support/parse-group.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

const serve = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(['tax', 'serve', '--rules', 'impostos.csv', '--port', '0', ...args], {
    configDir: freshConfigDir(),
    env,
  });

describe('tax serve at start', () => {
  it.each([
    [
      ['--auth', 'bearer'],
      {},
      '--auth bearer needs B2BCTL_TAX_TOKEN, at least 32 characters (make one with: openssl rand -hex 32)',
    ],
    [
      ['--auth', 'bearer'],
      { B2BCTL_TAX_TOKEN: 'short' },
      '--auth bearer needs B2BCTL_TAX_TOKEN, at least 32 characters',
    ],
    [
      ['--auth', 'basic'],
      { B2BCTL_TAX_USER: 'plataforma' },
      '--auth basic needs B2BCTL_TAX_USER and B2BCTL_TAX_PASSWORD',
    ],
    [
      ['--auth', 'none', '--host', '0.0.0.0'],
      {},
      '--auth none answers anyone who reaches 0.0.0.0: use it on 127.0.0.1 only',
    ],
    [
      ['--auth', 'token'],
      { B2BCTL_TAX_CLIENT_SECRET: 'x'.repeat(32) },
      '--auth token needs the client id the platform will use: --client-id ID (or the tax.clientId setting).',
    ],
    [
      ['--auth', 'token', '--client-id', 'plataforma'],
      {},
      'No client secret for tax serve --auth token: set B2BCTL_TAX_CLIENT_SECRET or pass --client-secret-file FILE (never the secret itself on the command line).',
    ],
    [
      ['--auth', 'token', '--client-id', 'plataforma'],
      { B2BCTL_TAX_CLIENT_SECRET: 'curto' },
      'The client secret of tax serve has 5 characters; its token endpoint needs at least 32, so it cannot be guessed. Make one with: openssl rand -hex 32 > tax-secret',
    ],
    [
      ['--auth', 'none', '--proxy-header', 'forwarded'],
      {},
      '--proxy-header is read only from trusted proxies: give them with --trust-proxy too.',
    ],
    [
      ['--auth', 'none', '--forward-to', 'https://erp:Senha%231@erp.example.com/tax'],
      {},
      '--forward-to holds a user (user:password@), which tax serve does not send: leave it out of the URL and set B2BCTL_TAX_FORWARD_TOKEN, sent as Authorization: Bearer.',
    ],
  ])('%j with %j is refused before anything is read or listened on (exit 2)', async (args, env, message) => {
    const result = await serve(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  it('--auth token with a secret file that is not there: exit 66 naming it, nothing listened on', async () => {
    const result = await serve([
      '--auth',
      'token',
      '--client-id',
      'plataforma',
      '--client-secret-file',
      'no-such-file',
    ]);
    expect(result.code).toBe(66);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Cannot read the client secret file no-such-file (ENOENT).');
  });

  it('reads the shape file from the tax.shape setting when --shape is not given', async () => {
    const folder = temporaryFolder('b2bctl-tax-shape-setting-');
    writeFileSync(join(folder, 'shape.json'), '{"answer":{"items":"a b"}}');
    const result = await serve(['--auth', 'none'], { B2BCTL_TAX_SHAPE: join(folder, 'shape.json') });
    removeTemporaryFolders();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answer.items must be a dot path such as cart.items');
  });

  it('refuses a shape file that cannot carry a required value (exit 2), naming the key', async () => {
    const folder = temporaryFolder('b2bctl-tax-shape-');
    writeFileSync(join(folder, 'shape.json'), '{"request":{"ncm":null}}');
    const result = await serve(['--auth', 'none', '--shape', join(folder, 'shape.json')]);
    removeTemporaryFolders();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'request.ncm must be a dot path such as cart.items (it cannot be left out: every answer needs it)',
    );
  });
});

const fixtures = join(__dirname, '..', '..', 'fixtures', 'tax');
afterAll(removeTemporaryFolders);

/** `tax serve ARGS` on the fixture table, in process, started and stopped at once: what it wrote on stderr. */
async function startedAndStopped(args: string[], env: Record<string, string>): Promise<string> {
  const rules = join(fixtures, 'impostos-libreoffice.csv');
  const map = join(fixtures, 'impostos.map.json');
  const options = (await parseWithGroup(register, [
    'tax',
    'serve',
    '--rules',
    rules,
    '--map',
    map,
    '--port',
    '0',
    ...args,
  ])) as TaxServeOptions;
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), ...env } });
  const running = run(options, memory.context);
  await memory.firstLine();
  memory.interrupt();
  await running;
  return memory.stderr();
}

describe('tax serve on an address other machines reach', () => {
  const bearer = { B2BCTL_TAX_TOKEN: 't'.repeat(32) };

  it('warns, as the sandbox and the receiver do, that its credential and carts cross the network in clear', async () => {
    expect(await startedAndStopped(['--auth', 'bearer', '--host', '0.0.0.0'], bearer)).toContain(
      "warning: tax serve listens on 0.0.0.0, reachable from other machines: over plain HTTP, the platform's credential and its customers' carts cross the network in clear. Give --host 127.0.0.1 behind a TLS proxy on this machine.",
    );
    expect(await startedAndStopped(['--auth', 'bearer'], bearer)).not.toContain('warning:');
  });
});

describe('tax serve --forward-to with a credential in the URL', () => {
  it('a key in the query is sent, and warned of: the process list shows it', async () => {
    const stderr = await startedAndStopped(
      ['--auth', 'bearer', '--forward-to', 'https://erp.example.com/tax?api_key=chave-secreta'],
      { B2BCTL_TAX_TOKEN: 't'.repeat(32) },
    );
    expect(stderr).toContain(
      "warning: --forward-to puts the ERP's credential (the URL's key) in the process list and shell history; leave it out of the URL and set B2BCTL_TAX_FORWARD_TOKEN, sent as Authorization: Bearer.",
    );
    expect(stderr).not.toContain('chave-secreta');
  });
});
