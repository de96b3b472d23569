import { type Context, stdoutStyle } from '../../context.js';
import { NotFoundError } from '../../base/errors.js';
import { countOf } from '../../lib/plural.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { hiddenColumnsNote, terminalColumns } from '../../io/output/table.js';
import { wordWrap } from '../../lib/word-wrap.js';
import type { DeadLetter, EventStore } from '../../webhook/store/types.js';
import { redactSecrets, secretsOfUrl } from '../../lib/secret-values.js';
import { forwardCredentialOfEnvironment, scrubbedLine, scrubDeadLetters } from '../../webhook/dead-letter-scrub.js';
import { withStore } from '../../webhook/inbox-access.js';
import { storeLocation } from './store-url.js';
import { join } from 'node:path';
import { liveLockHolder } from '../../config/lock.js';
import { printable } from '../../lib/printable.js';
import { receiverLockName, type StoreLocation } from '../../webhook/store/open.js';

export interface DeadOptions {
  action: 'list' | 'retry' | 'drop';
  ids: number[];
  inbox?: string;
  store?: string;
  handoff?: string;
}

const deadLayout: RecordLayout<DeadLetter> = {
  table: [
    // The id is what `retry` and `drop` take, the hand-off what `--handoff` names: both kept whole, a long error is cut
    // with … on a terminal. On a narrow one the attempts, then the kind, are left out (and named on stderr) before the
    // instant is cut: its time of day tells two letters of one day apart (a user test); it gives way before a name is cut.
    { header: 'ID', value: (dead) => String(dead.eventId), keepWhole: true },
    { header: 'HAND-OFF', value: (dead) => dead.handOff, keepWhole: true },
    { header: 'KIND', value: (dead) => dead.kind, yieldsToWhole: true, dropRank: 1 },
    { header: 'RECEIVED', value: (dead) => dead.receivedAt, yieldsToWhole: true },
    { header: 'ATTEMPTS', value: (dead) => String(dead.attempts), yieldsToWhole: true, dropRank: 2 },
    // Counted as 16 wide when deciding what to leave out: a long error would otherwise leave out every column that
    // may go, at any width; the error itself takes what is left, cut with ….
    { header: 'ERROR', value: (dead) => `${dead.retry ? '(retry asked) ' : ''}${dead.error}`, plannedWidth: 16 },
  ],
  csv: ['eventId', 'handOff', 'kind', 'receivedAt', 'diedAt', 'attempts', 'error', 'retry'],
};

/** `b2bctl webhook dead list|retry ID...|drop ID...`: the events hand-offs gave up on. */
export async function run(options: DeadOptions, context: Context): Promise<void> {
  const location = await storeLocation(options, context);
  await withStore(
    location,
    // The dead letters' attempts and the masking of kept credentials are in the newest tables only.
    {
      command: `webhook dead ${options.action}`,
      warn: context.log.warn,
      interrupt: context.interrupt,
      readsEventsOnly: false,
    },
    async (store) => {
      if (options.action === 'list') {
        const secrets = await keptCredentials(store, context);
        await scrubBeforeListing(store, secrets, context);
        let hidden: readonly string[] = [];
        const writer = createRecordWriter(context.outputFormat('json'), context.io.stdout, deadLayout, {
          ...stdoutStyle(context),
          onHiddenColumns: (headers) => (hidden = headers),
        });
        // Masked as shown too: what the store cannot replace (a value short enough to be masked only standing alone).
        for (const dead of await store.deadLetters(options.handoff))
          await writer.write({ ...dead, error: redactSecrets(dead.error, secrets) });
        const count = await writer.end();
        // Columns left out to fit the terminal are named, as docs/output.md promises (prose, wrapped at spaces).
        if (hidden.length > 0)
          for (const line of wordWrap(
            hiddenColumnsNote(hidden, terminalColumns(context.io.stdout), '-o csv or -o json'),
            terminalColumns(context.io.stderr),
          ))
            context.log.info(line);
        context.log.info(`${countOf(count, 'dead letters')}.`);
        return;
      }
      // An id that is no dead letter (a typo, one delivered since) is named, not passed over: the rest are acted on.
      const dead = new Set((await store.deadLetters(options.handoff)).map((letter) => letter.eventId));
      const known = options.ids.filter((id) => dead.has(id));
      const unknown = options.ids.filter((id) => !dead.has(id));
      const notDead = `No dead letter with id ${unknown.join(', ')}${options.handoff ? ` for hand-off "${options.handoff}"` : ''}`;
      if (known.length === 0) throw new NotFoundError(`${notDead}; see webhook dead list.`);
      const changed =
        options.action === 'retry'
          ? await store.retryDead(known, options.handoff)
          : await store.dropDead(known, options.handoff);
      context.log.info(
        options.action === 'retry'
          ? `${countOf(changed, 'dead letters')} queued: ${whoDelivers(location, changed === 1 ? 'it' : 'them')}.`
          : `${countOf(changed, 'dead letters')} dropped (the events stay in the inbox until retention removes them).`,
      );
      if (unknown.length > 0)
        throw new NotFoundError(
          `${notDead}: left alone, the rest ${options.action === 'retry' ? 'queued' : 'dropped'}; see webhook dead list.`,
        );
    },
  );
}

/**
 * Who delivers a dead letter queued again, as far as this command can tell: an inbox folder's lock names its running
 * receiver, and with none, the next one started delivers it (a user test: "the running receiver delivers it" with no
 * receiver running, and the operator waited for a delivery nothing would make). Receivers of a PostgreSQL store run
 * on other machines, which a lock here does not show: both cases are said.
 */
function whoDelivers(location: StoreLocation, them: string): string {
  if (location.url !== undefined)
    return `the receiver delivering its hand-off delivers ${them} before its next event (with none running, the next one started delivers ${them} first)`;
  const holder = liveLockHolder(join(location.inbox, receiverLockName));
  return holder === undefined
    ? `no receiver runs on ${printable(location.inbox)}; the next one started on it delivers ${them} first`
    : `the running receiver (PID ${holder.pid}) delivers ${them} before its next event`;
}

/**
 * Masks the forward credential in the dead letters an earlier build kept before they are listed. A reader who cannot
 * write the store (an inbox file it may only read, a PostgreSQL role that may only select, a receiver holding the
 * write lock past the busy wait) still gets the list, masked as it is shown: one warning says the store still holds
 * the credential and who can mask it there. Listing is what the reader asked for; the scrub is housekeeping.
 */
async function scrubBeforeListing(store: EventStore, secrets: string[], context: Context): Promise<void> {
  try {
    const scrubbed = scrubbedLine(await scrubDeadLetters(store, secrets));
    if (scrubbed !== undefined) context.log.info(scrubbed);
  } catch (error) {
    if (context.interrupt.aborted) throw error;
    // The store's own words (read-only, locked, permission denied), masked: a driver may quote what it was sent.
    const reason = redactSecrets((error as Error).message, secrets);
    context.log.warn(
      `warning: the forward credential was not masked in the dead letters kept in ${store.description} (${reason}); this list masks it as it shows them, but the store still holds it in clear. Run b2bctl webhook dead list once as the user the receiver runs as (with the credential configured), or restart the receiver, to mask it there.`,
    );
  }
}

/**
 * The forward credential the dead letters of an earlier build may quote: the one configured
 * (B2BCTL_WEBHOOK_FORWARD_TOKEN, _BASIC), and the password and key of a hand-off URL an earlier build kept whole.
 */
async function keptCredentials(store: EventStore, context: Context): Promise<string[]> {
  const targets = (await store.backlog()).map((handOff) => handOff.target);
  return [...forwardCredentialOfEnvironment(context.env), ...targets.flatMap((target) => secretsOfUrl(target))];
}
