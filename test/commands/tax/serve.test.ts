/** `b2bctl tax serve`'s refusals at start, in process: no credential in argv, none missing, no open door. */
import { copyFileSync, lchownSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { register } from '../../../src/commands/tax/cli.js';
import { run, type TaxServeOptions } from '../../../src/commands/tax/serve.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { parseWithGroup } from '../../support/parse-group.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { type ErpAnswer, standInErp } from '../../support/stand-in-erp.js';
import { saleFlags } from '../../support/tax-sale.js';
import { testContext } from '../../support/test-context.js';

const serve = (args: string[], env: Record<string, string> = {}) =>
  runCommandLine(['tax', 'serve', '--rules', 'impostos.csv', '--port', '0', ...args], {
    configDir: freshConfigDir(),
    env,
  });

/** A config folder whose profile holds `tok/secret` as its tax.clientSecretFile, written by hand. */
function profileWithRelativeSecretFile(profile: string): string {
  const configDir = freshConfigDir();
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const profiles = { [profile]: { 'tax.clientSecretFile': 'tok/secret' } };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return configDir;
}

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
      'The token in B2BCTL_TAX_TOKEN has 5 characters; tax serve --auth bearer needs at least 32, so it cannot be guessed.',
    ],
    [
      ['--auth', 'basic'],
      { B2BCTL_TAX_USER: 'plataforma' },
      '--auth basic needs B2BCTL_TAX_USER and B2BCTL_TAX_PASSWORD',
    ],
    // Every callback was then 401 "wrong credential", and after ten a 429 for the platform.
    [
      ['--auth', 'basic'],
      { B2BCTL_TAX_USER: 'erp:sp', B2BCTL_TAX_PASSWORD: '1234567890123456' },
      "B2BCTL_TAX_USER holds a ':', which no client can send: in HTTP Basic the first ':' ends the user (RFC 7617). Choose a user without one.",
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
      "No client secret for tax serve --auth token: set B2BCTL_TAX_CLIENT_SECRET, pass --client-secret-file FILE, or name the file in the profile's tax.clientSecretFile setting (b2bctl config set tax.clientSecretFile /path/to/secret); never the secret itself on the command line.",
    ],
    [
      ['--auth', 'token', '--client-id', 'plataforma'],
      { B2BCTL_TAX_CLIENT_SECRET: 'curto' },
      'The client secret of tax serve has 5 characters; its token endpoint needs at least 32, so it cannot be guessed. Make one with: (umask 077; openssl rand -hex 32 > tax-secret)',
    ],
    [
      ['--auth', 'none', '--proxy-header', 'forwarded'],
      {},
      '--proxy-header is read only from trusted proxies: give them with --trust-proxy too.',
    ],
    [
      ['--auth', 'none', '--forward-to', 'https://erp:Senha%231@erp.example.com/tax'],
      { B2BCTL_TAX_FORWARD_TOKEN: 'erp-token' },
      "Give the ERP's credential once: B2BCTL_TAX_FORWARD_TOKEN or the user in the --forward-to URL, not both.",
    ],
    [
      ['--auth', 'none', '--forward-to', 'https://erp.example.com/tax'],
      { B2BCTL_TAX_FORWARD_TOKEN: 'erp-token', B2BCTL_TAX_FORWARD_BASIC: 'erp:Senha#1' },
      "Give the ERP's credential once: B2BCTL_TAX_FORWARD_TOKEN or B2BCTL_TAX_FORWARD_BASIC, not both.",
    ],
    [
      ['--auth', 'none', '--forward-to', 'https://erp.example.com/tax'],
      { B2BCTL_TAX_FORWARD_BASIC: 'Senha#1' },
      'B2BCTL_TAX_FORWARD_BASIC holds no colon: write it user:password, as curl -u takes it.',
    ],
    [
      ['--auth', 'none', '--forward-to', 'http://192.0.2.7/tax'],
      { B2BCTL_TAX_FORWARD_BASIC: 'erp:Senha#1' },
      'Refusing to send the ERP password (B2BCTL_TAX_FORWARD_BASIC) to http://192.0.2.7/tax over plain HTTP',
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

  // The link's owner points it at any file they can read (/etc/machine-id) and then asks tokens (a user test).
  it.skipIf(process.getuid?.() !== 0)(
    "--auth token with a secret file through another user's link: exit 77 naming the link and its owner, nothing listened on (needs root)",
    async () => {
      const target = join(temporaryFolder(), 'machine-id');
      writeFileSync(target, `${'a1'.repeat(16)}\n`, { mode: 0o444 });
      const shared = join(temporaryFolder(), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const link = join(shared, 'taxsecret');
      symlinkSync(target, link);
      lchownSync(link, 65534, 65534);
      const result = await serve(['--auth', 'token', '--client-id', 'plataforma', '--client-secret-file', link]);
      expect(result.code).toBe(77);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `The client secret file ${link} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at any file they can read, and so know the secret\\.`,
        ),
      );
      expect(result.stderr).not.toContain('warning:');
    },
  );

  // A service's folder (systemd's is /) is not the one `config set` ran in: the message said neither where the
  // path came from nor where it was looked for.
  it('a relative tax.clientSecretFile that is not there: exit 66 naming the setting, its profile and the folder', async () => {
    // As a profile edited by hand keeps it (config set stores a relative path absolute).
    const configDir = profileWithRelativeSecretFile('default');
    const result = await runCommandLine(
      ['tax', 'serve', '--rules', 'impostos.csv', '--port', '0', '--auth', 'token', '--client-id', 'plataforma'],
      { configDir },
    );
    expect(result.code).toBe(66);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `Cannot read the client secret file tok/secret (ENOENT), named by the tax.clientSecretFile setting of profile "default", read from ${process.cwd()} as ${join(process.cwd(), 'tok', 'secret')}; set it to the file's absolute path: b2bctl config set tax.clientSecretFile /path/to/secret.`,
    );
  });

  // Following the long-row refusal's advice (end the header with a delimiter) loaded a decimal-comma row shifted.
  it('a comma table whose header ends with a delimiter and whose row a decimal comma split: exit 65, nothing listened on', async () => {
    const folder = temporaryFolder('b2bctl-tax-spare-');
    writeFileSync(
      join(folder, 'adv.csv'),
      'ncm,from,to,buyer,icmsRate,icmsBaseReduction,ipiRate,mva,destinationRate,fcpRate,\n39269090,SP,RJ,taxpayer,12,,6,5,40,20,\n39,SP,SP,taxpayer,18,,6.5,40,18,,\n',
    );
    const result = await runCommandLine(['tax', 'serve', '--rules', 'adv.csv', '--port', '0', '--auth', 'none'], {
      configDir: freshConfigDir(),
      cwd: folder,
    });
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: adv.csv: 1 problem in the tax table, which is not used:\nadv.csv:2: the row fills column 10, the header's last named one, leaves its unnamed column 11 empty and holds whole numbers side by side, as a row does whose decimal comma split a number into two cells (6,5 is 6 and 5) and moved every later value one column right; quote such a number ("6,5"), separate the cells with ; or give b2bctl the workbook (.xlsx) itself (in a comma-separated file whose header ends with a delimiter, such a row cannot be told from a right one)\n`,
    );
  });

  it('a table whose headers an ERP wrote is refused at start without "nothing was sent" (tax serve sends nothing)', async () => {
    const folder = temporaryFolder('b2bctl-tax-headers-');
    writeFileSync(
      join(folder, 'erp.csv'),
      'NCM;UF origem;UF destino;Contribuinte;icmsRate;ipiRate\n39269090;SP;RJ;taxpayer;12;6,5\n',
    );
    const result = await runCommandLine(['tax', 'serve', '--rules', 'erp.csv', '--port', '0', '--auth', 'none'], {
      configDir: freshConfigDir(),
      cwd: folder,
    });
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      '\nerror: erp.csv:1: 3 columns are named as an ERP names them (listed above). Run again with --write-map map.json to save the map and read the file with it, or pass --map with a file holding {"UF origem":"from","UF destino":"to","Contribuinte":"buyer"}.\n',
    );
  });

  // The suggested command had no --profile: pasted as is, it set the default profile and the server failed the same.
  it('a relative tax.clientSecretFile of another profile: the suggested config set names that profile', async () => {
    const configDir = profileWithRelativeSecretFile('tx');
    const result = await runCommandLine(
      [
        'tax',
        'serve',
        '--rules',
        'impostos.csv',
        '--port',
        '0',
        '--auth',
        'token',
        '--client-id',
        'plataforma',
        '--profile',
        'tx',
      ],
      { configDir },
    );
    expect(result.code).toBe(66);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `Cannot read the client secret file tok/secret (ENOENT), named by the tax.clientSecretFile setting of profile "tx", read from ${process.cwd()} as ${join(process.cwd(), 'tok', 'secret')}; set it to the file's absolute path: b2bctl config set tax.clientSecretFile /path/to/secret --profile tx.`,
    );
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

// A user test: a shape file whose JSON was cut stopped with exit 65, one with a wrong part with exit 2; one name for both
// parts of the answer was taken, and every answer then lost its items' taxes.
describe('tax serve with a bad shape file', () => {
  it.each([
    ['JSON cut short', '{"request":{"ncm":"produto.ncm"', 'is not usable: '],
    [
      'one name for both parts of the answer',
      '{"answer":{"items":"x","totals":"x"}}',
      'answer.items and answer.totals are both "x": the answer\'s two parts need two names',
    ],
    [
      'a totals named as the default items',
      '{"answer":{"totals":"items"}}',
      'answer.items and answer.totals are both "items"',
    ],
  ])('refuses %s at start, exit 2, nothing served', async (_case, text, message) => {
    const folder = temporaryFolder('b2bctl-tax-shape-bad-');
    writeFileSync(join(folder, 'shape.json'), text);
    const result = await serve(['--auth', 'none', '--shape', join(folder, 'shape.json')]);
    removeTemporaryFolders();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('answering POST');
  });

  it('refuses a shape file that is not there with exit 66, naming it', async () => {
    const folder = temporaryFolder('b2bctl-tax-shape-none-');
    const result = await serve(['--auth', 'none', '--shape', join(folder, 'shape.json')]);
    removeTemporaryFolders();
    expect(result.code).toBe(66);
    expect(result.stderr).toContain('cannot read the shape file (ENOENT)');
  });

  // A user test: inline JSON in B2BCTL_TAX_SHAPE, as stock.schema and orders.routes take it, was taken for a file name
  // (exit 66), and a file the variable named was not said to come from it.
  it('reads inline JSON in the tax.shape setting as the shape, and names the setting when it is refused', async () => {
    const result = await serve(['--auth', 'none'], { B2BCTL_TAX_SHAPE: '{"answer":{"items":"a b"}}' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'The tax shape from the tax.shape setting (from B2BCTL_TAX_SHAPE) is not usable: answer.items must be a dot path such as cart.items',
    );
    expect(result.stderr).not.toContain('cannot read');
    expect(result.stderr).not.toContain('answering POST');
  });

  it('refuses a tax.shape file that is not there with exit 66, naming the setting and its variable', async () => {
    const folder = temporaryFolder('b2bctl-tax-shape-setting-none-');
    const missing = join(folder, 'shape.json');
    const result = await serve(['--auth', 'none'], { B2BCTL_TAX_SHAPE: missing });
    removeTemporaryFolders();
    expect(result.code).toBe(66);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `${missing}: cannot read the shape file, named by the tax.shape setting (from B2BCTL_TAX_SHAPE) (ENOENT).`,
    );
  });
});

const fixtures = join(__dirname, '..', '..', 'fixtures', 'tax');
afterAll(removeTemporaryFolders);

/** What `tax serve ARGS` is given, parsed as its command line would be. */
async function serveOptions(args: string[]): Promise<TaxServeOptions> {
  return (await parseWithGroup(register, ['tax', 'serve', ...args])) as TaxServeOptions;
}

/** `tax serve ARGS` on the fixture table, in process, started and stopped at once: what it wrote on stderr. */
async function startedAndStopped(args: string[], env: Record<string, string>): Promise<string> {
  const rules = join(fixtures, 'impostos-libreoffice.csv');
  const map = join(fixtures, 'impostos.map.json');
  const options = await serveOptions(['--rules', rules, '--map', map, '--port', '0', ...args]);
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

  // y/Y4: with a hop count, any client there named itself in X-Forwarded-For and the guessing limit was gone.
  it.each([
    [['--trust-proxy', '1'], 'any peer as a proxy (--trust-proxy 1)', 'X-Forwarded-For'],
    [['--trust-proxy', '127.0.0.1,192.0.2.0/24'], 'every peer in 192.0.2.0/24 as a proxy', 'X-Forwarded-For'],
    [
      ['--trust-proxy', '10.0.0.0/8', '--proxy-header', 'forwarded'],
      'every peer in 10.0.0.0/8 as a proxy',
      'Forwarded',
    ],
  ])('with --trust-proxy %j, warns that clients may name themselves', async (flags, whom, header) => {
    const stderr = await startedAndStopped(['--auth', 'bearer', '--host', '0.0.0.0', ...flags], bearer);
    expect(stderr.split('\n')).toContain(
      `warning: tax serve trusts ${whom} on 0.0.0.0, which other machines reach: a client that connects directly names itself in ${header} and escapes the per-address limits. Give the proxy's own address instead: --trust-proxy 127.0.0.1 for a proxy on this machine, or its address on the network.`,
    );
  });

  it.each([
    [['--host', '0.0.0.0', '--trust-proxy', '10.0.0.5,127.0.0.0/8,::1']],
    [['--host', '0.0.0.0', '--trust-proxy', '192.0.2.7/32']],
    [['--trust-proxy', '1']],
  ])('with %j (the proxy by its address, or on this machine alone), does not', async (flags) => {
    expect(await startedAndStopped(['--auth', 'bearer', ...flags], bearer)).not.toContain('trusts');
  });
});

/** What `tax serve` is given for `args`. */
const serveFlags = (args: string[]) => serveOptions(['--rules', 'x.csv', '--auth', 'bearer', ...args]);

describe('tax serve: connections', () => {
  // y/Y1: node's own 60 s for headers and 300 s for a body, and no cap but the open-file limit.
  it('a cart has 5 s to arrive; 1024 connections at once, 64 from one address, unless the flags say otherwise', async () => {
    const { requestTimeout, maxConnections, maxConnectionsPerAddress } = await serveFlags([]);
    expect({ requestTimeout, maxConnections, maxConnectionsPerAddress }).toEqual({
      requestTimeout: 5000,
      maxConnections: 1024,
      maxConnectionsPerAddress: 64,
    });
    const given = await serveFlags([
      '--request-timeout',
      '2000',
      '--max-connections',
      '100',
      '--max-connections-per-address',
      '8',
    ]);
    expect([given.requestTimeout, given.maxConnections, given.maxConnectionsPerAddress]).toEqual([2000, 100, 8]);
  });
});

describe('tax serve --forward-to with a credential in the URL', () => {
  it('a key in the query is sent, and warned of: the process list shows it', async () => {
    const stderr = await startedAndStopped(
      ['--auth', 'bearer', '--forward-to', 'https://erp.example.com/tax?api_key=chave-secreta'],
      { B2BCTL_TAX_TOKEN: 't'.repeat(32) },
    );
    expect(stderr).toContain(
      "warning: --forward-to puts the ERP's credential (the URL's user or key) in the process list and shell history; leave it out of the URL and set B2BCTL_TAX_FORWARD_TOKEN (sent as Bearer) or B2BCTL_TAX_FORWARD_BASIC (user:password, sent as Basic).",
    );
    expect(stderr).not.toContain('chave-secreta');
  });
});

/** An ERP on loopback that answers every cart with no items taxed and keeps the Authorization header each came with. */
async function recordingErp() {
  const authorizations: (string | undefined)[] = [];
  const erp = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    request
      .resume()
      .on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"totals":{}}'));
  });
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  const port = (erp.address() as { port: number }).port;
  return { authorizations, port, close: () => new Promise((resolve) => erp.close(resolve)) };
}

/** `tax serve --forward-to URL` in process with `env`: one cart posted, what the ERP was sent and what was logged. */
async function forwardOneCart(forwardTo: (port: number) => string, env: Record<string, string>) {
  const erp = await recordingErp();
  const options = await serveOptions(['--auth', 'none', '--port', '0', '--forward-to', forwardTo(erp.port)]);
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), ...env } });
  const running = run(options, memory.context);
  const url = (await memory.firstLine()).trim();
  const answer = await fetch(`${url}/tax`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ origin: { state: 'SP' }, destination: { state: 'SP' }, items: [] }),
  });
  expect(answer.status).toBe(200);
  memory.interrupt();
  await running;
  await erp.close();
  return { authorizations: erp.authorizations, stderr: memory.stderr() };
}

describe("tax serve --forward-to sends the ERP's credential with every cart", () => {
  it('B2BCTL_TAX_FORWARD_TOKEN as Bearer, B2BCTL_TAX_FORWARD_BASIC as Basic: no warning, never logged', async () => {
    const bearer = await forwardOneCart((port) => `http://127.0.0.1:${port}/tax`, {
      B2BCTL_TAX_FORWARD_TOKEN: 'erp-token-77',
    });
    expect(bearer.authorizations).toEqual(['Bearer erp-token-77']);
    const basic = await forwardOneCart((port) => `http://127.0.0.1:${port}/tax`, {
      B2BCTL_TAX_FORWARD_BASIC: 'erp:Senha#1:x',
    });
    expect(basic.authorizations).toEqual([`Basic ${Buffer.from('erp:Senha#1:x').toString('base64')}`]);
    for (const { stderr } of [bearer, basic]) {
      expect(stderr).not.toContain('warning:');
      expect(stderr).not.toContain('erp-token-77');
      expect(stderr).not.toContain('Senha#1');
    }
  });

  it('a user written in the URL as Basic, with the warning', async () => {
    const { authorizations, stderr } = await forwardOneCart((port) => `http://erp:Senha%231@127.0.0.1:${port}/tax`, {});
    expect(authorizations).toEqual([`Basic ${Buffer.from('erp:Senha#1').toString('base64')}`]);
    expect(stderr).toContain("warning: --forward-to puts the ERP's credential (the URL's user or key)");
  });
});

/** A line in the rest of `pgpass`: what a link swapped in for the table would publish in the log if it were quoted. */
const secretLine = 'db.example:5432:*:erp:PgSecretPw9\n';

/** Resolves once stderr holds a line matching `pattern`: the watcher's reload is an event, not a time. */
function stderrLine(memory: ReturnType<typeof testContext>, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => pattern.test(memory.stderr()) && (resolve(), true);
    if (!check()) memory.context.io.stderr.on('data', check);
  });
}

// The log is often read by others (journald's adm group, a shipped log), and the table's path may lead through a
// link another account writes: a refused header is described there, never quoted (decision 0037).
describe('tax serve logs a refused header without quoting it', () => {
  it("at start: exit 65, the missing columns and the count of the header's, never its text", async () => {
    const folder = temporaryFolder('b2bctl-tax-quote-');
    writeFileSync(join(folder, 'pgpass'), secretLine, { mode: 0o600 });
    symlinkSync('pgpass', join(folder, 'impostos.csv'));
    const result = await runCommandLine(['tax', 'serve', '--rules', 'impostos.csv', '--port', '0', '--auth', 'none'], {
      configDir: freshConfigDir(),
      cwd: folder,
    });
    expect(result.code).toBe(65);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('PgSecretPw9');
    expect(result.stderr).toContain(
      'error: impostos.csv:1: no "ncm", "from", "to", "buyer", "icmsRate" or "ipiRate" column (the header has 1 named column, not quoted here; a command run by hand, such as tax quote, quotes them).',
    );
  });

  it('on a reload through a link swapped to another file: the old table kept, the log never quoting the file', async () => {
    const folder = temporaryFolder('b2bctl-tax-swap-');
    const rules = join(folder, 'impostos.csv');
    copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), rules);
    writeFileSync(join(folder, 'pgpass'), secretLine, { mode: 0o600 });
    const map = join(fixtures, 'impostos.map.json');
    const options = await serveOptions(['--rules', rules, '--map', map, '--port', '0', '--auth', 'none']);
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, clock: systemClock });
    const running = run(options, memory.context);
    await memory.firstLine();
    symlinkSync(join(folder, 'pgpass'), `${rules}.new`);
    renameSync(`${rules}.new`, rules);
    await stderrLine(memory, /the previous table, 6 rows, is still in use/);
    memory.interrupt();
    await running;
    expect(memory.stderr()).not.toContain('PgSecretPw9');
    expect(memory.stderr()).toContain('(the header has 1 named column, not quoted here;');
  });

  it('tax quote, run by hand on the same file, quotes the header', async () => {
    const folder = temporaryFolder('b2bctl-tax-hand-');
    writeFileSync(join(folder, 'export.csv'), 'NCM da mercadoria|UF\n39269090|SP\n');
    const result = await runCommandLine(
      ['tax', 'quote', '--rules', 'export.csv', ...saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,1,10')],
      { configDir: freshConfigDir(), cwd: folder },
    );
    expect(result.code).toBe(65);
    expect(result.stderr).toContain('(the columns are NCM da mercadoria|UF)');
  });
});

/** The tester's cart (a user test): 10 × R$ 45.90 of NCM 3926.90.90 from SP to a taxpayer in RJ. */
const oneItemCart = {
  origin: { state: 'SP' },
  destination: { state: 'RJ' },
  customer: { document: '11.222.333/0001-81', paysIcms: true },
  items: [{ sku: 'A-1', ncm: '39269090', quantity: 10, unitPrice: 45.9 }],
};

/** `tax serve --forward-to` a stand-in ERP answering `erpBody` with 200, in process: the cart's answer, /healthz, the log. */
async function forwardToErpAnswering(
  erpBody: string | ErpAnswer,
  withRules: boolean,
  env: Record<string, string> = {},
) {
  const erp = await standInErp(() =>
    typeof erpBody === 'string' ? { status: 200, body: erpBody, type: 'application/json' } : erpBody,
  );
  const table = ['--rules', join(fixtures, 'impostos-libreoffice.csv'), '--map', join(fixtures, 'impostos.map.json')];
  const options = await serveOptions([
    ...(withRules ? table : []),
    '--auth',
    'none',
    '--port',
    '0',
    '--forward-to',
    erp.url,
  ]);
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), ...env } });
  const running = run(options, memory.context);
  const url = (await memory.firstLine()).trim();
  const answer = await fetch(`${url}/tax`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(oneItemCart),
  });
  const type = answer.headers.get('content-type');
  const cart = { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  const health = (await (await fetch(`${url}/healthz`)).json()) as Record<string, unknown>;
  memory.interrupt();
  const code = await running;
  await erp.close();
  return { cart, type, health, code, erpCalls: erp.received.length, stderr: memory.stderr(), erpUrl: erp.url };
}

// A user test: an ERP answering in Latin-1 had its accents passed on as U+FFFD, the SKU it echoed included.
describe('tax serve --forward-to: an ERP answer in another charset', () => {
  const latin1 = {
    status: 200,
    type: 'application/json; charset=iso-8859-1',
    body: Buffer.from('{"items":[{"sku":"A-1","obs":"Tributação São Paulo"}],"totals":{}}', 'latin1'),
  };

  it('is decoded by the charset it declares and passed on in UTF-8, no fallback', async () => {
    const { cart, type, health, stderr } = await forwardToErpAnswering(latin1, true);
    expect(cart.status).toBe(200);
    expect(type).toBe('application/json; charset=utf-8');
    expect(cart.body).toEqual({ items: [{ sku: 'A-1', obs: 'Tributação São Paulo' }], totals: {} });
    expect(health).toMatchObject({ answered: 1, fallbacks: 0 });
    expect(stderr).not.toContain('tax callback');
  });

  it('a charset no decoder knows is a fallback naming it; a gzip body not asked for, one naming the encoding', async () => {
    const unknown = await forwardToErpAnswering({ ...latin1, type: 'application/json; charset=x-erp-1' }, true);
    expect(unknown.cart.body.totals).toMatchObject({ added: '125.32' });
    expect(unknown.health).toMatchObject({ fallbacks: 1 });
    expect(unknown.stderr).toContain(
      `tax callback: the ERP at ${unknown.erpUrl} answered in charset "x-erp-1", which b2bctl cannot decode; answered from the tax table.\n`,
    );
    const gzip = await forwardToErpAnswering({ ...latin1, headers: { 'content-encoding': 'gzip' } }, true);
    expect(gzip.cart.body.totals).toMatchObject({ added: '125.32' });
    expect(gzip.stderr).toContain(
      `tax callback: the ERP at ${gzip.erpUrl} answered a body encoded "gzip" (Content-Encoding), not asked for; answered from the tax table.\n`,
    );
  });
});

/** `tax serve` (no --forward-to) from the LibreOffice fixture table, in process: the answer to one `cart`. */
async function serveAnswering(cart: unknown) {
  const table = ['--rules', join(fixtures, 'impostos-libreoffice.csv'), '--map', join(fixtures, 'impostos.map.json')];
  const options = await serveOptions([...table, '--auth', 'none', '--port', '0']);
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
  const running = run(options, memory.context);
  const url = (await memory.firstLine()).trim();
  const answer = await fetch(`${url}/tax`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(cart),
  });
  const body = (await answer.json()) as { items: Record<string, unknown>[] };
  memory.interrupt();
  return { status: answer.status, body, code: await running };
}

// A user test: a freight share of 0.005 gave an IPI and an ST base on 10.005 while the ICMS was on 10.00.
describe('tax serve: a freight share in fractions of a centavo', () => {
  it('is rounded to centavos before every base, as a number or as text, alone or beside an item the one pass answers', async () => {
    const odd = { sku: 'B', ncm: '39269090', quantity: 1, unitPrice: 10 };
    for (const freight of [0.005, '0.0050']) {
      const cart = { ...oneItemCart, items: [...oneItemCart.items, { ...odd, freight }] };
      const { status, body } = await serveAnswering(cart);
      expect(status).toBe(200);
      expect(body.items[1]).toMatchObject({
        ipi: { base: '10.00', value: '0.65' },
        icms: { base: '10.00', value: '1.20' },
        icmsSt: { base: '16.40', value: '2.08' },
      });
    }
  });
});

// A user test: b2bctl reads this very body as a failure everywhere else; passed on, a real order closed untaxed, with no
// log line and /healthz counting it answered.
describe('tax serve --forward-to: a 2xx that is no tax answer is a fallback', () => {
  const failed = '{"success":false,"message":"Erro interno: tabela de impostos indisponivel"}';

  it('an ERP answering 200 {"success":false,…}: the table answers, one log line quotes it, /healthz counts it', async () => {
    const { cart, health, stderr, erpCalls, erpUrl } = await forwardToErpAnswering(failed, true);
    expect(erpCalls).toBe(1);
    expect(cart.status).toBe(200);
    expect(cart.body.items).toEqual([expect.objectContaining({ sku: 'A-1' })]);
    expect(cart.body.totals).toMatchObject({ added: '125.32' });
    expect(cart.body).not.toHaveProperty('success');
    expect(health).toMatchObject({ answered: 1, fallbacks: 1 });
    expect(stderr).toContain(
      `tax callback: the ERP at ${erpUrl} answered that it failed, which cannot be a tax answer: ${failed}; answered from the tax table.\n`,
    );
  });

  it('the same without --rules: 503 tax-unavailable, counted and logged', async () => {
    const { cart, health, stderr } = await forwardToErpAnswering(failed, false);
    expect(cart).toEqual({
      status: 503,
      body: {
        error: 'tax-unavailable',
        message: "The ERP's tax service answered that it failed, which cannot be a tax answer.",
      },
    });
    expect(health).toMatchObject({ answered: 0, fallbacks: 1 });
    expect(stderr).toContain(`: ${failed}; answered 503 (no --rules to fall back on).\n`);
  });

  // A user test: the whole token was logged `Bearer [redacted]`, its first 16 characters as they came.
  it("the log masks the ERP's token quoted cut (its first 16 characters) as it masks it whole", async () => {
    const token = 'erp-forward-token-0123456789abcdef';
    const cut = `{"success":false,"message":"token ${token.slice(0, 16)}... invalid"}`;
    const { cart, stderr, erpUrl } = await forwardToErpAnswering(cut, true, { B2BCTL_TAX_FORWARD_TOKEN: token });
    expect(cart.status).toBe(200);
    expect(stderr).toContain(
      `tax callback: the ERP at ${erpUrl} answered that it failed, which cannot be a tax answer: {"success":false,"message":"token [redacted]... invalid"}; answered from the tax table.\n`,
    );
    expect(stderr).not.toContain(token.slice(0, 8));
  });

  it('an ERP answering {"items":[],"totals":{}} for a cart of one item: the table answers, logged and counted', async () => {
    const { cart, health, stderr, erpUrl } = await forwardToErpAnswering('{"items":[],"totals":{}}', true);
    expect(cart.status).toBe(200);
    expect(cart.body.totals).toMatchObject({ added: '125.32' });
    expect(health).toMatchObject({ answered: 1, fallbacks: 1 });
    expect(stderr).toContain(
      `tax callback: the ERP at ${erpUrl} answered the taxes of 0 of the cart's 1 items ("items"), which cannot be its tax answer; answered from the tax table.\n`,
    );
  });

  it("an answer with each item's taxes is passed on as it came, no line, no fallback", async () => {
    const taxed = '{"items":[{"sku":"A-1","ipi":"29.84"}],"totals":{"added":"29.84"}}';
    const { cart, health, stderr } = await forwardToErpAnswering(taxed, true);
    expect(cart).toEqual({ status: 200, body: JSON.parse(taxed) });
    expect(health).toMatchObject({ answered: 1, fallbacks: 0 });
    expect(stderr).not.toContain('tax callback');
  });
});

// A user test: a cart declared `charset=iso-8859-1` was read as UTF-8, its SKU answered and forwarded as U+FFFD.
describe('tax serve: a cart in another charset', () => {
  const latin1Cart = Buffer.from(
    JSON.stringify({ ...oneItemCart, items: [{ ...oneItemCart.items[0], sku: 'AÇÃO-1' }] }),
    'latin1',
  );

  /** `tax serve` (the table, or --forward-to a stand-in ERP echoing the SKUs) answering `cart` sent as `type`. */
  async function serveCartIn(type: string, forward: boolean) {
    const erp = await standInErp((request) => {
      const sent = JSON.parse(request.body) as { items: { sku: string }[] };
      return {
        status: 200,
        type: 'application/json',
        body: JSON.stringify({ items: sent.items.map((item) => ({ sku: item.sku, erp: true })), totals: {} }),
      };
    });
    const table = ['--rules', join(fixtures, 'impostos-libreoffice.csv'), '--map', join(fixtures, 'impostos.map.json')];
    const options = await serveOptions([
      ...table,
      '--auth',
      'none',
      '--port',
      '0',
      ...(forward ? ['--forward-to', erp.url] : []),
    ]);
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    const running = run(options, memory.context);
    const url = (await memory.firstLine()).trim();
    const answers = [];
    // The own route (a Content-Length) and fastify's (a query string): both read the cart alike.
    for (const path of ['/tax', '/tax?via=fastify']) {
      const answer = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: latin1Cart,
      });
      answers.push({ status: answer.status, body: (await answer.json()) as Record<string, unknown> });
    }
    const health = (await (await fetch(`${url}/healthz`)).json()) as Record<string, unknown>;
    memory.interrupt();
    await running;
    await erp.close();
    return { answers, health, erpGot: erp.received.map((request) => request.body), stderr: memory.stderr() };
  }

  it('is read in the charset it declares: the SKU answered as sent, from the table and from the ERP', async () => {
    const table = await serveCartIn('application/json; charset=iso-8859-1', false);
    for (const answer of table.answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ items: [{ sku: 'AÇÃO-1', ncm: '39269090' }] });
    }
    const forwarded = await serveCartIn('application/json;charset="ISO-8859-1"', true);
    for (const answer of forwarded.answers)
      expect(answer.body).toEqual({ items: [{ sku: 'AÇÃO-1', erp: true }], totals: {} });
    expect(forwarded.erpGot).toHaveLength(2);
    for (const sent of forwarded.erpGot) expect(sent).toContain('"sku":"AÇÃO-1"');
    expect(forwarded.health).toMatchObject({ answered: 2, fallbacks: 0, unreadable: 0 });
  });

  it('a charset no decoder knows is refused 415 in the error shape, logged and counted, nothing sent to the ERP', async () => {
    const { answers, health, erpGot, stderr } = await serveCartIn('application/json; charset=x-platform-1', true);
    const message =
      'the body is in charset "x-platform-1", which b2bctl cannot decode: send the cart in UTF-8 (or ISO-8859-1 declared as such)';
    for (const answer of answers) {
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ error: 'unsupported-charset', message });
    }
    expect(erpGot).toEqual([]);
    expect(health).toMatchObject({ answered: 0, unreadable: 2, fallbacks: 0 });
    expect(stderr).toContain(`tax callback refused a cart from 127.0.0.1: ${message}.`);
  });
});

// A user test: `{"items":[null]}`, `[1]`, `["ok"]` or `[{}]` were passed on as the cart's taxes, its item closed untaxed.
describe('tax serve --forward-to: a list of items whose entries are no item taxes is a fallback', () => {
  it('null, a number, a text, a list or an empty object as an item: the table answers, logged and counted', async () => {
    const entries: [string, string][] = [
      ['null', 'null'],
      ['1', 'a number'],
      ['"ok"', 'a string'],
      ['["A-1"]', 'a list'],
      ['{}', 'an empty object'],
    ];
    for (const [entry, what] of entries) {
      const { cart, health, stderr, erpUrl } = await forwardToErpAnswering(`{"items":[${entry}],"totals":{}}`, true);
      expect(cart.status).toBe(200);
      expect(cart.body.totals).toMatchObject({ added: '125.32' });
      expect(health).toMatchObject({ answered: 1, fallbacks: 1 });
      expect(stderr).toContain(
        `tax callback: the ERP at ${erpUrl} answered "items" entry 1 as ${what}, not an item's taxes, which cannot be its tax answer; answered from the tax table.\n`,
      );
    }
  });

  it('without --rules: 503 tax-unavailable', async () => {
    const { cart, health } = await forwardToErpAnswering('{"items":[{}],"totals":{}}', false);
    expect(cart).toEqual({
      status: 503,
      body: {
        error: 'tax-unavailable',
        message: `The ERP's tax service answered "items" entry 1 as an empty object, not an item's taxes, which cannot be its tax answer.`,
      },
    });
    expect(health).toMatchObject({ fallbacks: 1 });
  });

  it('an entry of any keys, an extra entry, or a list under another name is passed on as it came', async () => {
    for (const taxed of [
      '{"items":[{"codigo":"A-1"}],"totals":{}}',
      '{"items":[{"sku":"A-1","ipi":"29.84"},{"frete":"1.00"}],"totals":{}}',
      '{"impostos":[{"sku":"A-1","ipi":"29.84"}]}',
    ]) {
      const { cart, health } = await forwardToErpAnswering(taxed, true);
      expect(cart).toEqual({ status: 200, body: JSON.parse(taxed) });
      expect(health).toMatchObject({ fallbacks: 0 });
    }
    // A list of another name whose entries are no item taxes is no list of the cart's items.
    const { health, stderr } = await forwardToErpAnswering('{"impostos":[1]}', true);
    expect(health).toMatchObject({ fallbacks: 1 });
    expect(stderr).toContain(`answered no list of the cart's 1 items (none at "items", nor under another name)`);
  });
});
