import { type Context, stdoutStyle } from '../../context.js';
import { UnavailableError } from '../../base/errors.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { backlogHealth, type HandOffHealth } from '../../webhook/backlog.js';
import { withStore } from '../../webhook/inbox-access.js';
import { storeLocation } from './store-url.js';

export interface StatusOptions {
  inbox?: string;
  store?: string;
  stuckAfter: number;
}

const statusLayout: RecordLayout<HandOffHealth> = {
  table: [
    // The hand-off's name says which row is which: kept whole, a long target URL is cut with … on a terminal.
    { header: 'HAND-OFF', value: (row) => row.name, keepWhole: true },
    // On a narrow terminal the target and the oldest pending give way before the name is cut.
    { header: 'TARGET', value: (row) => row.target, yieldsToWhole: true },
    { header: 'PENDING', value: (row) => String(row.pending) },
    {
      header: 'OLDEST PENDING',
      value: (row) => (row.pending ? `${row.oldestPendingSeconds} s` : '-'),
      yieldsToWhole: true,
    },
    { header: 'DEAD', value: (row) => String(row.dead) },
  ],
  csv: ['name', 'target', 'pending', 'oldestPendingSeconds', 'dead'],
};

/** `b2bctl webhook status`: each hand-off's backlog, as /healthz gives it; exit 69 when one is stuck. */
export async function run(options: StatusOptions, context: Context): Promise<void> {
  const health = await withStore(
    await storeLocation(options, context),
    // A hand-off's failing event and its tries are in the newest tables only.
    { command: 'webhook status', warn: context.log.warn, interrupt: context.interrupt, readsEventsOnly: false },
    (store) => backlogHealth(store, context.clock.now(), options.stuckAfter),
  );
  const writer = createRecordWriter(context.outputFormat('json'), context.io.stdout, statusLayout, {
    ...stdoutStyle(context),
  });
  for (const row of health.handOffs) await writer.write(row);
  await writer.end();
  if (health.handOffs.length === 0)
    context.log.info('No hand-off yet: start webhook listen with --forward-to or --exec.');
  if (health.status === 'degraded') {
    const named = health.problems.map((problem) =>
      problem.problem === 'delivery stuck'
        ? `hand-off "${problem.handOff}" has an event waiting ${problem.seconds} s (over --stuck-after ${options.stuckAfter / 1000} s)`
        : problem.problem === 'dead letters'
          ? `hand-off "${problem.handOff}" has ${problem.count} dead letter${problem.count === 1 ? '' : 's'} (see webhook dead list)`
          : problem.problem === 'delivery held'
            ? `hand-off "${problem.handOff}" holds every later event behind event ${problem.eventId} (see the receiver's log)`
            : `the store cannot write`,
    );
    throw new UnavailableError(`Delivery is degraded: ${named.join('; ')}. See the receiver's log.`);
  }
}
