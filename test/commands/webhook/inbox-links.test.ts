import { existsSync, lchownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { run as replay } from '../../../src/commands/webhook/replay.js';
import { run as status } from '../../../src/commands/webhook/status.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { oldInboxLine, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { requireThat } from '../../support/external-tools.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

const root = requireThat(process.getuid?.() === 0, 'giving a link to another user needs root');
const otherUser = 65534;

/** An ERP that counts what it is sent: a replay refused at start sends it nothing. */
async function countingErp(): Promise<{ to: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = createServer((request, response) => {
    received++;
    request.resume();
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const to = `http://127.0.0.1:${(server.address() as { port: number }).port}/events`;
  return { to, received: () => received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type RunContext = ReturnType<typeof testContext>['context'];

/** Every reader of the inbox, each run against `inbox` (a replay to `erp`): how each ended. */
async function readersAgainst(inbox: string, erp: string) {
  const readers: Record<string, (context: RunContext) => Promise<void>> = {
    'webhook status': (run) => status({ inbox, stuckAfter: 600 }, run),
    'webhook inbox': (run) => listInbox({ inbox }, run),
    'webhook dead list': (run) => dead({ inbox, action: 'list', ids: [] }, run),
    'webhook replay': (run) => replay({ inbox, to: erp, attempts: 1, execTimeout: 60_000 }, run),
  };
  const outcomes = [];
  for (const [command, read] of Object.entries(readers)) {
    const memory = newContext();
    const failure = (await read(memory.context).catch((error: unknown) => error)) as
      (Error & { exitCode?: number }) | undefined;
    outcomes.push({ command, message: failure?.message, exitCode: failure?.exitCode, stdout: memory.stdout() });
  }
  return outcomes;
}

/** What each reader is expected to have done: refused with `message`, exit 77, nothing written. */
function everyReaderRefused(message: RegExp) {
  return ['webhook status', 'webhook inbox', 'webhook dead list', 'webhook replay'].map((command) => ({
    command,
    message: expect.stringMatching(message),
    exitCode: 77,
    stdout: '',
  }));
}

function newContext() {
  return testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
}

// The readers open the inbox a receiver keeps: through another user's link they would read, replay to the ERP or
// drop the events of whichever inbox its owner points it at, as the receiver itself refuses (listen.test.ts).
describe.skipIf(root.missing)(`webhook inbox readers and links another user owns${root.note}`, () => {
  it('refuse an --inbox folder that is another user’s link (exit 77, one line naming it and its owner), sending nothing', async () => {
    const mine = await inboxWithOneEvent();
    const shared = join(temporaryFolder(), 'shared');
    mkdirSync(shared, { mode: 0o1777 });
    const link = join(shared, 'inbox');
    symlinkSync(mine, link);
    lchownSync(link, otherUser, otherUser);
    const erp = await countingErp();
    try {
      expect(await readersAgainst(link, erp.to)).toEqual(
        everyReaderRefused(
          new RegExp(
            `^The inbox folder ${link} is a symbolic link that belongs to \\S+ \\(uid ${otherUser}\\), not to root: that user can point it at another inbox \\(its events, its token key\\) or a folder of theirs whenever they like\\. Give --inbox the folder itself, one of your own, or remove the link \\(rm ${link}\\)\\.$`,
          ),
        ),
      );
      expect(erp.received()).toBe(0);
    } finally {
      await erp.close();
    }
  });

  it('refuse an --inbox folder reached through another user’s link higher in the path (shared/cl/inbox), sending nothing', async () => {
    const mine = await inboxWithOneEvent();
    const shared = join(temporaryFolder(), 'shared');
    mkdirSync(shared, { mode: 0o1777 });
    const link = join(shared, 'cl');
    symlinkSync(dirname(mine), link);
    lchownSync(link, otherUser, otherUser);
    const named = join(link, basename(mine));
    const erp = await countingErp();
    try {
      expect(await readersAgainst(named, erp.to)).toEqual(
        everyReaderRefused(
          new RegExp(
            `^The inbox folder ${named} leads through ${link}, a symbolic link that belongs to \\S+ \\(uid ${otherUser}\\), not to root: .* or remove the link \\(rm ${link}\\)\\.$`,
          ),
        ),
      );
      expect(erp.received()).toBe(0);
    } finally {
      await erp.close();
    }
  });

  it('refuse an inbox.sqlite that is another user’s link (exit 77, naming it and its owner), sending nothing', async () => {
    const mine = await inboxWithOneEvent();
    const folder = temporaryFolder();
    const link = join(folder, 'inbox.sqlite');
    symlinkSync(join(mine, 'inbox.sqlite'), link);
    lchownSync(link, otherUser, otherUser);
    const erp = await countingErp();
    try {
      expect(await readersAgainst(folder, erp.to)).toEqual(
        everyReaderRefused(
          new RegExp(
            `^${link} is a symbolic link that belongs to \\S+ \\(uid ${otherUser}\\); b2bctl keeps its inbox only in files of its own\\. Remove it \\(rm ${link}\\), or pass another --inbox\\.$`,
          ),
        ),
      );
      expect(erp.received()).toBe(0);
    } finally {
      await erp.close();
    }
  });

  it.each(['folder', 'events.ndjson'])(
    'refuse to --import an old NDJSON inbox whose %s is another user’s link (exit 77), the store untouched',
    async (linked) => {
      const old = temporaryFolder();
      writeFileSync(join(old, 'events.ndjson'), `${oldInboxLine(1)}\n`);
      const shared = join(temporaryFolder(), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const link = linked === 'folder' ? join(shared, 'old-inbox') : join(shared, 'events.ndjson');
      symlinkSync(linked === 'folder' ? old : join(old, 'events.ndjson'), link);
      lchownSync(link, otherUser, otherUser);
      const inbox = temporaryFolder();
      const memory = newContext();
      const failure = (await listInbox({ inbox, import: link }, memory.context).catch((error: unknown) => error)) as
        (Error & { exitCode?: number }) | undefined;
      expect(failure?.message).toMatch(
        new RegExp(
          `^The NDJSON inbox ${link} is a symbolic link that belongs to \\S+ \\(uid ${otherUser}\\), not to root: that user can point it at a file of theirs, whose events would be taken into the store and handed to the ERP, whenever they like\\. Give --import the folder or file itself, one of your own, or remove the link \\(rm ${link}\\)\\.$`,
        ),
      );
      expect(failure?.exitCode).toBe(77);
      expect(existsSync(join(inbox, 'inbox.sqlite'))).toBe(false);
      expect(existsSync(join(old, 'events.ndjson'))).toBe(true);
    },
  );

  it('follow an --inbox link of this user’s own (a choice of theirs)', async () => {
    const mine = await inboxWithOneEvent();
    const link = join(temporaryFolder(), 'inbox');
    symlinkSync(mine, link);
    const memory = newContext();
    await listInbox({ inbox: link }, memory.context);
    expect(memory.stdout()).toContain('"deliveryId":"delivery-1"');
  });
});
