import { readFileSync, writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { refusedPort, configFile, freshConfigDir, tokenFlagWarning } from '../../support/cli.js';
import { login, runCommandLine } from '../../support/command-line.js';
import {
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  tokenRoute,
  useFileSandbox,
} from '../../support/sandbox.js';

let sandbox: RunningSandbox;

useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await resetCounts(sandbox);
});

/** A logged-in config folder, with the sandbox's counters reset afterwards. */
async function loggedIn(): Promise<string> {
  const configDir = freshConfigDir();
  await login(sandbox, configDir);
  await resetCounts(sandbox);
  return configDir;
}

describe('unknown profile', () => {
  it('--profile nope on sellers list exits 2, names the profile and how to create it, and sends nothing', async () => {
    const configDir = await loggedIn();
    const result = await runCommandLine(['sellers', 'list', '--profile', 'nope'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: Unknown profile "nope" (known: default). Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile nope to create it.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('B2BCTL_PROFILE=nope does the same, and with no config at all says there are no profiles yet', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(['sellers', 'list'], { configDir, env: { B2BCTL_PROFILE: 'nope' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: Unknown profile "nope" (no profiles yet). Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile nope to create it.\n`,
    );
  });

  it('a profile name with a slash is refused', async () => {
    const result = await runCommandLine(['whoami', '--profile', '../x'], { configDir: freshConfigDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: Profile name "../x" may hold only the letters a-z and A-Z, the digits 0-9, ".", "_" and "-".\n',
    );
  });

  // Two different --profile values (a wrapper script adding its own) acted on the last one without a word (a user
  // test): one command line acts on one profile and one store, so both are refused before anything is sent.
  it.each([
    ['--profile before and after the verb', ['--profile', 'default', 'sellers', 'list', '--profile', 'other']],
    ['--profile twice before the verb', ['--profile', 'default', '--profile', 'other', 'sellers', 'list']],
  ])('%s, two different values: exit 2 naming both, nothing sent', async (_what, args) => {
    const configDir = await loggedIn();
    const result = await runCommandLine(args, { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      `error: option '--profile <name>' argument 'other' is invalid. --profile is given twice, as "default" and "other": one command line acts on one, so give --profile once.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('--base-url twice with two stores: exit 2, nothing sent to either', async () => {
    const configDir = await loggedIn();
    const result = await runCommandLine(
      ['--base-url', sandbox.url, 'sellers', 'list', '--base-url', 'http://127.0.0.1:9591'],
      { configDir },
    );
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: option '--base-url <url>' argument 'http://127.0.0.1:9591' is invalid. --base-url is given twice, as "${sandbox.url}" and "http://127.0.0.1:9591": one command line acts on one, so give --base-url once.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('the same --profile twice is one profile: the command runs', async () => {
    const configDir = await loggedIn();
    const result = await runCommandLine(['--profile', 'default', 'sellers', 'list', '--profile', 'default'], {
      configDir,
    });
    expect(result.code).toBe(0);
  });

  // Said "Set baseUrl for profile "__proto__"", exit 0, and kept nothing (a user test).
  it('config set --profile __proto__ is refused, exit 2, nothing kept', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['config', 'set', 'baseUrl', 'https://api.example.com', '--profile', '__proto__'],
      { configDir },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: Profile name "__proto__" is reserved (it names a JavaScript object\'s workings, not a profile): choose another.\n',
    );
  });
});

describe('an empty value of a global flag (an unset shell variable)', () => {
  // `--profile "$STORE"` with STORE unset used the default profile: a two-store script acted on the wrong store.
  it.each([
    [
      '--profile',
      `error: option '--profile <name>' argument '' is invalid. expected a profile name, not an empty text (an unset shell variable?); leave --profile out to use B2BCTL_PROFILE or "default".`,
    ],
    [
      '--base-url',
      `error: option '--base-url <url>' argument '' is invalid. expected a URL, not an empty text (an unset shell variable?); leave --base-url out to use B2BCTL_BASE_URL or the profile's.`,
    ],
    [
      '--token',
      `error: option '--token <token>' argument '' is invalid. expected a token, not an empty text (an unset shell variable?); leave --token out to use B2BCTL_TOKEN or the cached one.`,
    ],
  ])('%s "" is refused (exit 2), and nothing is sent', async (flag, line) => {
    const configDir = await loggedIn();
    for (const args of [
      [flag, '', 'sellers', 'list'],
      ['sellers', 'list', flag, ' '],
    ]) {
      const result = await runCommandLine(args, { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        line.replace("argument ''", `argument '${args.includes(' ') ? ' ' : ''}'`),
      );
    }
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('base URL', () => {
  const missing =
    'error: No base URL for profile "default". Pass --base-url URL, set B2BCTL_BASE_URL, or run b2bctl login --base-url URL.\n';

  it('missing on sellers list: exit 2 naming --base-url and B2BCTL_BASE_URL', async () => {
    const result = await runCommandLine(['sellers', 'list'], { configDir: freshConfigDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(missing);
  });

  it('missing even with a token in B2BCTL_TOKEN', async () => {
    const result = await runCommandLine(['sellers', 'list'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_TOKEN: 'abc' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(missing);
  });

  it('missing on login without a terminal', async () => {
    const result = await runCommandLine(['login', '--username', sandboxUser, '--password-stdin'], {
      configDir: freshConfigDir(),
      stdin: sandboxPassword,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(missing);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('missing for a named profile names it in the login hint', async () => {
    const configDir = freshConfigDir();
    expect(
      (await runCommandLine(['config', 'set', 'paths.token', '/t', '--profile', 'prod'], { configDir })).code,
    ).toBe(0);
    const result = await runCommandLine(['sellers', 'list', '--profile', 'prod'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: No base URL for profile "prod". Pass --base-url URL, set B2BCTL_BASE_URL, or run b2bctl login --base-url URL --profile prod.\n',
    );
  });

  it('not http: exit 2 naming the value and where it came from', async () => {
    const result = await runCommandLine(['sellers', 'list', '--token', 'abc'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: 'ftp://files.example' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `${tokenFlagWarning}error: Setting "baseUrl" must be an http:// or https:// URL, not "ftp://files.example" (from B2BCTL_BASE_URL).\n`,
    );
  });

  it('unreachable: exit 69 naming the URL, after the retries', async () => {
    const port = await refusedPort();
    const result = await runCommandLine(
      ['sellers', 'list', '--base-url', `http://127.0.0.1:${port}`, '--token', 'abc'],
      {
        configDir: freshConfigDir(),
        env: { B2BCTL_RETRIES: '1' },
      },
    );
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${tokenFlagWarning}error: Cannot reach http://127.0.0.1:${port} after 2 attempts: nothing listens at 127.0.0.1:${port} (ECONNREFUSED). Check the base URL (--base-url or B2BCTL_BASE_URL) and that the server runs, then try again.\n`,
    );
  });

  it('unreachable on login: exit 69 too', async () => {
    const port = await refusedPort();
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', `http://127.0.0.1:${port}`, '--username', sandboxUser, '--password-stdin'],
      {
        configDir,
        env: { B2BCTL_RETRIES: '0' },
        stdin: sandboxPassword,
      },
    );
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: Cannot reach http://127.0.0.1:${port} after 1 attempt: nothing listens at 127.0.0.1:${port} (ECONNREFUSED). Check the base URL (--base-url or B2BCTL_BASE_URL) and that the server runs, then try again.\n`,
    );
    expect(result.stderr).not.toContain(sandboxPassword);
  });
});

describe('credentials', () => {
  it('a wrong password exits 77', async () => {
    const result = await runCommandLine(['login', '--base-url', sandbox.url], {
      configDir: freshConfigDir(),
      env: { B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: 'wrong-password' },
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: Login refused for ${sandboxUser} at ${sandbox.url} (HTTP 401: Invalid username or password): check the username and password, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 1 });
  });

  it('a wrong B2BCTL_PASSWORD during a renewal exits 77', async () => {
    const configDir = await loggedIn();
    await fetch(`${sandbox.url}/_sandbox/tokens/revoke`, { method: 'POST' });
    const result = await runCommandLine(['sellers', 'list'], { configDir, env: { B2BCTL_PASSWORD: 'wrong-password' } });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `The platform refused the token of profile "default"; logging in again.\nerror: The platform refused the token of profile "default" and logging in again as ${sandboxUser} at ${sandbox.url} with the password in B2BCTL_PASSWORD was refused (HTTP 401: Invalid username or password): check B2BCTL_PASSWORD, or run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default.\n`,
    );
  });

  it('an unknown token given with --token exits 77', async () => {
    const result = await runCommandLine(['sellers', 'list', '--base-url', sandbox.url, '--token', 'made-up-token'], {
      configDir: freshConfigDir(),
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `${tokenFlagWarning}error: Not logged in for profile "default": the platform refused the token given with --token. Give a valid token, or leave --token out to use the profile's (b2bctl login).\n`,
    );
    expect(result.stderr).not.toContain('made-up-token');
  });
});

describe('flag values', () => {
  const usageCases: readonly [readonly string[], string][] = [
    [
      ['--limit', 'abc'],
      "error: option '--limit <n>' argument 'abc' is invalid. expected a whole number of at least 1.",
    ],
    [['--limit', '0'], "error: option '--limit <n>' argument '0' is invalid. expected a whole number of at least 1."],
    [
      ['--limit', '2.5'],
      "error: option '--limit <n>' argument '2.5' is invalid. expected a whole number of at least 1.",
    ],
    [['--offset', '-3'], "error: option '--offset <n>' argument '-3' is invalid. expected a whole number (0 or more)."],
    [['--offset=-3'], "error: option '--offset <n>' argument '-3' is invalid. expected a whole number (0 or more)."],
    [['--bogus'], "error: unknown option '--bogus'"],
  ];
  for (const [args, errorLine] of usageCases) {
    it(`sellers list ${args.join(' ')} exits 2 with the error and the usage line, sending nothing`, async () => {
      const configDir = await loggedIn();
      const result = await runCommandLine(['sellers', 'list', ...args], { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `${errorLine}\nUsage: b2bctl sellers list [options]\nRun "b2bctl sellers list --help" for details.\n`,
      );
      expect(await requestCounts(sandbox)).toEqual({});
    });
  }

  for (const flag of ['-o', '--output']) {
    it(`${flag} xml exits 2 naming the allowed formats, sending nothing`, async () => {
      const configDir = await loggedIn();
      const result = await runCommandLine(['sellers', 'list', flag, 'xml'], { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.split('\n');
      expect(lines[0]).toBe(
        "error: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, csv.",
      );
      expect(lines.some((line) => line.startsWith('Usage: b2bctl'))).toBe(true);
      expect(await requestCounts(sandbox)).toEqual({});
    });
  }

  it('an unknown command exits 2', async () => {
    const result = await runCommandLine(['frobnicate'], { configDir: freshConfigDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("error: unknown command 'frobnicate'");
  });

  it.each([
    [['stok', 'push', 'x'], "error: unknown command 'stok' (did you mean stock?)"],
    [['stock', 'push', '--rout', 'batch', 'x'], "error: unknown option '--rout' (did you mean --route?)"],
  ])('a near miss is offered in the error line, not after a literal \\n: %j', async (args, line) => {
    // commander writes its suggestion on a line of its own, which the one-line rule showed as `\n` (a user test).
    const result = await runCommandLine(args, { configDir: freshConfigDir() });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
  });
});

const corruptLine = (file: string) =>
  new RegExp(
    `^error: Config file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON at line 1, column 2\\. Fix it, or delete it and run b2bctl login again\\.\\n$`,
  );

describe('a corrupt config file', () => {
  for (const args of [
    ['sellers', 'list'],
    ['whoami'],
    ['config', 'list'],
    ['logout'],
    ['login', '--base-url', 'http://127.0.0.1:1', '--token', 'abc'],
  ]) {
    it(`${args.slice(0, 2).join(' ')}: exit 2, one line naming the file, no stack trace, file left alone`, async () => {
      const configDir = await loggedIn();
      const file = configFile(configDir);
      writeFileSync(file, '{not json');
      const result = await runCommandLine(args, { configDir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.replace(tokenFlagWarning, '')).toMatch(corruptLine(file));
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(file, 'utf8')).toBe('{not json');
      // The place, never the text around it: the file holds the token.
      expect(result.stderr).not.toContain('not json');
      expect(await requestCounts(sandbox)).toEqual({});
    });
  }

  it('with --verbose the stack trace is added', async () => {
    const configDir = await loggedIn();
    const file = configFile(configDir);
    writeFileSync(file, '{not json');
    const result = await runCommandLine(['whoami', '--verbose'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: Config file .* is not valid JSON/);
    expect(result.stderr).toMatch(/\n\s+at /);
  });

  it('valid JSON without a profiles object gets its own message', async () => {
    const configDir = await loggedIn();
    const file = configFile(configDir);
    writeFileSync(file, '{"profiles": []}');
    const result = await runCommandLine(['sellers', 'list'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: Config file ${file} has no "profiles" object. Fix it, or delete it and run b2bctl login again.\n`,
    );
  });
});

describe('flags people reach for that b2bctl does not take', () => {
  it.each([
    [
      ['login', '--base-url', 'URL', '--username', 'erp@example.com', '--password', 'hunter2'],
      "error: unknown option '--password': a password is never taken from the command line (ps and the shell history would show it): pipe it with --password-stdin, set B2BCTL_PASSWORD, or let b2bctl login ask for it on a terminal.",
    ],
    [
      ['webhook', 'listen', '--client-id', 'erp', '--client-secret=s3cret'],
      "error: unknown option '--client-secret': a client secret is never taken from the command line (ps and the shell history would show it): pass --client-secret-file FILE, or set B2BCTL_WEBHOOK_CLIENT_SECRET.",
    ],
    [
      // The password typed where an argument would go: commander quoted it back into the log.
      ['login', '--base-url', 'URL', '--username', 'erp@example.com', 'hunter2'],
      'error: login takes no arguments, and a password is never taken from the command line (ps and the shell history would show it): pipe it with --password-stdin, set B2BCTL_PASSWORD, or let b2bctl login ask for it on a terminal.',
    ],
    [['login', '--base-url', 'URL', '--password-stdin=hunter2'], "error: unknown option '--password-stdin=***'"],
    [
      ['orders', 'ship', '217', '--tracking-code', 'SS123456785BR'],
      "error: unknown option '--tracking-code': the tracking code is given with --tracking CODE (--tracking SS123456785BR).",
    ],
  ])('%j: exit 2 naming the fix, the secret never echoed, nothing sent', async (words, message) => {
    const configDir = await loggedIn();
    const args = words.map((word) => (word === 'URL' ? sandbox.url : word));
    const result = await runCommandLine(args, { configDir });
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(message);
    // The usage after it is text to read: no timestamp even off a terminal.
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^Usage: b2bctl /), expect.stringMatching(/^Run "b2bctl /)]);
    expect(result.stderr).not.toMatch(/hunter2|s3cret/);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('a URL refused as a flag or setting value', () => {
  it('is quoted without its user-info and query values: the usage error is a log line', async () => {
    const configDir = freshConfigDir();
    const forward = await runCommandLine(
      [
        'webhook',
        'listen',
        '--client-id',
        'erp',
        '--port',
        '0',
        '--forward-to',
        'ftp://u:FWDPASS@10.1.2.3/x?token=QTOK',
      ],
      { configDir, env: { B2BCTL_WEBHOOK_CLIENT_SECRET: 'abcdefabcdefabcdefabcdef0123456789' } },
    );
    expect(forward.code).toBe(2);
    expect(forward.stderr).toContain("argument 'ftp://***@10.1.2.3/x?token=***' is invalid");
    const base = await runCommandLine(['sellers', 'list', '--base-url', 'gopher://a:SECRET@x/?k=QVAL'], { configDir });
    expect(base.code).toBe(2);
    expect(base.stderr).toContain('not "gopher://***@x/?k=***"');
    const set = await runCommandLine(['config', 'set', 'baseUrl', 'gopher://a:SECRET@x/?k=QVAL'], { configDir });
    expect(set.code).toBe(2);
    for (const output of [forward.stderr, base.stderr, set.stderr])
      for (const secret of ['FWDPASS', 'QTOK', 'SECRET', 'QVAL']) expect(output).not.toContain(secret);
  });
});

describe('--excel beside another output format', () => {
  it.each(['json', 'ndjson', 'table'])('-o %s --excel exits 2 naming both, and sends nothing', async (format) => {
    const configDir = await loggedIn();
    const result = await runCommandLine(['sellers', 'list', '-o', format, '--excel'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: --excel writes a CSV for a pt-BR Excel; it does not go with -o ${format}. Give -o csv --excel (or --excel alone), or -o ${format} alone.\n`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
