import { UsageError } from '../../base/errors.js';
import { parseInstant } from '../../domain/instants.js';
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { duration, httpUrl, port, routePath, waitDuration, wholeNumber } from '../../command-kit/parse.js';
import { withConnectionOptions, withProxyHeaderOptions } from '../../command-kit/shared-flags.js';
import { webhookKinds, type WebhookKind } from '../../domain/webhook-events.js';
import { isVariableName } from '../../webhook/exec-environment.js';
import type { DeadOptions } from './dead.js';
import { eventId, forwardBatch, postgresUrl } from './flags.js';
import type { InboxOptions } from './inbox.js';
import type { StatusOptions } from './status.js';
import type { ListenOptions } from './listen.js';
import type { ReplayOptions } from './replay.js';
import type { TriggerOptions } from './trigger.js';

const secretFileHelp =
  'file holding the client secret (or env B2BCTL_WEBHOOK_CLIENT_SECRET, or the webhook.clientSecretFile setting; never on the command line)';

const storeEnvHelp =
  'environment variable holding the --store URL (keeps its password out of the process list; or PGPASSWORD, ~/.pgpass)';
const allowHttpHelp = 'send the credential over plain http:// to another machine (readable by anyone on the way)';

/** What commander parses for `webhook listen`: the options, switches absent unless given. */
type ListenFlags = Omit<ListenOptions, 'allowHttp' | 'execEnv' | 'fetchOrders' | 'fromStart' | 'logEvents'> & {
  allowHttp?: true;
  execEnv?: string[];
  fetchOrders?: true;
  fromStart?: true;
  logEvents?: true;
};

/** What commander parses for `webhook trigger`. */
type TriggerFlags = Omit<TriggerOptions, 'kind' | 'allowHttp'> & { allowHttp?: true };

/** `b2bctl webhook listen|trigger|inbox|replay|status|dead` (docs/webhooks.md). */
export function register(program: Command, dispatch: Dispatch): void {
  const webhook = program
    .command('webhook')
    .summary("receive the platform's webhooks, or play the platform against a receiver")
    .description(
      "The platform's customer and order webhooks. webhook listen is the receiver: it issues tokens, stores every event durably before answering, once however often it is resent, and hands events to the ERP in order. trigger plays the platform against a receiver; inbox, replay, status and dead read the store, send events again and look after those that could not be delivered (docs/webhooks.md).",
    );

  withProxyHeaderOptions(
    withConnectionOptions(
      webhook
        .command('listen')
        .summary('run the receiver: token endpoint, customers and orders webhooks, durable inbox; prints its URL first')
        .description(
          'Runs the receiver the platform sends its webhooks to: a token endpoint (/oauth/token, with the client id and a secret of 32 characters at least from B2BCTL_WEBHOOK_CLIENT_SECRET or --client-secret-file), the customers and orders event routes, and /healthz. Each event is answered 2xx only once the store has committed it: a SQLite inbox in --inbox held by this receiver alone, or a PostgreSQL database shared by several (--store). Redeliveries are recognised for --dedup-window. A hand-off (--forward-to URL or --exec COMMAND) delivers the stored events to the ERP in order, at least once, retrying an ERP that is down and setting aside as dead letters the events it refuses. Its first stdout line is its URL; it runs until Ctrl-C, SIGTERM or SIGHUP, then commits the events in flight and exits 0.',
        )
        .option('--host <address>', 'address to listen on (anything but loopback must be asked for)', '127.0.0.1')
        .option('--port <port>', 'port; 0 picks a free one', port, 8788)
        .option('--client-id <id>', 'client id the platform authenticates with (or the webhook.clientId setting)')
        .option('--client-secret-file <file>', secretFileHelp)
        .option(
          '--inbox <dir>',
          'folder of the SQLite inbox, held by one receiver (default: webhooks/inbox in the config folder; webhooks/inbox-PROFILE for a --profile other than default)',
        )
        .option('--store <url>', 'a PostgreSQL store shared by several receivers: postgres://user@host/db', postgresUrl)
        .option('--store-env <name>', storeEnvHelp)
        .option('--token-ttl <seconds>', 'lifetime of issued tokens', wholeNumber(1), 3600)
        .option('--body-limit <bytes>', 'largest event accepted (413 above)', wholeNumber(1), 1024 * 1024),
      10_000,
    )
      .option(
        '--forward-to <url>',
        "POST each stored event to the ERP's endpoint, in order (its credential: env B2BCTL_WEBHOOK_FORWARD_TOKEN or _BASIC); 400/404/409/410/422 or --give-up-after make it dead",
        httpUrl,
      )
      .option('--allow-http', allowHttpHelp)
      .option(
        '--exec <command>',
        'run a shell command per stored event with the event on stdin, retrying on failure (exit 65: a dead letter at once)',
      )
      .option(
        '--exec-env <name>',
        "pass this variable of the environment on to --exec commands (repeat for more; they get PATH, HOME, LANG, TZ and the event's own otherwise)",
        variableNames,
      )
      .option('--handoff <name>', 'name keeping the hand-off position (default: forward or exec); a new URL keeps it')
      .option('--from-start', 'a new hand-off takes every stored event, not only those from now on')
      .addOption(
        durationOption(
          '--give-up-after <duration>',
          'how long an event failing with 5xx, timeouts or refused connections is retried before it goes dead',
          72 * 3_600_000,
          '72h',
        ),
      )
      .addOption(
        timeLimitOption(
          '--forward-timeout <duration>',
          'time the ERP has to answer each --forward-to POST: to its headers, then between chunks; at most 24h',
          30_000,
          '30s',
        ),
      )
      .option(
        '--forward-batch <n>',
        'each --forward-to POST carries a JSON array of up to n events in order, taken or refused together (an ERP that takes arrays)',
        forwardBatch,
        1,
      )
      .addOption(
        new Option('--max-attempts <n>', 'replaced by --give-up-after (ignored)').argParser(wholeNumber(1)).hideHelp(),
      )
      .addOption(
        timeLimitOption(
          '--exec-timeout <duration>',
          '--exec command time limit, at most 24h; its process group is killed after',
          60_000,
          '60s',
        ),
      )
      .option('--retain <duration>', 'remove delivered events older than this, such as 30d (default: keep)', duration)
      .addOption(
        durationOption('--dedup-window <duration>', 'how long redeliveries are recognised', 7 * 86_400_000, '7d'),
      )
      .addOption(
        durationOption(
          '--stuck-after <duration>',
          '/healthz and webhook status say degraded (delivery stuck) when a hand-off has been on one event longer than this',
          900_000,
          '15m',
        ),
      )
      .option('--fetch-orders', 'fetch the full order of each orders event through the API (logged-in profile)')
      .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM), with --tls-key')
      .option('--tls-key <file>', 'private key (PEM) of --tls-cert'),
  )
    .option('--log-events', 'print each stored event on stdout (default: a summary line every minute on stderr)')
    .addOption(new Option('--no-group-commit', 'fsync each event on its own (to measure group commit)').hideHelp())
    .action((_flags: unknown, command: Command) => {
      // Each flag is named as its option (commander's camel case); switches are absent unless given.
      const flags = command.opts<ListenFlags>();
      return dispatch<ListenOptions>(command, async () => (await import('./listen.js')).run, {
        ...flags,
        allowHttp: flags.allowHttp === true,
        execEnv: flags.execEnv ?? [],
        fetchOrders: flags.fetchOrders === true,
        fromStart: flags.fromStart === true,
        logEvents: flags.logEvents === true,
        groupCommit: flags.groupCommit !== false,
      });
    });

  webhook
    .command('trigger')
    .summary('play the platform: ask a token in the chosen style, then send one event, reporting each step')
    .description(
      "Plays the platform against a receiver, this one or the ERP's own: asks for a token with the client id and secret in the chosen style (basic, body or headers), then posts one customers or orders event, a realistic sample or the JSON of --data. Each step is printed with its status and answer: a line each on a terminal, a JSON line each when piped (-o json: one array; -o csv: a row each); a step that fails ends the run with one line saying why and a non-zero exit code. Use it to check a receiver before giving its URLs to the store's panel.",
    )
    // The choices for completion and help; the parser for the words of the refusal.
    .addArgument(new Argument('<kind>', 'customers or orders').choices(webhookKinds).argParser(kindArgument))
    .requiredOption('--url <base>', "the receiver's base URL, such as http://127.0.0.1:8788", httpUrl)
    .addOption(
      new Option('--style <style>', 'token request style').choices(['basic', 'body', 'headers']).default('basic'),
    )
    .option('--client-id <id>', 'client id to authenticate with (or the webhook.clientId setting)')
    .option('--client-secret-file <file>', secretFileHelp)
    .option('--data <file>', 'JSON file with the event to send (default: a realistic sample)')
    // Parsed as the webhook.paths.* settings are: a route on --url's host, never a URL of another's.
    .option(
      '--token-path <path>',
      'token route of the receiver, on the host of --url (default: the webhook.paths.token setting, /oauth/token)',
      routePath,
    )
    .option(
      '--event-path <path>',
      'event route, on the host of --url (default: the webhook.paths.<kind> setting, /webhooks/<kind>)',
      routePath,
    )
    .option('--allow-http', allowHttpHelp)
    .action((kind: WebhookKind, _flags: unknown, command: Command) => {
      const flags = command.opts<TriggerFlags>();
      return dispatch<TriggerOptions>(command, async () => (await import('./trigger.js')).run, {
        ...flags,
        kind,
        allowHttp: flags.allowHttp === true,
      });
    });

  withInboxSelection(
    webhook
      .command('inbox')
      .summary('list the stored events, oldest first')
      .description(
        "Prints the events a receiver stored, oldest first, one JSON line each with its id, arrival time, kind, delivery id and the event as it came; --kind, --since, --until, --pending and --dead choose which. It reads the SQLite inbox (while the receiver runs too) or the PostgreSQL store, and sends nothing. It also takes an earlier version's NDJSON inbox into the store (--import), gives back the space retention freed (--compact, receiver stopped), and removes a hand-off no receiver runs any more (--drop-handoff).",
      ),
  )
    .option('--pending', 'only events a hand-off has not taken yet')
    .option('--dead', 'only events a hand-off gave up on (see webhook dead)')
    .option('--import <old-folder>', "take an earlier version's NDJSON inbox (events.ndjson) into the store, once")
    .option(
      '--compact',
      'rewrite the SQLite inbox to give back the space retention freed (receiver stopped; once for an inbox made before incremental vacuum)',
    )
    .option(
      '--drop-handoff <name>',
      'remove a hand-off no receiver runs any more (its position and dead letters), so retention and health stop counting it (receivers stopped)',
    )
    .action((_flags: unknown, command: Command) =>
      dispatch<InboxOptions>(command, async () => (await import('./inbox.js')).run, command.opts<InboxOptions>()),
    );

  withInboxSelection(
    webhook
      .command('replay')
      .summary('re-deliver stored events, in order, to a URL or a command')
      .description(
        'Sends stored events again, in the order they arrived, to a URL (POST, with the delivery id header) or to a shell command with the event on stdin: the events chosen by id, by time or the dead letters. Use it after the ERP lost what it received, or to feed a new system the history. An event still failing after --attempts tries, or refused for good at once (HTTP 400, 404, 409, 410, 413 or 422; an --exec exit 65), is named, and the run exits 1.',
      ),
  )
    .option('--id <id>', 'only this event (repeat for more)', eventId)
    .option('--dead', 'only dead letters')
    .option(
      '--to <url>',
      "POST each event to this URL (the ERP's credential: env B2BCTL_WEBHOOK_FORWARD_TOKEN or _BASIC)",
      httpUrl,
    )
    .option(
      '--forward-batch <n>',
      'the URL takes arrays of events, as webhook listen --forward-batch: each event goes as an array of one',
      forwardBatch,
    )
    .option('--allow-http', allowHttpHelp)
    .option('--exec <command>', 'run this shell command per event, the event on stdin')
    .option('--exec-env <name>', 'pass this variable on to --exec commands (repeat for more)', variableNames)
    .addOption(
      timeLimitOption('--exec-timeout <duration>', 'time limit of each --exec run, at most 24h', 60_000, '60s'),
    )
    .option('--attempts <n>', 'tries per event before it counts as failed', wholeNumber(1), 3)
    .action((_flags: unknown, command: Command) => {
      // Each flag is named as its option (commander's camel case), so the parsed flags are the options.
      const options = command.opts<ReplayOptions>();
      if (options.forwardBatch !== undefined && options.to === undefined) {
        throw new UsageError('--forward-batch says how --to POSTs events: give it with --to URL.');
      }
      if ((options.to === undefined) === (options.exec === undefined)) {
        throw new UsageError('give exactly one of --to URL or --exec COMMAND.');
      }
      if (!options.id && !options.since && !options.dead) {
        throw new UsageError('choose the events: --id ID..., --since TIME [--until TIME], or --dead.');
      }
      return dispatch<ReplayOptions>(command, async () => (await import('./replay.js')).run, options);
    });

  withStoreFlags(
    webhook
      .command('status')
      .summary("each hand-off's backlog: pending, oldest pending, dead")
      .description(
        'Prints, for each hand-off of the store, how many events wait for it, how long the oldest has waited and how many are dead letters, as /healthz answers it. It exits 69 when one is degraded (an event waiting longer than --stuck-after, or a dead letter), so a monitor or a cron line can alert on it. It reads only.',
      ),
  )
    .addOption(
      durationOption('--stuck-after <duration>', 'exit 69 when an event waits longer than this', 900_000, '15m'),
    )
    .action((_flags: unknown, command: Command) =>
      dispatch<StatusOptions>(command, async () => (await import('./status.js')).run, command.opts<StatusOptions>()),
    );

  withStoreFlags(
    webhook
      .command('dead')
      .summary('the events a hand-off gave up on: list them, retry some, or drop some')
      .description(
        'Looks after dead letters, the events a hand-off gave up on (refused by the ERP with 400, 404, 409, 410, 413 or 422, an --exec command that exited 65, or failing for longer than --give-up-after): list shows them with their hand-off, when they died, the tries and the last error; retry puts the events named back in line for their hand-off; drop takes them off the dead letters (the events stay in the inbox until retention removes them). It works on the SQLite inbox or the PostgreSQL store of a receiver, running or not.',
      )
      .addArgument(
        new Argument('<action>', 'list, retry or drop').choices(['list', 'retry', 'drop']).argParser(deadAction),
      )
      .argument('[ids...]', 'event ids (retry and drop)'),
  )
    .option('--handoff <name>', 'only this hand-off')
    .action((action: DeadOptions['action'], ids: string[], _flags: unknown, command: Command) => {
      if (action !== 'list' && ids.length === 0) throw new UsageError(`name the events: webhook dead ${action} ID...`);
      // list shows every dead letter (--handoff narrows it): ids given to it would look like a filter that is not.
      if (action === 'list' && ids.length > 0)
        throw new UsageError(
          `webhook dead list takes no ids; it lists every dead letter (--handoff NAME for one hand-off's).`,
        );
      const bad = ids.find((id) => !/^\d+$/.test(id));
      if (bad !== undefined)
        throw new UsageError(
          `webhook dead ${action} ${bad}: expected an event id (a whole number, see webhook dead list).`,
        );
      const parsed = ids.map((id) => eventId(id)[0] as number);
      const flags = command.opts<{ inbox?: string; store?: string; handoff?: string }>();
      return dispatch<DeadOptions>(command, async () => (await import('./dead.js')).run, {
        action,
        ids: parsed,
        ...flags,
      });
    });
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  webhook: [
    'b2bctl webhook listen --port 8080 --client-id erp --client-secret-file secret.txt',
    'b2bctl webhook inbox --kind orders',
  ],
  'webhook listen': [
    'B2BCTL_WEBHOOK_CLIENT_SECRET=... b2bctl webhook listen --port 8080 --client-id erp --inbox /var/lib/erp/inbox',
    'b2bctl webhook listen --client-id erp --client-secret-file secret.txt --exec ./import-event.sh',
  ],
  'webhook trigger': [
    'b2bctl webhook trigger customers --url http://127.0.0.1:8080 --style body --client-id erp --client-secret-file secret.txt',
  ],
  'webhook inbox': ['b2bctl webhook inbox --inbox /var/lib/erp/inbox --kind orders --since 2026-11-20T00:00:00Z'],
  'webhook status': ['b2bctl webhook status --inbox /var/lib/erp/inbox'],
  'webhook dead': ['b2bctl webhook dead list --inbox /var/lib/erp/inbox', 'b2bctl webhook dead retry 1042 1043'],
  'webhook replay': [
    'b2bctl webhook replay --inbox /var/lib/erp/inbox --since 2026-11-20T00:00:00Z --until 2026-11-21T00:00:00Z --to http://127.0.0.1:9000/events',
    "b2bctl webhook replay --id 1042 --exec './import-order.sh'",
  ],
};

/**
 * A duration flag whose help shows its default as a person writes it (`7d`), not in milliseconds: an age or a window
 * (`--give-up-after`, `--dedup-window`, `--stuck-after`), compared with the clock and never armed as a timer, so it
 * may be as long as a person likes. A bare number is seconds.
 */
function durationOption(flags: string, description: string, milliseconds: number, shown: string): Option {
  return new Option(flags, description).argParser(duration).default(milliseconds, shown);
}

/**
 * A time limit a timer keeps for one try of one event (`--forward-timeout`, `--exec-timeout`): at most a day, since
 * the hand-off delivers in order and every later event waits behind that try, and since Node fires a timer past
 * 24.8 days at once: `--exec-timeout 30d` failed every run after 1 ms, and the ERP was sent each event again (a
 * user test). A bare number keeps its meaning, seconds, as the duration flags beside it read one.
 */
const eventTryLimit = waitDuration({
  maxMs: 86_400_000,
  shown: '24h',
  examples: '30s or 10m',
  why: 'every later event waits behind one try',
  bareUnit: 's',
});

/** A time-limit flag bounded by `eventTryLimit`, its default shown as a person writes it. */
function timeLimitOption(flags: string, description: string, milliseconds: number, shown: string): Option {
  return new Option(flags, description).argParser(eventTryLimit).default(milliseconds, shown);
}

/** `--inbox` or `--store`: where the events are. */
function withStoreFlags(command: Command): Command {
  return command
    .option(
      '--inbox <dir>',
      'folder of the inbox (default: webhooks/inbox in the config folder; webhooks/inbox-PROFILE for a --profile other than default)',
    )
    .option('--store <url>', 'the PostgreSQL store of webhook listen --store', postgresUrl)
    .option('--store-env <name>', storeEnvHelp);
}

/** `--kind`, `--since`, `--until`: which stored events `inbox` lists and `replay` re-delivers. */
function withInboxSelection(command: Command): Command {
  return withStoreFlags(command)
    .addOption(new Option('--kind <kind>', 'only this kind').choices(webhookKinds))
    .option('--since <iso>', 'only events received at or after this time', isoTime)
    .option('--until <iso>', 'only events received before this time', isoTime);
}

/** `--exec-env NAME`, repeatable: the names of variables, as a shell writes them. */
function variableNames(value: string, previous: string[] = []): string[] {
  if (!isVariableName(value))
    throw new InvalidArgumentError('expected the name of an environment variable, such as ERP_DATABASE_URL.');
  return [...previous, value];
}

function deadAction(value: string): DeadOptions['action'] {
  if (value !== 'list' && value !== 'retry' && value !== 'drop')
    throw new InvalidArgumentError('expected list, retry or drop.');
  return value;
}

function kindArgument(value: string): WebhookKind {
  if (!(webhookKinds as readonly string[]).includes(value))
    throw new InvalidArgumentError('expected customers or orders.');
  return value as WebhookKind;
}

/** An ISO-8601 date or date-time (local time without `Z` or an offset), as the UTC instant it names. */
function isoTime(value: string): string {
  const instant = parseInstant(value);
  if (instant === undefined)
    throw new InvalidArgumentError(
      'expected an ISO-8601 date or time such as 2026-11-23 or 2026-11-23T06:00:00Z (local time without Z or an offset).',
    );
  return new Date(instant).toISOString();
}
