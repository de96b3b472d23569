/**
 * A token route whose refusal quotes the request it got (a framework's error page, a gateway's "Bad request: …"):
 * the password is in it as the request wrote it, form-encoded (`Pw%25Secr3t%21`, `S%C3%AAnha+2024`), JSON-escaped
 * (`a\"b\\c`) or inside a Basic credential's base64. Every form is `[redacted]` in the error line, the stack
 * `--verbose` shows and the `--log-format json` line (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

/** The token route answering 400 with the Authorization header and the body it got. */
function quotingRefusal(): void {
  routes['POST /v1/auth/token'] = (request, body, response) =>
    response
      .writeHead(400, { 'content-type': 'text/plain' })
      .end(`Bad request: auth=${request.headers.authorization ?? ''} body=${body}`);
}

async function refusedLogin(style: string, password: string, globals: string[] = []) {
  const configDir = freshConfigDir();
  expect((await runCommandLine(['config', 'set', 'auth.style', style], { configDir })).code).toBe(0);
  quotingRefusal();
  return runCommandLine([...globals, 'login', '--base-url', platform.url, '--username', 'u@x', '--password-stdin'], {
    configDir,
    stdin: `${password}\n`,
  });
}

/** Every form the password may take in a quote: none may be printed. */
function passwordForms(password: string): string[] {
  return [
    password,
    encodeURIComponent(password),
    new URLSearchParams({ p: password }).toString().slice(2),
    JSON.stringify(password).slice(1, -1),
    Buffer.from(`u@x:${password}`).toString('base64'),
  ];
}

const passwords = ['Pw%Secr3t!', 'Sênha 2024', 'a"b\\c', 'PlainSecret1'];

describe('a token route refusal that quotes the request', () => {
  it.each(['form', 'json', 'basic'].flatMap((style) => passwords.map((password) => [style, password])))(
    'auth.style %s, password %s: every form of it is [redacted]; exit 77',
    async (style, password) => {
      const result = await refusedLogin(style, password);
      expect(result.code).toBe(77);
      expect(result.stderr).toContain('refused the login request for u@x (HTTP 400: Bad request: ');
      expect(result.stderr).toContain(redactedPartFor(style));
      for (const form of passwordForms(password)) expect(result.stderr).not.toContain(form);
      expect(received).toEqual(['POST /v1/auth/token']);
    },
  );

  it('--verbose: the error line and the stack under it carry [redacted], not the form-encoded password', async () => {
    const result = await refusedLogin('form', 'Pw%Secr3t!', ['--verbose']);
    expect(result.code).toBe(77);
    expect(result.stderr).toMatch(/error: The token route .*password=\[redacted\]\)/);
    expect(result.stderr).toMatch(/LoginRefusedError: The token route .*password=\[redacted\]\)/);
    for (const form of passwordForms('Pw%Secr3t!')) expect(result.stderr).not.toContain(form);
  });

  it('--log-format json: the error object carries [redacted]', async () => {
    const result = await refusedLogin('form', 'Sênha 2024', ['--log-format', 'json']);
    expect(result.code).toBe(77);
    const messages = result.stderr
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages.some((message) => message.includes('password=[redacted])'))).toBe(true);
    for (const form of passwordForms('Sênha 2024')) expect(result.stderr).not.toContain(form);
  });
});

/** What the quoted request shows in place of the secret, by style. */
function redactedPartFor(style: string): string {
  if (style === 'form') return 'password=[redacted]';
  if (style === 'json') return '"password":"[redacted]"';
  return 'auth=Basic [redacted]';
}

/** The token route answering 400 with `raw` as written: a platform's own JSON encoder's spelling of the password. */
function refusingWith(raw: string): void {
  routes['POST /v1/auth/token'] = (_request, _body, response) =>
    response.writeHead(400, { 'content-type': 'application/json' }).end(raw);
}

describe('a token route refusal quoting the password as its JSON encoder escapes it (a user test)', () => {
  // PHP's json_encode (`\/`, non-ASCII as \uXXXX) and Go's encoding/json (`&`, `<`, `>` as \u0026 \u003c \u003e).
  const spelled: [string, string][] = [
    ['Sênha2024xyz', 'S\\u00eanha2024xyz'],
    ['Plain/Pass2024x', 'Plain\\/Pass2024x'],
    ['Pass&word<1', 'Pass\\u0026word\\u003c1'],
  ];

  it.each(spelled)(
    'password %s quoted as %s: [redacted] in the error line and the stack; exit 77',
    async (password, escaped) => {
      refusingWith(`{"message":"Invalid password '${escaped}' for user u@x"}`);
      const configDir = freshConfigDir();
      const result = await runCommandLine(
        ['--verbose', 'login', '--base-url', platform.url, '--username', 'u@x', '--password-stdin'],
        { configDir, stdin: `${password}\n` },
      );
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(
        /error: The token route .*\(HTTP 400: Invalid password '\[redacted\]' for user u@x\)/,
      );
      expect(result.stderr).toMatch(/LoginRefusedError: .*Invalid password '\[redacted\]' for user u@x/);
      for (const form of [password, escaped]) expect(result.stderr).not.toContain(form);
      expect(received).toEqual(['POST /v1/auth/token']);
    },
  );

  it('--log-format json: the error object carries [redacted]', async () => {
    refusingWith(`{"message":"Invalid password 'Pass\\u0026word\\u003c1' for user u@x"}`);
    const result = await runCommandLine(
      ['--log-format', 'json', 'login', '--base-url', platform.url, '--username', 'u@x', '--password-stdin'],
      { configDir: freshConfigDir(), stdin: 'Pass&word<1\n' },
    );
    expect(result.code).toBe(77);
    expect(result.stderr).toContain("Invalid password '[redacted]' for user u@x");
    for (const form of ['Pass&word<1', 'Pass\\u0026word\\u003c1', 'Pass\\\\u0026word'])
      expect(result.stderr).not.toContain(form);
  });

  it("a cron job's automatic login with B2BCTL_PASSWORD: [redacted] in its refusal line; exit 77", async () => {
    refusingWith(`{"message":"Invalid password 'S\\u00eanha2024xyz' for user u@x"}`);
    const result = await runCommandLine(['sellers', 'list'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'u@x', B2BCTL_PASSWORD: 'Sênha2024xyz' },
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toContain(
      "with the password in B2BCTL_PASSWORD was refused (HTTP 400: Invalid password '[redacted]' for user u@x)",
    );
    for (const form of ['Sênha2024xyz', 'S\\u00eanha2024xyz']) expect(result.stderr).not.toContain(form);
    expect(received).toEqual(['POST /v1/auth/token']);
  });
});
