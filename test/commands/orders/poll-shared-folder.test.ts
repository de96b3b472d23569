/**
 * `orders poll --out-dir` into a folder other users share (1777, as /tmp and many export folders are): another
 * user who made a file of the next order's name first keeps it, since the folder's sticky bit lets only a file's
 * owner replace it. The run must stop on one line naming the order, the file and its owner, leave no temporary file
 * holding the order behind, and keep the cursor before that order.
 *
 * The tests run as root, whom the sticky rule lets through: node's renameSync here applies the kernel's rule to this
 * process as to an ordinary user's (a rename onto another user's file in a sticky folder is EPERM).
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
import { orderFileName } from '../../../src/orders/order-output.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { logInProcess } from '../../support/sandbox.js';

// node:fs's own export, replaced for this file only: the commands project shares its modules between files
// (isolate: false), so a vi.mock of node:fs could find src already loaded with the real one.
const realRename = fs.renameSync;
function stickyRename(from: fs.PathLike, to: fs.PathLike): void {
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

describe('orders poll --out-dir in a folder shared with other users', () => {
  it.skipIf(root.missing)(
    `a file another user made under the next order's name stops the run on one line, with no temporary file left and the cursor before that order${root.note}`,
    async () => {
      const work = freshWorkDir();
      const since = new Date(Date.now() - 86_400_000).toISOString();
      // Which order comes first, and so the name the other user takes.
      const listed = await poll(['--since', since, '--cursor', join(work, 'look.json'), '-o', 'ndjson']);
      expect(listed.code).toBe(0);
      const first = JSON.parse(listed.stdout.split('\n')[0]!) as { id: number; orderId: number; lastUpdated: string };
      const shared = join(work, 'shared');
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      const name = orderFileName({ id: first.id, orderNumber: first.orderId, lastUpdated: first.lastUpdated });
      const squatted = join(shared, name);
      writeFileSync(squatted, '{"id":0,"status":"FAKE"}\n');
      chownSync(squatted, otherUser, otherUser);
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

      // Once the file is gone, the same command writes the order it stopped at.
      rmSync(squatted);
      const again = await poll(args);
      expect(again.code).toBe(0);
      expect(JSON.parse(readFileSync(squatted, 'utf8'))).toMatchObject({ id: first.id });
      expect(existsSync(cursor)).toBe(true);
    },
  );
});
