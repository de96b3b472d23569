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
