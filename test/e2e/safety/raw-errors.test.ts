/**
 * Raw Node errors that used to reach the operator (issue 9): each is one line saying what to change, with the
 * exit code of docs/output.md, no stack; and --verbose stacks point into the TypeScript sources.
 */
import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

function busyPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

/** Exactly one line on stderr, no stack frames. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0] as string;
}

describe('a busy port', () => {
  let busy: { server: Server; port: number };
  beforeAll(async () => {
    busy = await busyPort();
  });
  afterAll(() => busy.server.close());

  it('for the sandbox is one line naming --port, exit 2', async () => {
    const result = await runBuiltCli(['sandbox', '--port', String(busy.port)]);
    expect(oneLine(result.stderr)).toBe(
      `error: Port ${busy.port} on 127.0.0.1 is already in use: a server listens on 127.0.0.1:${busy.port}, or an outgoing connection of this machine holds the port for a while (Linux lends ports 32768–60999 to those). Choose another with --port (one below 32768 is never lent), or --port 0 for a free one.`,
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
  });

  it('for the webhook receiver too', async () => {
    const result = await runBuiltCli(['webhook', 'listen', '--client-id', 'erp', '--port', String(busy.port)], {
      env: { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a-long-enough-secret-for-the-tests-0123' },
    });
    expect(oneLine(result.stderr)).toMatch(
      new RegExp(`^error: Port ${busy.port} on 127\\.0\\.0\\.1 is already in use`),
    );
    expect(result.code).toBe(2);
  });
});

describe('B2BCTL_CONFIG_DIR pointing at a file', () => {
  const cases: [string, string[]][] = [
    ['config set', ['config', 'set', 'baseUrl', 'https://store.example.com']],
    [
      'login (before any request is sent)',
      ['login', '--base-url', 'http://127.0.0.1:9', '--username', 'erp@store.example.com', '--password-stdin'],
    ],
  ];
  it.each(cases)('%s: one line naming the folder and the variable, exit 2', async (_what, args) => {
    const folder = temporaryFolder();
    const file = join(folder, 'not-a-folder');
    writeFileSync(file, 'x');
    const result = await runBuiltCli(args, { env: { B2BCTL_CONFIG_DIR: file }, stdin: 'a-password\n' });
    expect(oneLine(result.stderr)).toBe(
      `error: The config folder ${file} cannot be a folder: a file is in the way on that path (EEXIST). Point B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) at a folder this user can write, or move that file.`,
    );
    expect(result.code).toBe(2);
  });
});

describe('unreadable input paths', () => {
  it.each([
    [
      'a path through a file',
      (folder: string) => join(folder, 'file.csv', 'x.csv'),
      'a part of the path is a file, not a folder; check the path',
    ],
    ['a folder', (folder: string) => join(folder, 'folder.csv'), 'it is a folder, not a file'],
    [
      'a file that opens but cannot be read',
      () => '/proc/self/mem',
      'the system could not read it (EIO: a failing disk or a lost network share); copy it somewhere readable and pass the copy',
    ],
  ])('%s: one line, exit 66', async (_what, pathIn, reason) => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'file.csv'), 'sku,quantity\n');
    mkdirSync(join(folder, 'folder.csv'));
    const path = pathIn(folder);
    const result = await runBuiltCli(['stock', 'validate', path], { cwd: folder });
    expect(oneLine(result.stderr)).toBe(`error: ${path}: ${reason}.`);
    expect(result.code).toBe(66);
  });
});

describe('--verbose', () => {
  it('prints a stack whose frames are in the TypeScript sources (source maps)', async () => {
    const result = await runBuiltCli(['customer', 'validate', 'missing.csv', '--verbose']);
    expect(result.code).toBe(66);
    const frames = result.stderr.split('\n').filter((line) => /^\s+at /.test(line));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames[0]).toMatch(/src\/io\/input\/byte-source\.ts:\d+:\d+\)$/);
    expect(result.stderr).not.toMatch(/dist\/[^\s]*\.js:\d+/);
  });

  it('without it, the same error is one line', async () => {
    const result = await runBuiltCli(['customer', 'validate', 'missing.csv']);
    expect(oneLine(result.stderr)).toBe('error: missing.csv: no such file; check the path.');
  });
});
