/**
 * Output paths of bulk runs (issue 9): checked before anything is sent, movable with --report,
 * --errors and the outputDir setting, and a write that fails mid-run stops cleanly with the resume line.
 * Exit 69 when the platform was unavailable for every request, whatever the size of the file.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import {
  cleanEnv,
  cliPath,
  refusedPort,
  collect,
  copySamples,
  freshConfigDir,
  freshWorkDir,
  runCli,
  useSandboxPerFile,
} from '../../support/cli.js';
import { requireThat } from '../../support/external-tools.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { spawn } from 'node:child_process';

let sandbox: RunningSandbox;
let token: string;
useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** Whether this machine lets a process mount a folder read-only in its own namespace (root, unshare). */
const readOnlyMount = requireThat(
  spawnSync('unshare', ['-m', 'sh', '-c', 'mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp'], {
    stdio: 'ignore',
  }).status === 0,
  'mounting a folder read-only needs root and unshare (util-linux)',
);

/** Runs the CLI with `folder` mounted read-only, as an ERP's export share often is. */
function runWithReadOnlyFolder(folder: string, args: string[], env: Record<string, string>) {
  const quoted = [process.execPath, cliPath, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn(
    'unshare',
    [
      '-m',
      'sh',
      '-c',
      `mount --bind '${folder}' '${folder}' && mount -o remount,ro,bind '${folder}' && cd '${folder}' && exec ${quoted}`,
    ],
    { cwd: folder, env: cleanEnv(freshConfigDir(), env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return collect(child);
}

describe('a read-only input folder', () => {
  it.skipIf(readOnlyMount.missing)(
    `is refused before anything is sent (exit 2), naming the flag and setting${readOnlyMount.note}`,
    async () => {
      const folder = freshWorkDir();
      copySamples(folder, 'stock.csv');
      const result = await runWithReadOnlyFolder(folder, ['stock', 'push', 'stock.csv'], {
        B2BCTL_BASE_URL: sandbox.url,
        B2BCTL_TOKEN: token,
      });
      expect(result.code).toBe(2);
      expect(lastLine(result.stderr)).toMatch(
        /^error: Cannot write the report stock\.report-\d{8}-\d{6}\.csv \(EROFS\); nothing was sent\. Choose a writable path with --report or the outputDir setting\.$/,
      );
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it.skipIf(readOnlyMount.missing)(
    `with the outputDir setting, the push runs and its files land there${readOnlyMount.note}`,
    async () => {
      const folder = freshWorkDir();
      const output = freshWorkDir();
      copySamples(folder, 'stock.csv');
      const result = await runWithReadOnlyFolder(folder, ['stock', 'push', 'stock.csv'], {
        B2BCTL_BASE_URL: sandbox.url,
        B2BCTL_TOKEN: token,
        B2BCTL_OUTPUT_DIR: output,
      });
      expect(result.stderr).toContain('stock push: 52 applied;');
      expect(result.code).toBe(0);
      const files = readdirSync(output).toSorted();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^stock\.report-\d{8}-\d{6}\.csv$/);
      expect(files[1]).toMatch(/^stock\.report-\d{8}-\d{6}\.meta\.json$/);
    },
  );
});

describe('--errors PATH', () => {
  it('an errors file in a folder that does not exist is refused before anything is sent', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'stock.csv');
    const result = await runCli(['stock', 'push', 'stock.csv', '--errors', 'missing/errors.csv'], {
      configDir: freshConfigDir(),
      cwd: folder,
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    });
    expect(result.code).toBe(2);
    expect(lastLine(result.stderr)).toBe(
      'error: Cannot write the errors file missing/errors.csv (ENOENT); nothing was sent. Choose a writable path with --errors or the outputDir setting.',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('receives the rejected records where it says', async () => {
    const folder = freshWorkDir();
    mkdirSync(join(folder, 'out'));
    const rows = readFileSync(join(seedDirectory, 'stock.csv'), 'utf8').trimEnd().split(/\r?\n/);
    // A negative quantity is invalid: with --skip-invalid it goes to the errors file, the rest is sent.
    const broken = (rows[1] as string).split(';');
    broken[2] = '-5';
    writeFileSync(join(folder, 'stock.csv'), [rows[0], broken.join(';'), ...rows.slice(2)].join('\r\n') + '\r\n');
    const result = await runCli(['stock', 'push', 'stock.csv', '--skip-invalid', '--errors', 'out/rejected.csv'], {
      configDir: freshConfigDir(),
      cwd: folder,
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('stock push: errors: out/rejected.csv (1 record to fix and feed back)');
    expect(readFileSync(join(folder, 'out', 'rejected.csv'), 'utf8').split('\r\n')).toHaveLength(3);
  });

  it('a write that fails mid-run (a full disk) stops cleanly with the resume line, exit 75', async () => {
    const folder = freshWorkDir();
    const rows = readFileSync(join(seedDirectory, 'stock.csv'), 'utf8').trimEnd().split(/\r?\n/);
    const broken = (rows[30] as string).split(';');
    broken[2] = '-5';
    writeFileSync(
      join(folder, 'stock.csv'),
      [rows[0], ...rows.slice(1, 30), broken.join(';'), ...rows.slice(31)].join('\r\n') + '\r\n',
    );
    const result = await runCli(
      [
        'stock',
        'push',
        'stock.csv',
        '--skip-invalid',
        '--batch-size',
        '10',
        '--concurrency',
        '1',
        '--errors',
        '/dev/full',
      ],
      { configDir: freshConfigDir(), cwd: folder, env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token } },
    );
    expect(result.code).toBe(75);
    expect(lastLine(result.stderr)).toMatch(
      /^error: Cannot write \/dev\/full \(ENOSPC\)\. Stopped; the requests in flight were finished\. Once it is writable, run: B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.csv --profile default --base-url http:\/\/127\.0\.0\.1:\d+ --skip-invalid --concurrency 1 --route batch --batch-size 10 --resume stock\.report-\d{8}-\d{6}\.csv$/,
    );
    // The summary agrees with the report: what was sent before the stop is there.
    const reportName = readdirSync(folder).find((name) => /^stock\.report-.*\.csv$/.test(name)) as string;
    const applied = readFileSync(join(folder, reportName), 'utf8')
      .split('\r\n')
      .filter((row) => row.split(',')[2] === 'applied').length;
    expect(result.stderr).toContain(`stock push: ${applied} applied, 1 invalid, ${51 - applied} not sent;`);
    expect(applied).toBeLessThan(51);
  });
});

describe('a platform that is down', () => {
  it('a 52-item push exits 69 and says the platform was unavailable, with the resume line', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'stock.csv');
    const port = await refusedPort();
    const result = await runCli(['stock', 'push', 'stock.csv', '--retries', '0'], {
      configDir: freshConfigDir(),
      cwd: folder,
      env: { B2BCTL_BASE_URL: `http://127.0.0.1:${port}`, B2BCTL_TOKEN: token },
    });
    expect(result.code).toBe(69);
    expect(lastLine(result.stderr)).toMatch(
      /^error: Cannot reach http:\/\/127\.0\.0\.1:\d+ .*\(ECONNREFUSED\)\..* The platform was unavailable for every request of this run \(52 items not sent\); when it is back, run: B2BCTL_CONFIG_DIR=\S+ b2bctl stock push stock\.csv --profile default --base-url http:\/\/127\.0\.0\.1:\d+ --retries 0 --route batch --resume stock\.report-\d{8}-\d{6}\.csv$/,
    );
    expect(result.stderr).not.toContain('did not go through');
  });
});

/**
 * b2bctl ARGS with its stdout on /dev/full (every write fails with ENOSPC, as on a full disk). Spawned, not run
 * synchronously: the sandbox answering it lives in this process.
 */
async function withStdoutFull(args: readonly string[], env: Record<string, string> = {}) {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: cleanEnv(freshConfigDir(), { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token, ...env }),
      stdio: ['ignore', full, 'pipe'],
    });
    return await collect(child);
  } finally {
    closeSync(full);
  }
}

const devFull = requireThat(existsSync('/dev/full'), 'no /dev/full on this system');

describe.skipIf(devFull.missing)(`a stdout that cannot be written${devFull.note}`, () => {
  it('is a failed write: exit 75 and one log line, timestamped off a terminal', async () => {
    const result = await withStdoutFull(['sellers', 'list', '--all', '-o', 'json'], { B2BCTL_LOG_FORMAT: 'text' });
    expect(result.code).toBe(75);
    expect(result.stderr).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z error: cannot write to stdout \(ENOSPC\): what was printed is incomplete; make room or write elsewhere, then run the command again\.\n$/,
    );
  });

  it('with --log-format json, the line is a JSON object as every other', async () => {
    const result = await withStdoutFull(['sellers', 'list', '--all', '-o', 'json', '--log-format', 'json']);
    expect(result.code).toBe(75);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'error',
      message:
        'cannot write to stdout (ENOSPC): what was printed is incomplete; make room or write elsewhere, then run the command again.',
    });
  });

  it('a bulk run with -o json: the error, then the closing line with exit 75, last; nothing to send again', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'stock.csv');
    const input = join(folder, 'stock.csv');
    // collect() checks that the closing line's exit code is the process's.
    const result = await withStdoutFull(['stock', 'push', input, '--route', 'batch', '-o', 'json']);
    expect(result.code).toBe(75);
    expect(result.closingLine).toBe(`stock push: ${input} to profile "default" (${sandbox.url}): 52 applied; exit 75`);
    const report = join(folder, readdirSync(folder).find((name) => name.startsWith('stock.report-')) as string);
    expect(lastLine(result.stderr)).toBe(
      `error: cannot write to stdout (ENOSPC): the run's summary (-o json) was not printed; the run itself is done (52 applied), and its report has every outcome: ${report}. Nothing needs sending again: make room, or write stdout elsewhere, next time.`,
    );
  });

  it('a bulk run that failed keeps its own error and exit code; the lost summary is said before them', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'stock.csv');
    const input = join(folder, 'stock.csv');
    const port = await refusedPort();
    const result = await withStdoutFull(['stock', 'push', input, '--route', 'batch', '--retries', '0', '-o', 'json'], {
      B2BCTL_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(result.code).toBe(69);
    expect(result.closingLine).toBe(
      `stock push: ${input} to profile "default" (http://127.0.0.1:${port}): 52 failed; exit 69`,
    );
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-2)).toBe("error: cannot write to stdout (ENOSPC): the run's summary (-o json) was not printed.");
    expect(lines.at(-1)).toMatch(
      /^error: Cannot reach .* The platform was unavailable for every request of this run \(52 items not sent\); when it is back, run: /,
    );
  });

  it('--version, answered before the bundle loads, says the same line, in the log format of the run', async () => {
    const text = await withStdoutFull(['--version'], { B2BCTL_LOG_FORMAT: 'text' });
    expect(text.code).toBe(75);
    expect(text.stderr).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z error: cannot write to stdout \(ENOSPC\): what was printed is incomplete; make room or write elsewhere, then run the command again\.\n$/,
    );
    const json = await withStdoutFull(['--version'], { B2BCTL_LOG_FORMAT: 'json' });
    expect(json.code).toBe(75);
    const lines = json.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'error',
      message:
        'cannot write to stdout (ENOSPC): what was printed is incomplete; make room or write elsewhere, then run the command again.',
    });
  });
});
