/**
 * `orders poll --out-dir` and folders other users share. A folder another user owns, reaches through their link, or
 * may write (1777, as /tmp and many export folders are) is refused at start, as `webhook listen --fetch-orders`
 * refuses its orders folder (exit 77, nothing fetched or written): they could swap an order for a forged one.
 *
 * A folder opened to others while a run writes into it: another user who made a file of the next order's name first
 * keeps it, since the folder's sticky bit lets only a file's owner replace it. The run must stop on one line naming
 * the order, the file and its owner, leave no temporary file holding the order behind, and keep the cursor before
 * that order. The tests run as root, whom the sticky rule lets through: node's renameSync here applies the kernel's
 * rule to this process as to an ordinary user's (a rename onto another user's file in a sticky folder is EPERM).
 */
import fs, {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { orderFileName } from '../../../src/domain/order-file-name.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import type { TestContext } from '../../support/test-context.js';
import type { Clock } from '../../../src/base/clock.js';
import { requireThat } from '../../support/external-tools.js';
import { logInProcess, requestCounts, resetCounts } from '../../support/sandbox.js';

const listing = 'GET /v1/orders';

// node:fs's own export, replaced for this file only: the commands project shares its modules between files
// (isolate: false), so a vi.mock of node:fs could find src already loaded with the real one.
const realRename = fs.renameSync;
/** What another user does to the folder just before the next rename into it, once: the race a run can lose. */
let beforeNextRename: { folder: string; act: () => void } | undefined;
function stickyRename(from: fs.PathLike, to: fs.PathLike): void {
  if (beforeNextRename !== undefined && dirname(String(to)) === beforeNextRename.folder) {
    const { act } = beforeNextRename;
    beforeNextRename = undefined;
    act();
  }
  const sticky = (fs.statSync(dirname(String(to))).mode & 0o1000) !== 0;
  const ownerOfTarget = fs.existsSync(to) ? fs.lstatSync(to).uid : undefined;
  if (sticky && ownerOfTarget !== undefined && ownerOfTarget !== process.getuid?.())
    throw Object.assign(new Error(`EPERM: operation not permitted, rename '${String(from)}' -> '${String(to)}'`), {
      code: 'EPERM',
      syscall: 'rename',
    });
  realRename(from, to);
}
beforeAll(() => {
  fs.renameSync = stickyRename;
  syncBuiltinESMExports();
});
afterAll(() => {
  fs.renameSync = realRename;
  syncBuiltinESMExports();
});

const root = requireThat(process.getuid?.() === 0, 'giving a file to another user needs root');
const otherUser = 4321;

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox } = ready));
beforeEach(async () => {
  configDir = await logInProcess(sandbox, { configDir: freshConfigDir(), clock: systemClock });
});

const poll = (args: string[]) => runCommandLine(['orders', 'poll', ...args], { configDir });

/** A run into `outDir` refused at start: exit 77, nothing listed, no cursor; its stderr. */
const refused = async (outDir: string, cursor: string) => {
  await resetCounts(sandbox);
  const result = await poll(['--since', '1d', '--cursor', cursor, '--out-dir', outDir]);
  expect(result.code).toBe(77);
  expect(result.stdout).toBe('');
  expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  expect(existsSync(cursor)).toBe(false);
  return result.stderr;
};

describe('orders poll --out-dir in a folder shared with other users', () => {
  it.skipIf(root.missing)(
    `a file another user made under the next order's name, in a folder opened to others during the run, stops the run on one line, with no temporary file left and the cursor before that order${root.note}`,
    async () => {
      const work = freshWorkDir();
      const since = new Date(Date.now() - 86_400_000).toISOString();
      // Which order comes first, and so the name the other user takes.
      const listed = await poll(['--since', since, '--cursor', join(work, 'look.json'), '-o', 'ndjson']);
      expect(listed.code).toBe(0);
      const first = JSON.parse(listed.stdout.split('\n')[0]!) as { id: number; orderId: number; lastUpdated: string };
      const shared = join(work, 'shared');
      mkdirSync(shared, { mode: 0o700 });
      const name = orderFileName(first.id, { orderNumber: first.orderId, lastUpdated: first.lastUpdated });
      const squatted = join(shared, name);
      // Safe when the run starts; opened to everyone, and the name taken, while it fetches.
      beforeNextRename = {
        folder: shared,
        act: () => {
          chmodSync(shared, 0o1777);
          writeFileSync(squatted, '{"id":0,"status":"FAKE"}\n');
          chownSync(squatted, otherUser, otherUser);
        },
      };
      const cursor = join(work, 'cursor.json');
      const args = ['--since', since, '--cursor', cursor, '--out-dir', shared];

      const result = await poll(args);

      expect(result.code).toBe(75);
      expect(result.stderr).toBe(
        `error: Cannot write order ${first.id} (number ${first.orderId}) to ${squatted}: another user, uid ${otherUser}, made a file of that name there first, and b2bctl may not replace it (EPERM); it is no order b2bctl wrote. Have it removed (by its owner or root: rm ${squatted}), or use an --out-dir no other user can write to; the cursor has not passed this order, so running the same command again writes it.\n`,
      );
      expect(readdirSync(shared)).toEqual([name]);
      expect(readFileSync(squatted, 'utf8')).toBe('{"id":0,"status":"FAKE"}\n');
      expect(existsSync(cursor)).toBe(false);

      // Once the file is gone and the folder is private again, the same command writes the order it stopped at.
      rmSync(squatted);
      chmodSync(shared, 0o700);
      const again = await poll(args);
      expect(again.code).toBe(0);
      expect(JSON.parse(readFileSync(squatted, 'utf8'))).toMatchObject({ id: first.id });
      expect(existsSync(cursor)).toBe(true);
    },
  );

  // Written into a folder others could change, the orders could be renamed away and forged ones put in their place
  // for the ERP to import: the poll wrote them there, exit 0, without a word.
  describe('a folder other users could change is refused at start (exit 77), nothing fetched or written', () => {
    it('one shared on purpose (1777): the fix is a folder of ones own in it, never its chmod', async () => {
      const shared = join(freshWorkDir(), 'shared');
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      expect(await refused(shared, join(freshWorkDir(), 'c.json'))).toBe(
        `error: The orders folder ${shared} is writable by its group and others (mode 1777): they could swap the orders the ERP reads from it for forged ones. It is shared on purpose, as /tmp is (the sticky bit): leave its mode, and give --out-dir a folder of your own (mkdir -m 700 ${shared}/erp-orders).\n`,
      );
      expect(readdirSync(shared)).toEqual([]);
    });

    it('one its group may write (0770)', async () => {
      const team = join(freshWorkDir(), 'team');
      mkdirSync(team);
      chmodSync(team, 0o770);
      expect(await refused(team, join(freshWorkDir(), 'c.json'))).toBe(
        `error: The orders folder ${team} is writable by its group (mode 0770): they could swap the orders the ERP reads from it for forged ones. Run chmod 700 ${team}.\n`,
      );
      expect(readdirSync(team)).toEqual([]);
    });

    it.skipIf(root.missing)(
      `one another user owns (0777), given itself or through their link${root.note}`,
      async () => {
        const shared = join(freshWorkDir(), 'shared');
        mkdirSync(shared, { mode: 0o1777 });
        chmodSync(shared, 0o1777);
        const theirs = join(shared, 'nb-out');
        mkdirSync(theirs);
        chmodSync(theirs, 0o777);
        chownSync(theirs, otherUser, otherUser);
        const link = join(shared, 'erp-orders');
        fs.symlinkSync(theirs, link);
        fs.lchownSync(link, otherUser, otherUser);
        expect(await refused(theirs, join(freshWorkDir(), 'c.json'))).toBe(
          `error: The orders folder ${theirs} belongs to uid ${otherUser}, not to root: they could swap the orders the ERP reads from it for forged ones. Make it yours (sudo chown root ${theirs} && chmod 700 ${theirs}), or give --out-dir a folder of your own.\n`,
        );
        expect(await refused(link, join(freshWorkDir(), 'c.json'))).toBe(
          `error: The orders folder ${link} is a symbolic link that belongs to uid ${otherUser}, not to root: that user can point it at another folder, another job's orders folder of yours or one of theirs whenever they like. Give --out-dir a folder of your own, or remove the link (rm ${link}).\n`,
        );
        expect(readdirSync(theirs)).toEqual([]);
      },
    );

    it('a folder of ones own, missing, is made 0700 and written', async () => {
      const made = join(freshWorkDir(), 'erp', 'orders');
      const result = await poll(['--since', '1d', '--cursor', join(freshWorkDir(), 'c.json'), '--out-dir', made]);
      expect(result.code).toBe(0);
      expect(fs.statSync(made).mode & 0o777).toBe(0o700);
      expect(readdirSync(made).length).toBeGreaterThan(0);
    });
  });

  // A --watch runs for weeks: a folder handed to others meanwhile is refused at its next cycle, which is tried again.
  it('a --watch checks the folder again at each cycle: once others may write it, nothing more is fetched', async () => {
    const outDir = join(freshWorkDir(), 'orders');
    let run: TestContext | undefined;
    let sleeps = 0;
    const clock: Clock = {
      now: () => Date.now() + sleeps * 60_000,
      async sleep(_ms, signal) {
        signal?.throwIfAborted();
        sleeps++;
        if (sleeps === 1) {
          chmodSync(outDir, 0o777);
          await resetCounts(sandbox);
        } else run?.interrupt('SIGTERM');
        signal?.throwIfAborted();
      },
    };
    const result = await runCommandLine(
      ['orders', 'poll', '--watch', '--since', '1d', '--cursor', join(freshWorkDir(), 'c.json'), '--out-dir', outDir],
      { configDir, clock, started: (test) => (run = test) },
    );
    expect(result.stderr).toContain(
      `orders poll: cycle failed (The orders folder ${outDir} is writable by its group and others (mode 0777): they could swap the orders the ERP reads from it for forged ones. Run chmod 700 ${outDir}.); trying again in 1 min, from the cursor.\n`,
    );
    expect((await requestCounts(sandbox))[listing]).toBeUndefined();
  });
});
