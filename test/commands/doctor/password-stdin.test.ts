/**
 * `doctor --password-stdin` in process: a terminal on stdin is refused before anything is sent (the password would
 * be echoed), as `login --password-stdin` refuses it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { createContext } from '../../../src/context.js';
import { UsageError } from '../../../src/base/errors.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const configDir = temporaryFolder('b2bctl-doctor-stdin-');

it('refuses a terminal on stdin before any check, and sends nothing', async () => {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests++;
    response.writeHead(200).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk) => (printed += chunk));
  const context = createContext({
    io: {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      isStdoutTTY: false,
      isStderrTTY: true,
      isStdinTTY: true,
    },
    env: {
      B2BCTL_CONFIG_DIR: configDir,
      B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      B2BCTL_USERNAME: 'erp@store.test',
    },
    globals: { quiet: false, verbose: false, color: false, input: false },
  });
  const outcome = run({ passwordStdin: true }, context);
  await expect(outcome).rejects.toBeInstanceOf(UsageError);
  await expect(outcome).rejects.toThrow(/--password-stdin reads a pipe, and stdin is a terminal/);
  await new Promise((resolve) => server.close(resolve));
  expect(requests).toBe(0);
  expect(printed).toBe('');
});

it('a refused login names the password piped to --password-stdin, not B2BCTL_PASSWORD', async () => {
  const server = createServer((request, response) => {
    if (request.url === '/v1/auth/token')
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stdin = new PassThrough();
  stdin.end('wrong-password\n');
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk) => (printed += chunk));
  const context = createContext({
    io: { stdout, stderr: new PassThrough(), stdin, isStdoutTTY: false, isStderrTTY: false, isStdinTTY: false },
    env: {
      B2BCTL_CONFIG_DIR: configDir,
      B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      B2BCTL_USERNAME: 'erp@store.test',
    },
    globals: { quiet: false, verbose: false, color: false, input: false, output: 'json' },
  });
  await run({ passwordStdin: true }, context).catch(() => undefined);
  await new Promise((resolve) => server.close(resolve));
  expect(printed).toContain(
    '(HTTP 401: invalid_grant): check the username and the password piped to --password-stdin, or the token route may be elsewhere',
  );
  expect(printed).not.toContain('wrong-password');
});

it('a password on stdin with no username anywhere is a usage error naming B2BCTL_USERNAME, before any check', async () => {
  let requests = 0;
  const server = createServer((_request, response) => {
    requests++;
    response.writeHead(200).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const test = testContext({
    stdin: 'Senha#2001\n',
    env: { B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  });
  expect(await test.run(run, { passwordStdin: true })).toBe(2);
  expect(test.stderr()).toMatch(
    /--password-stdin logs in as the integration user, and profile "default" names none: set B2BCTL_USERNAME/,
  );
  await new Promise((resolve) => server.close(resolve));
  expect(requests).toBe(0);
});
