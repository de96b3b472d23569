/**
 * A FIFO where a file named for its contents should be (a `--map`, a client secret file, the tax table swapped while
 * `tax serve` runs): a plain open waited on it for ever, in the event loop or in libuv's thread pool, where SIGTERM
 * did not end the process either. Refused at once instead, naming the file. Process tests: in process, the blocking
 * open would hold the test worker itself.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, firstLine, freshConfigDir, type RunResult, spawnCli } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const fixtures = join(__dirname, '..', '..', 'fixtures', 'tax');

/** A folder with the tax table, its map and a FIFO named `fifo`. */
function folderWithFifo(): string {
  const folder = temporaryFolder('b2bctl-special-');
  copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), join(folder, 'impostos.csv'));
  copyFileSync(join(fixtures, 'impostos.map.json'), join(folder, 'impostos.map.json'));
  execFileSync('mkfifo', ['-m', '600', join(folder, 'fifo')]);
  return folder;
}

/** The run's result; one that waits on the FIFO is killed, so the test fails instead of hanging. */
async function ended(child: ChildProcess): Promise<RunResult> {
  child.stdin?.end();
  const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return collect(child).finally(() => clearTimeout(stuck));
}

const secretEnv = { B2BCTL_TAX_TOKEN: 'e2e-tax-token-0123456789abcdef0123' };

describe('a FIFO named for its contents', () => {
  it.each([
    [
      'tax serve --map',
      ['tax', 'serve', '--rules', 'impostos.csv', '--map', 'fifo', '--auth', 'none', '--port', '0'],
      'error: fifo: cannot read the --map file (it is a named pipe (FIFO), not a file).',
    ],
    [
      'customer validate --map',
      ['customer', 'validate', 'impostos.csv', '--map', 'fifo'],
      'error: fifo: cannot read the --map file (it is a named pipe (FIFO), not a file).',
    ],
    [
      'tax serve --client-secret-file',
      ['tax', 'serve', '--rules', 'impostos.csv', '--map', 'impostos.map.json', '--port', '0'].concat([
        '--auth',
        'token',
        '--client-id',
        'plataforma',
        '--client-secret-file',
        'fifo',
      ]),
      'error: Cannot read the client secret file fifo (it is a named pipe (FIFO), not a file).',
    ],
    [
      'webhook listen --client-secret-file',
      ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--client-secret-file', 'fifo', '--inbox', 'inbox'],
      'error: Cannot read the client secret file fifo (it is a named pipe (FIFO), not a file).',
    ],
  ])('%s: refused at once (exit 66), naming it', async (_name, args, line) => {
    const folder = folderWithFifo();
    const result = await ended(spawnCli(args, freshConfigDir(), secretEnv, folder));
    expect(result).toMatchObject({ code: 66, signal: null, stdout: '' });
    expect(result.stderr.split('\n')).toContain(line);
  });

  it('webhook inbox --import of a folder whose events.ndjson is a FIFO: refused at once (exit 66), naming it', async () => {
    const folder = folderWithFifo();
    execFileSync('mkfifo', ['-m', '600', join(folder, 'events.ndjson')]);
    const result = await ended(
      spawnCli(['webhook', 'inbox', '--inbox', 'inbox', '--import', '.'], freshConfigDir(), {}, folder),
    );
    expect(result).toMatchObject({ code: 66, signal: null, stdout: '' });
    expect(result.stderr.split('\n')).toContain(
      'error: Cannot import events.ndjson: it is a named pipe (FIFO), not a file.',
    );
  });

  it('tax serve: a table swapped for a FIFO is refused in the log and on /healthz, the old one kept, and SIGTERM stops it', async () => {
    const folder = folderWithFifo();
    const child = spawnCli(
      ['tax', 'serve', '--rules', 'impostos.csv', '--map', 'impostos.map.json', '--auth', 'bearer', '--port', '0'],
      freshConfigDir(),
      secretEnv,
      folder,
    );
    const problem =
      'impostos.csv: it is a named pipe (FIFO), not a file, so it is not read; it is read again once a file is in its place';
    // Waited for as a log line, however long a busy machine takes to see the swap.
    const refusalLogged = new Promise<void>((resolve) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes(problem)) resolve();
      });
    });
    const result = ended(child);
    const url = await firstLine(child.stdout as NodeJS.ReadableStream);
    const table = join(folder, 'impostos.csv');
    rmSync(table);
    execFileSync('mkfifo', ['-m', '600', table]);
    await refusalLogged;
    // /healthz, which needs no credential, says that and when, never the problem (it may quote a file's lines).
    const health = (await (await fetch(`${url}/healthz`)).json()) as { table?: { rows: number } };
    expect(health.table).toMatchObject({
      rows: 6,
      refused: {
        problem: 'the new table was refused; the log line at that time says why, and the previous table is in use',
      },
    });
    child.kill('SIGTERM');
    const { code, signal, stderr } = await result;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // The server's log lines start with their time.
    const logged = stderr.split('\n').map((line) => line.replace(/^\S+Z /, ''));
    expect(logged).toContain(`${problem} (the previous table, 6 rows, is still in use)`);
  });
});
