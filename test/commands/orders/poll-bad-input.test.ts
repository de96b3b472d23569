/**
 * `orders poll` refusing bad input before anything is sent (exit 2): whole command lines in process (the real
 * program, argv to exit code, as runCommandLine runs them). Moved from test/e2e/orders/poll.test.ts with their
 * assertions unchanged; that the binary itself exits 2 on a usage error is checked in test/e2e/safety/hints.test.ts.
 */
import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { FakeClock } from '../../support/fake-clock.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { logInProcess, requestCounts, resetCounts } from '../../support/sandbox.js';

const listing = 'GET /v1/orders';
const root = requireThat(process.getuid?.() === 0, 'giving a file to another user needs root');
let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox } = ready));
// A fresh login per test: no cursor or setting of one test reaches the next.
beforeEach(async () => {
  configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
  const lag = await runCommandLine(['config', 'set', 'orders.lag', '0'], { configDir });
  if (lag.code !== 0) throw new Error(`config set orders.lag 0: ${lag.stderr}`);
});

const poll = (args: string[] = []) => runCommandLine(['orders', 'poll', ...args], { configDir });

/** The line a cursor that is no file is refused with. */
const cursorNotAFile = (path: string, kind: string) =>
  `error: The orders cursor ${path} is ${kind}, not a file: b2bctl keeps the cursor in a regular file, which it reads whole and replaces by a rename; nothing was emitted. Give --cursor the path of a file (a new one, with --since for its first run).\n`;

function makeFifo(path: string): string {
  execFileSync('mkfifo', ['-m', '600', path]);
  return path;
}

describe('orders poll: bad input stops before anything is sent (exit 2)', () => {
  it.each([
    [['--since', '2099-01-01T00:00:00Z'], /--since 2099-01-01T00:00:00.000Z is in the future/],
    [['--since', 'last tuesday'], /--since: "last tuesday" is neither an ISO-8601 date or date-time/],
    [['--since', '2026-01-10T00:00:00Z', '--until', '2026-01-05T00:00:00Z'], /--since .* is after --until/],
    [[], /the first run of this profile needs --since/],
    // A filter's first run: the profile may have a cursor, the filter has its own.
    [
      ['--status', 'AWAITING_PAYMENT'],
      /the first run of this profile with --status AWAITING_PAYMENT \(a filter keeps a cursor of its own\) needs --since/,
    ],
    [['--since', '1d', '--interval', '5'], /^error: --interval needs --watch: give both, or neither\.$/m],
    // A cycle's array after another is no JSON document; a header a cycle is no CSV.
    [
      ['--since', '1d', '--watch', '-o', 'json'],
      /orders poll --watch -o json: each cycle would write an array of its own, and the output would be no one JSON document\. Use -o ndjson \(one order a line\), or --out-dir DIR/,
    ],
    [
      ['--since', '1d', '--watch', '-o', 'csv'],
      /orders poll --watch -o csv: each cycle would write its own header line\./,
    ],
    // `--status "$STATUS"` with the variable unset would emit every order to a reader that wanted one status.
    [['--since', '1d', '--status', ''], /--status <status>' argument '' is invalid\. expected some text to look for/],
    // `--cursor "$CURSOR"` unset fetched and wrote orders, then failed to save an empty path's cursor (exit 75).
    [
      ['--since', '1d', '--cursor', ''],
      /^error: option '--cursor <file>' argument '' is invalid\. expected a file, not an empty text \(an unset shell variable\?\); leave --cursor out to use the profile's own cursor\.$/m,
    ],
    // A file or a device named as the folder: a bare `EEXIST: file already exists, mkdir …`, exit 1.
    [
      ['--since', '1d', '--out-dir', '/dev/null'],
      /^error: --out-dir \/dev\/null: it is a device, not a folder\. Give a folder \(it is made if it is missing\)\.$/m,
    ],
    [
      ['--since', '1d', '--out-dir', ''],
      /^error: option '--out-dir <dir>' argument '' is invalid\. expected a folder, not an empty text \(an unset shell variable\?\); leave --out-dir out to use stdout\.$/m,
    ],
  ])('%j', async (args, message) => {
    await resetCounts(sandbox);
    const result = await poll(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  });

  it('refuses a corrupt cursor and a cursor of another profile, naming the file', async () => {
    const folder = freshWorkDir();
    const corrupt = join(folder, 'corrupt.json');
    writeFileSync(corrupt, '{"profile": "default", "cursor": ');
    const foreign = join(folder, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ profile: 'prod', cursor: '2026-01-01T00:00:00Z', emitted: [] }));
    await resetCounts(sandbox);
    const first = await poll(['--cursor', corrupt]);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(`The orders cursor ${corrupt} is not a cursor file`);
    const second = await poll(['--cursor', foreign, '--since', '1d']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`The orders cursor ${foreign} belongs to profile "prod", not "default"`);
    expect(first.stdout + second.stdout).toBe('');
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  });

  it('refuses a cursor in the future beyond the look-back, naming the file, its date and the fix', async () => {
    // Copied from another machine, edited, or made by another user: read as is, it skipped every order until 2030.
    const future = join(freshWorkDir(), 'future.json');
    writeFileSync(future, JSON.stringify({ profile: 'default', cursor: '2030-01-01T00:00:00.000Z', emitted: [] }));
    await resetCounts(sandbox);
    const clock = new FakeClock(Date.parse('2026-11-29T12:00:00.000Z'));
    const result = await runCommandLine(['orders', 'poll', '--cursor', future], { configDir, clock });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: orders poll: the orders cursor ${future} has its "cursor" at 2030-01-01T00:00:00.000Z, in the future (this machine's clock: 2026-11-29T12:00:00.000Z), further ahead than orders.lookback reaches back: a run from it would skip every order updated until then; nothing was emitted. If this clock was set back since the cursor was written (an NTP step, a VM restored), run again once it has passed 2030-01-01T00:00:00.000Z, or poll with --watch, which waits for it; if this clock is right, the file was copied or edited: set its "cursor" to the last instant polled, or move the file aside and run again with --since to choose where to start.\n`,
    );
    expect(result.stdout).toBe('');
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  });

  it.skipIf(root.missing)(
    `refuses a cursor another user owns, as config.json is (exit 77): its owner decides what is skipped${root.note}`,
    async () => {
      const foreign = join(freshWorkDir(), 'theirs.json');
      writeFileSync(foreign, JSON.stringify({ profile: 'default', cursor: '2026-01-01T00:00:00.000Z', emitted: [] }));
      chownSync(foreign, 4321, 4321);
      await resetCounts(sandbox);
      const result = await poll(['--cursor', foreign]);
      expect(result.code).toBe(77);
      expect(result.stderr).toBe(
        `error: The orders cursor ${foreign} belongs to uid 4321, not to root: whoever can change it decides which orders the poll emits and which it skips; nothing was emitted. Use a --cursor file in a folder of your own (with --since for its first run), or, if you trust what it says, make it yours (sudo chown root ${foreign} && chmod 600 ${foreign}).\n`,
      );
      expect(result.stdout).toBe('');
      expect((await requestCounts(sandbox))[listing]).toBeUndefined();
    },
  );

  // Another user planted a link in the shared folder where a new job's cursor goes, pointing at this user's cursor of
  // another job: read through it, the first run continued from there and skipped every order since --since, exit 0.
  it('refuses a cursor that is a symbolic link, whoever owns it, before anything is sent (exit 77)', async () => {
    const first = await poll(['--since', '1h', '-o', 'ndjson']);
    expect(first.code).toBe(0);
    const own = join(configDir, 'cursors', 'default.orders-poll.json');
    const before = readFileSync(own, 'utf8');
    const shared = join(freshWorkDir(), 'shared');
    mkdirSync(shared, { mode: 0o1777 });
    const link = join(shared, 'erp-a.cursor');
    symlinkSync(own, link);
    if (!root.missing) lchownSync(link, 65534, 65534);
    await resetCounts(sandbox);
    const result = await poll(['--since', '7d', '--cursor', link]);
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: The orders cursor ${link} is a symbolic link, which b2bctl never follows: whoever can point it elsewhere decides which cursor the poll continues from, and so which orders it skips; nothing was emitted. Remove the link (rm ${link}) and give --cursor the file itself, or a new file (with --since for its first run).\n`,
    );
    expect(result.stdout).toBe('');
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(own, 'utf8')).toBe(before);
  });

  it('refuses a cursor others may write (exit 77)', async () => {
    const open = join(freshWorkDir(), 'open.json');
    writeFileSync(open, JSON.stringify({ profile: 'default', cursor: '2026-01-01T00:00:00.000Z', emitted: [] }));
    chmodSync(open, 0o666);
    await resetCounts(sandbox);
    const result = await poll(['--cursor', open]);
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: The orders cursor ${open} is writable by its group and others (mode 0666): whoever can change it decides which orders the poll emits and which it skips; nothing was emitted. Run chmod go-w ${open}, and check what it says.\n`,
    );
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  });

  // A FIFO cursor held the poll for ever in open(2), deaf to SIGTERM and Ctrl-C (a cron job piled up stuck runs, each
  // holding the profile's lock); /dev/zero was judged by its mode, with advice to `chmod go-w /dev/zero`.
  describe('refuses a cursor that is no file, saying what it is, before anything is opened or sent (exit 66)', () => {
    it.each([
      ['a named pipe (FIFO)', (work: string) => makeFifo(join(work, 'own.fifo'))],
      ['a character device', () => '/dev/zero'],
      ['a folder', (work: string) => work],
    ])('%s', { timeout: 20_000 }, async (kind, make) => {
      const path = make(freshWorkDir());
      const mode = lstatSync(path).mode;
      await resetCounts(sandbox);
      const result = await poll(['--since', '1h', '--cursor', path]);
      expect(result.code).toBe(66);
      expect(result.stderr).toBe(cursorNotAFile(path, kind));
      expect(result.stdout).toBe('');
      expect((await requestCounts(sandbox))[listing]).toBeUndefined();
      // Left as it was: neither replaced by a cursor nor changed in mode.
      expect(lstatSync(path).mode).toBe(mode);
    });

    it('a socket', { timeout: 20_000 }, async () => {
      const path = join(freshWorkDir(), 'erp.sock');
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(path, resolve));
      try {
        await resetCounts(sandbox);
        const result = await poll(['--since', '1h', '--cursor', path]);
        expect(result.code).toBe(66);
        expect(result.stderr).toBe(cursorNotAFile(path, 'a socket'));
        expect((await requestCounts(sandbox))[listing]).toBeUndefined();
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    // Another user's link in a shared folder, pointing at a FIFO of this user's: the link is refused, never followed.
    it('a link to a FIFO is refused as a link (exit 77)', { timeout: 20_000 }, async () => {
      const work = freshWorkDir();
      const link = join(work, 'erp-fifo.cursor');
      symlinkSync(makeFifo(join(work, 'own.fifo')), link);
      await resetCounts(sandbox);
      const result = await poll(['--since', '1h', '--cursor', link]);
      expect(result.code).toBe(77);
      expect(result.stderr).toMatch(/^error: The orders cursor \S+ is a symbolic link, which b2bctl never follows/);
      expect((await requestCounts(sandbox))[listing]).toBeUndefined();
    });
  });

  it('takes a cursor ahead by less than the look-back (a clock set back a little): nothing is skipped', async () => {
    const ahead = join(freshWorkDir(), 'ahead.json');
    const cursor = new Date(Date.now() + 60_000).toISOString();
    writeFileSync(ahead, JSON.stringify({ profile: 'default', cursor, emitted: [] }));
    const result = await poll(['--cursor', ahead]);
    expect(result.code).toBe(0);
  });
});
