import type { WebhookKind } from '../../domain/webhook-events.js';
import type { StoreReach } from './postgres-tls.js';
import type { InboxReader } from './schema-version.js';

/** An event as the receiver hands it to the store: its own text, so it is kept exactly as sent. */
export interface NewEvent {
  /** Milliseconds since the epoch. */
  receivedAt: number;
  kind: WebhookKind;
  deliveryId: string;
  /** The de-duplication key (domain/webhook-events.ts). */
  key: string;
  /**
   * The key an earlier b2bctl gave the same event, where it differs (formerDeduplicationKey): an inbox keeps the keys
   * it stored for the dedup window, and a redelivery of an event stored before the upgrade must still be a duplicate.
   */
  formerKey?: string;
  /** What did not match the document; empty when the payload matched. */
  flags: string[];
  /** The sender's address as the HTTP server saw it (the forwarded client behind a trusted proxy). */
  clientAddress: string;
  raw: string;
}

/** A stored event: `id` orders events in the store, and is what `--id`, `dead retry` and `dead drop` name. */
export interface StoredEvent {
  id: number;
  receivedAt: string;
  kind: WebhookKind;
  deliveryId: string;
  key: string;
  flags: string[];
  clientAddress: string;
  event: unknown;
  /**
   * The event's JSON as it came, when read from a store: what a hand-off passes on, so a number past 2^53 (an id of
   * 18014398509481985) is not the 18014398509481984 that `event` holds once parsed.
   */
  eventJson?: string;
}

/** Which stored events to read; every filter is answered by an index. */
export interface EventSelection {
  kind?: WebhookKind;
  /** Milliseconds since the epoch, inclusive. */
  since?: number;
  /** Milliseconds since the epoch, exclusive. */
  until?: number;
  ids?: number[];
  /** Only events some hand-off has not taken yet. */
  pending?: boolean;
  /** Only events some hand-off gave up on. */
  dead?: boolean;
}

export interface DeadLetter {
  handOff: string;
  eventId: number;
  kind: WebhookKind;
  receivedAt: string;
  error: string;
  attempts: number;
  diedAt: string;
  /** Asked to be tried again by `webhook dead retry`. */
  retry: boolean;
}

/** The store's own work on a request: its statements' time, apart from the rest of the request's. */
export interface StoreTiming {
  workMs: number;
  /**
   * How much of that time the receiver's thread waited for a core, where the statements run on it (SQLite) and the
   * system tells it (Linux): on a machine short of cores, the part of `workMs` that is the machine's, not the store's.
   */
  coreWaitMs?: number;
}

export interface HandOffBacklog {
  name: string;
  target: string;
  pending: number;
  /** Milliseconds since the epoch of the oldest pending event; undefined when nothing is pending. */
  oldestPendingAt: number | undefined;
  dead: number;
}

export interface FailingEvent {
  eventId: number;
  /** Milliseconds since the epoch of the first failed try. */
  since: number;
  /** The tries that failed so far: a restart goes on counting from there. */
  attempts: number;
}

export interface HandOffOpening {
  created: boolean;
  /** The target the hand-off had before, when it changed (its position is kept). */
  previousTarget?: string;
}

/** An `--exec` command's process group, kept while it runs: a receiver killed meanwhile leaves it to its successor. */
export interface CommandRun {
  handOff: string;
  /** The machine it runs on (a PostgreSQL store serves receivers on several). */
  host: string;
  processGroup: number;
  eventId: number;
  /** Milliseconds since the epoch. */
  startedAt: number;
  /**
   * When the group's leader started as the kernel counts it (processStartTime): a process with the group's number
   * that started at another time is another process. Absent where the system does not say, and in runs recorded by
   * earlier builds.
   */
  processStart?: string;
}

/** What a store did with the space retention freed. */
export type SpaceReport =
  | { reclaimed: true; freeBytes: number; before: number; after: number }
  /** The file cannot shrink while it runs (an inbox made before incremental auto-vacuum): `freeBytes` wait. */
  | { reclaimed: false; freeBytes: number };

/** A retention pass: what was removed. */
export interface Pruned {
  events: number;
  keys: number;
}

/** The inbox as a database: SQLite in a folder, or PostgreSQL shared by several receivers. */
export interface EventStore {
  /** Shown to people: `SQLite /var/lib/erp/inbox/inbox.sqlite` or `PostgreSQL db@host`. */
  readonly description: string;
  /** Stores the event once per key; resolves after the commit (never before), `false` for a duplicate. */
  append(event: NewEvent): Promise<{ stored: boolean }>;
  /** The events that pass the selection, oldest first, read in pages. */
  select(selection: EventSelection): AsyncIterable<StoredEvent>;
  /** Opens (creating) a hand-off: a new one starts after the newest event unless `fromStart`. */
  openHandOff(name: string, target: string, fromStart: boolean): Promise<HandOffOpening>;
  /**
   * Removes a hand-off no receiver runs any more: its position and dead letters go, so retention no longer keeps
   * events for it and health no longer counts it. Not while a command it ran is recorded as running.
   */
  dropHandOff(name: string): Promise<HandOffDrop>;
  /** The next event for a hand-off: one asked to be retried first, else the first after its position. */
  nextForHandOff(name: string): Promise<StoredEvent | undefined>;
  /**
   * The next events for a hand-off, at most `limit`: dead letters asked to be retried first (`retried`), else
   * those after `after` (the hand-off's own position when undefined), in store order.
   */
  pendingForHandOff(
    name: string,
    after: number | undefined,
    limit: number,
  ): Promise<{ events: StoredEvent[]; retried: boolean }>;
  /** Records deliveries in one commit: the position moves past them, their dead letters (if retried) go. */
  markDelivered(name: string, events: StoredEvent | StoredEvent[]): Promise<void>;
  markDead(name: string, event: StoredEvent, error: string, attempts: number): Promise<void>;
  /**
   * Records that the hand-off's tries of an event fail since `since`, `attempts` of them so far: a restart goes on
   * with the same give-up and stuck clocks and the same count. Kept until the event is delivered or dead
   * (markDelivered, markDead).
   */
  recordFailing(name: string, eventId: number, since: number, attempts: number): Promise<void>;
  /** The event the hand-off was last recorded failing on, since when and after how many tries; undefined when none. */
  failingEvent(name: string): Promise<FailingEvent | undefined>;
  deadLetters(handOff?: string): Promise<DeadLetter[]>;
  /** Returns how many dead letters were changed. */
  retryDead(ids: number[], handOff?: string): Promise<number>;
  dropDead(ids: number[], handOff?: string): Promise<number>;
  /** Each hand-off's backlog; the time its statements took is added to `timing` (Server-Timing on /healthz). */
  backlog(timing?: StoreTiming): Promise<HandOffBacklog[]>;
  /** The largest event id stored (0 when none): one index probe, the bound of any listing's ids. */
  newestId(): Promise<number>;
  /**
   * Removes delivered events received before `eventsBefore` and de-duplication keys before `keysBefore`, in paced
   * slices; `signal` stops it after the slice under way, with what was removed so far.
   */
  prune(eventsBefore: number | undefined, keysBefore: number, signal?: AbortSignal): Promise<Pruned>;
  /** After a retention pass: gives freed space back to the file system (SQLite; PostgreSQL's autovacuum does). */
  reclaimSpace?(signal?: AbortSignal): Promise<SpaceReport>;
  /** Rewrites the store to reclaim all free space and switch it to incremental vacuum (SQLite, receiver stopped). */
  compact?(): Promise<{ before: number; after: number }>;
  /** Makes this process the one deliverer of a hand-off; false while another receiver holds it. */
  claimHandOff(name: string): Promise<boolean>;
  /**
   * Keeps an issued token, as its digest: it stays valid through a restart, and on another receiver of a shared
   * store (a balancer may send the event elsewhere than the token request).
   */
  shareToken(digest: string, expiresAt: number, keptExpiredMs: number): Promise<void>;
  /**
   * When the token of this digest, issued by a receiver of this store, expires; undefined if unknown or expired at
   * `after` or before. Expired tokens are kept `keptExpiredMs` (one lifetime): a client retrying one after a restart
   * is told it expired, not that it is unknown.
   */
  tokenExpiry(digest: string, after: number): Promise<number | undefined>;
  /**
   * The key signing this store's tokens: the kept one when `matches` its secret verifier, else `fresh()`, which
   * replaces it and removes every kept token (`revoked`: there were some under another secret). One transaction.
   */
  adoptTokenKey(
    matches: (verifier: string) => boolean,
    fresh: () => TokenKeyRecord,
  ): Promise<{ key: string; revoked: boolean }>;
  /**
   * Masks secrets in the kept dead letters' errors (dead-letter-scrub.ts), in one transaction: reads this store's
   * scrub key (made by `freshKey` the first time), keeps the forms whose fingerprint under it is not recorded yet,
   * replaces those in every dead letter that holds one (one statement), and records their fingerprints.
   */
  maskInDeadLetters(masking: DeadLetterMasking): Promise<DeadLetterMasked>;
  /** Records a command run as it starts; forgetRun when its group is gone. */
  recordRun(run: CommandRun): Promise<void>;
  forgetRun(handOff: string, host: string, processGroup: number): Promise<void>;
  /** Runs recorded and not forgotten: those a killed receiver left (at start, before delivering again). */
  recordedRuns(handOff: string, host: string): Promise<CommandRun[]>;
  /** Calls `listener` after each commit that stored something. */
  onAppended(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The token signing key of a store and the verifier of the client secret it was made under (token-keys.ts). */
export interface TokenKeyRecord {
  verifier: string;
  /** Base64. */
  key: string;
}

/** What maskInDeadLetters masks, and how it knows what it masked before. */
export interface DeadLetterMasking {
  /** The strings to replace, in order (the longest first). */
  forms: readonly string[];
  mask: string;
  /** A form's fingerprint under the store's scrub key: kept instead of the form. */
  fingerprint: (key: string, form: string) => string;
  freshKey: () => string;
}

/**
 * `scanned`: how many forms were new to the store (0: only the letters that died since the last scan, less an hour,
 * were read); `changed`: dead letters.
 */
export interface DeadLetterMasked {
  scanned: number;
  changed: number;
}

/** Options shared by both stores. */
export interface StoreOptions {
  /** False commits each event on its own (the benchmark's comparison). */
  groupCommit?: boolean;
  /** The time the store records (hand-offs made, dead letters) and expires tokens by: the command's clock. */
  now?: () => number;
  /**
   * Set by a command beside the receiver (`webhook status`, `inbox`, `dead`, `replay`): the store is read at the
   * version it has, or refused, never brought up to date (schema-version.ts). Unset, opening migrates it: the
   * receiver, and the commands run with it stopped (`webhook inbox --import`, `--compact`, `--drop-handoff`).
   */
  reader?: InboxReader;
  /**
   * The command's Ctrl-C or SIGTERM: a PostgreSQL store still being opened, or a statement still waiting for its
   * answer, stops waiting at once (InterruptedError).
   */
  interrupt?: AbortSignal;
  /**
   * How long a PostgreSQL store's statements may still take after the interrupt before they are abandoned: the
   * receiver's commits in flight at a stop finish; 0 (the default, the commands that only read) stops at once.
   */
  interruptGraceMs?: number;
  /** How long a PostgreSQL store may take to answer one statement or transaction (webhook.storeTimeout). */
  statementLimitMs?: number;
  /**
   * How pg reaches the PostgreSQL store (host, TLS, PGPASSWORD), decided from the command's environment
   * (postgres-tls.ts); without it pg reads the URL and the process's environment itself.
   */
  reach?: StoreReach;
}

/** What dropping a hand-off did: removed it, found none by that name, or left it for its recorded command run. */
export type HandOffDrop = 'dropped' | 'unknown' | 'command recorded';
