import type { Clock } from '../base/clock.js';
import { spokenDuration } from '../domain/duration.js';
import { Backoff } from '../lib/backoff.js';
import { type EventConsumer, PermanentRefusal } from './consumers.js';
import { handOffBackoff, nextTry, tryingAgainIn } from './next-try.js';
import type { EventStore, FailingEvent, StoredEvent } from './store/types.js';

export interface HandOffOptions {
  clock: Clock;
  log: (message: string) => void;
  /** How long one event's transient failures (5xx, timeouts, refused connections) are retried before it is dead. */
  giveUpAfterMs: number;
  /** First wait after a failure; doubles up to `maxBackoffMs` (`handOffBackoff`'s figures by default). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** The back-off's dice, a number in [0, 1) as Math.random gives: a test passes its own to pin the waits. */
  random?: () => number;
  /** How often to look for work another process added (a second receiver, `webhook dead retry`). */
  pollMs?: number;
  /** The position is committed after this many deliveries, or this long after the first unrecorded one. */
  commitEvents?: number;
  commitEveryMs?: number;
  /** The hand-offs that take an event only once this one has (the ERP's behind --fetch-orders: after-fetch.ts). */
  waitedForBy?: readonly string[];
}

/** What /healthz tells of a hand-off this process runs. */
export interface HandOffState {
  name: string;
  /** When the first try of the event now being delivered began; undefined between events. */
  busySince?: number;
  /** The last failure of that event, while it is retried. */
  lastError?: string;
  /** Since when the store refuses to record deliveries (nothing more is sent meanwhile). */
  storeFailingSince?: number;
  storeError?: string;
  /** Another receiver of a shared store delivers this hand-off: its backlog tells how it goes. */
  standingBy?: boolean;
  /** The event whose subject's own failure (one order's fetch) holds every later event, while it does (holdBehind). */
  holding?: HeldDelivery;
}

/** An event that holds every later one behind its failing delivery, and the hand-offs that wait with them. */
export interface HeldDelivery {
  eventId: number;
  /** Its first failure (before a restart too), and when --give-up-after makes it a dead letter. */
  since: number;
  givesUpAt: number;
  waiting: readonly string[];
}

type Outcome =
  { delivered: true } | { delivered: false; error: string; attempts: number; failedMs: number } | 'stopped';

/** Events read ahead from the store at once (each may be up to the body limit, so a few). */
const readAhead = 32;

/**
 * Hands a store's events to one consumer, one at a time, in store order, under a name that keeps its position:
 * an event is delivered, or after a permanent refusal or `giveUpAfterMs` of failures it goes dead and the next one
 * follows. Deliveries are recorded in groups, each group's commit running while the next group is delivered; at
 * least once: a crash repeats the unrecorded ones (at most two groups of `commitEvents`, or `commitEveryMs` worth).
 * A delivery the store cannot record is never sent again while it runs, and nothing past the group being delivered
 * is sent until the store takes the record.
 */
export class HandOff {
  private wake: (() => void) | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private announcedWait = false;
  private queue: StoredEvent[] = [];
  /** The queue holds dead letters asked to be retried (each recorded at once, the position unchanged). */
  private retrying = false;
  private unrecorded: StoredEvent[] = [];
  private firstUnrecordedAt = 0;
  /** The previous group's record, committing while the next group is delivered; false: stopped before it was. */
  private recording: Promise<boolean> | undefined;
  /** The newest event this process delivered or gave up, recorded or not; undefined: the stored position. */
  private position: number | undefined;
  private readonly current: Omit<HandOffState, 'name'> = {};
  private prepared = false;
  /** The event the store says this hand-off fails on, since when and how often: a restart resets neither. */
  private failing: FailingEvent | undefined;
  /** The event whose failed try the store last could not record, said once until it records one again. */
  private failureUnrecorded: number | undefined;

  private readonly store: EventStore;
  readonly name: string;
  private readonly consumer: EventConsumer;
  private readonly options: HandOffOptions;
  constructor(store: EventStore, name: string, consumer: EventConsumer, options: HandOffOptions) {
    this.store = store;
    this.name = name;
    this.consumer = consumer;
    this.options = options;
  }

  state(): HandOffState {
    return { name: this.name, ...this.current };
  }

  start(): void {
    const unsubscribe = this.store.onAppended(() => this.wake?.());
    this.running = this.loop()
      .catch((error: Error) => this.options.log(`Hand-off "${this.name}" stopped: ${error.message}.`))
      .finally(unsubscribe);
  }

  /** Stops now: a delivery in progress is cut (its command's group killed) and tried again next time. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      try {
        if ((await this.step()) === 'stopped') break;
      } catch (error) {
        // The store did not answer (a database restart): the same event is read again after a pause.
        this.options.log(`Hand-off "${this.name}": the store failed (${(error as Error).message}); trying again.`);
        this.queue = [];
        await this.options.clock.sleep(5000, signal).catch(() => undefined);
      }
    }
    await this.recordOnStop();
    await this.consumer.close?.();
  }

  /** Claims the hand-off, then delivers its next event, or waits for one. */
  private async step(): Promise<'stopped' | undefined> {
    const claimed = await this.store.claimHandOff(this.name);
    this.current.standingBy = !claimed;
    if (!claimed) {
      if (!this.announcedWait)
        this.options.log(`Hand-off "${this.name}" is delivered by another receiver; standing by.`);
      this.announcedWait = true;
      return this.idle();
    }
    if (!this.prepared) {
      await this.consumer.prepare?.(this.stopping.signal);
      if (this.stopping.signal.aborted) return 'stopped';
      this.failing = await this.store.failingEvent(this.name);
      this.prepared = true;
    }
    if (this.queue.length === 0) {
      const next = await this.store.pendingForHandOff(this.name, this.position, readAhead);
      if (next.events.length === 0) {
        // Caught up: deliveries wait for their group's time (an append wakes the hand-off sooner), so keeping pace
        // with intake adds no commit per event; then they are recorded before a longer wait.
        const recordInMs = this.unrecordedWindowLeftMs();
        if (recordInMs > 0) return this.idle(recordInMs);
        return (await this.recordDeliveries()) ? this.idle() : 'stopped';
      }
      this.queue = next.events;
      this.retrying = next.retried;
    }
    let firstFailure: Error | undefined;
    if (this.consumer.deliverInOrder !== undefined && !this.retrying) {
      const run = await this.deliverRun(this.consumer.deliverInOrder.bind(this.consumer));
      if (run === 'stopped') return 'stopped';
      if (run === undefined) return undefined;
      firstFailure = run;
    }
    const event = this.queue.shift() as StoredEvent;
    const outcome = await this.deliverWithRetries(event, firstFailure);
    if (outcome === 'stopped') return 'stopped';
    if (outcome.delivered) return this.delivered(event);
    if (!(await this.recordDeliveries())) return 'stopped';
    const what = `that event ${event.id} is dead`;
    if (!(await this.untilStored(what, () => this.store.markDead(this.name, event, outcome.error, outcome.attempts))))
      return 'stopped';
    if (!this.retrying) this.position = Math.max(this.position ?? 0, event.id);
    this.options.log(
      `Hand-off "${this.name}" (${this.consumer.target}): ${event.kind} event ${event.id} is dead after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}${outcome.attempts > 1 ? ` over ${spokenDuration(outcome.failedMs)} (--give-up-after)` : ''} (${outcome.error}); delivery goes on. See webhook dead list.`,
    );
    return undefined;
  }

  /**
   * Hands the events read ahead to the consumer at once, as many as the group being delivered has room for (a crash
   * still repeats at most two groups), and records those it took; the first failure, its event left at the head of
   * the queue for the retries, or undefined when all were taken.
   */
  private async deliverRun(
    deliverInOrder: NonNullable<EventConsumer['deliverInOrder']>,
  ): Promise<Error | 'stopped' | undefined> {
    const room = Math.max(1, (this.options.commitEvents ?? 100) - this.unrecorded.length);
    const run = this.queue.slice(0, room);
    this.current.busySince = this.failingSince(run[0]) ?? this.options.clock.now();
    const counter = this.takenCounter();
    const { taken, failure } = await deliverInOrder(run, this.stopping.signal, counter.progressed).finally(() => {
      this.current.busySince = undefined;
    });
    if ((await counter.finish(taken)) === 'stopped') return 'stopped';
    if (failure === undefined) return undefined;
    return this.stopping.signal.aborted ? 'stopped' : failure;
  }

  /**
   * Counts the events of a run the consumer took as it tells them (`progressed`), not only when the run ends
   * (`finish`), and records their group in its time (commitEveryMs) though the run goes on: with an ERP taking 0.2 s
   * an answer, a run of 32 was recorded 6.4 s late, a kill then sent 21 of 23 events again, and the backlog counted
   * events the ERP had taken (a user test). The group a run before left unrecorded is due in its time too: a run that
   * waits before its first event (an orders event behind its fetch, for up to --give-up-after) held it for the whole
   * wait (a user test). Each step waits for the one before, as one delivery at a time would.
   */
  private takenCounter(): {
    progressed: (taken: number) => void;
    finish: (taken: number) => Promise<'stopped' | undefined>;
  } {
    let counted = 0;
    let chain = Promise.resolve<'stopped' | undefined>(undefined);
    let flush: NodeJS.Timeout | undefined;
    const then = (step: () => Promise<'stopped' | undefined>) =>
      (chain = chain.then(async (before) => ((await step()) === 'stopped' ? 'stopped' : before)));
    // The group's window ends while the next answer is awaited: recorded then, not at the next event.
    const flushAtWindowEnd = () => {
      if (this.unrecorded.length > 0)
        flush = setTimeout(() => then(flushDue).catch(() => undefined), this.unrecordedWindowLeftMs());
    };
    const count = (taken: number) =>
      then(async () => {
        clearTimeout(flush);
        let outcome: 'stopped' | undefined;
        for (const event of this.queue.splice(0, Math.max(0, taken - counted))) {
          counted++;
          if ((await this.delivered(event)) === 'stopped') outcome = 'stopped';
        }
        flushAtWindowEnd();
        return outcome;
      });
    // The timer is the window's end (a timer may fire a fraction of a millisecond before performance.now() says it
    // ended, so the window is not asked again).
    const flushDue = async () =>
      this.unrecorded.length > 0 && !(await this.recordWhileDelivering()) ? 'stopped' : undefined;
    flushAtWindowEnd();
    return {
      progressed: (taken) => {
        // A run that goes on is not stuck: busySince moves with it, as one at a time.
        this.current.busySince = this.options.clock.now();
        count(taken).catch(() => undefined); // the same failure is thrown by finish, which the run's end awaits
      },
      finish: async (taken) => {
        const outcome = await count(taken);
        clearTimeout(flush);
        return outcome;
      },
    };
  }

  private async delivered(event: StoredEvent): Promise<'stopped' | undefined> {
    if (this.unrecorded.length === 0) this.firstUnrecordedAt = performance.now();
    this.unrecorded.push(event);
    if (!this.retrying) this.position = Math.max(this.position ?? 0, event.id);
    if (this.retrying) return (await this.recordDeliveries()) ? undefined : 'stopped';
    const due = this.unrecorded.length >= (this.options.commitEvents ?? 100) || this.unrecordedWindowLeftMs() === 0;
    if (due && !(await this.recordWhileDelivering())) return 'stopped';
    return undefined;
  }

  /**
   * Starts recording the group just delivered and goes on delivering meanwhile: a commit's wait (an fsync, behind
   * intake's) no longer pauses delivery once per group. The group before must be recorded first, so a store that
   * refuses stops sending at the end of the group being delivered.
   */
  private async recordWhileDelivering(): Promise<boolean> {
    if (!(await this.previousGroupRecorded())) return false;
    const events = this.unrecorded;
    this.unrecorded = [];
    this.recording = this.untilStored(this.deliveriesNamed(events), () =>
      this.store.markDelivered(this.name, events),
    ).then((recorded) => {
      // Stopped before the store took them: they join what recordOnStop tries once more, and names.
      if (!recorded) this.unrecorded = [...events, ...this.unrecorded];
      return recorded;
    });
    return true;
  }

  /**
   * Runs one delivery while the deliveries before it are recorded at their group's window end (commitEveryMs), as a
   * run's are (takenCounter): a delivery that waits long (an orders event behind its fetch for up to --give-up-after,
   * a slow --exec command) holds nothing unrecorded meanwhile, so a kill repeats at most the groups promised.
   */
  private async recordingMeanwhile(delivery: () => Promise<void>): Promise<void> {
    let recording: Promise<boolean> | undefined;
    const windowEnd =
      this.unrecorded.length === 0
        ? undefined
        : setTimeout(() => (recording = this.recordWhileDelivering()), this.unrecordedWindowLeftMs());
    try {
      await delivery();
    } finally {
      clearTimeout(windowEnd);
      // The record, once started, goes on as any group's (the next group awaits it): only its start is awaited here.
      await recording;
    }
  }

  /** Waits for the group being recorded while delivery went on; false when stopped before the store took it. */
  private async previousGroupRecorded(): Promise<boolean> {
    const recording = this.recording;
    this.recording = undefined;
    return recording === undefined ? true : recording;
  }

  private deliveriesNamed(events: StoredEvent[]): string {
    return `the delivery of event${events.length === 1 ? '' : 's'} ${events[0]?.id}${events.length > 1 ? `-${events.at(-1)?.id}` : ''}`;
  }

  /** Milliseconds before the unrecorded deliveries are due (0: now, or nothing unrecorded); real time, not the clock. */
  private unrecordedWindowLeftMs(): number {
    if (this.unrecorded.length === 0) return 0;
    const left = this.firstUnrecordedAt + (this.options.commitEveryMs ?? 100) - performance.now();
    return Math.max(0, Math.ceil(left));
  }

  /** Records the deliveries not yet recorded, in one commit; false when stopped before the store took them. */
  private async recordDeliveries(): Promise<boolean> {
    if (!(await this.previousGroupRecorded())) return false;
    if (this.unrecorded.length === 0) return true;
    const events = this.unrecorded;
    if (!(await this.untilStored(this.deliveriesNamed(events), () => this.store.markDelivered(this.name, events))))
      return false;
    this.unrecorded = [];
    return true;
  }

  private newBackoff(): Backoff {
    const { initialBackoffMs, maxBackoffMs, random } = this.options;
    const settings = {
      baseMs: initialBackoffMs ?? handOffBackoff.baseMs,
      maxMs: maxBackoffMs ?? handOffBackoff.maxMs,
    };
    return new Backoff(settings, random);
  }

  /** Tries `work` until the store takes it (backing off), sending nothing meanwhile; false when stopped first. */
  private async untilStored(what: string, work: () => Promise<void>): Promise<boolean> {
    const { clock, log } = this.options;
    const backoff = this.newBackoff();
    for (;;) {
      try {
        await work();
        if (this.current.storeFailingSince !== undefined)
          log(`Hand-off "${this.name}": the store recorded ${what}; delivery goes on.`);
        this.current.storeFailingSince = undefined;
        this.current.storeError = undefined;
        return true;
      } catch (error) {
        const message = (error as Error).message;
        this.current.storeFailingSince ??= clock.now();
        this.current.storeError = message;
        if (this.stopping.signal.aborted) return false;
        const { nominalMs, waitMs } = backoff.take();
        log(
          `Hand-off "${this.name}": the store cannot record ${what} (${message}); nothing more is sent until it can; trying again in ${spokenDuration(nominalMs)}.`,
        );
        if (
          !(await clock.sleep(waitMs, this.stopping.signal).then(
            () => true,
            () => false,
          ))
        )
          return false;
      }
    }
  }

  /** On stop: one last try to record; what stays unrecorded is sent once more at the next start, as said. */
  private async recordOnStop(): Promise<void> {
    await this.previousGroupRecorded();
    if (this.unrecorded.length === 0) return;
    try {
      await this.store.markDelivered(this.name, this.unrecorded);
      this.unrecorded = [];
    } catch (error) {
      this.options.log(
        `Hand-off "${this.name}": ${this.unrecorded.length} delivered event${this.unrecorded.length === 1 ? '' : 's'} could not be recorded (${(error as Error).message}); ${this.unrecorded.length === 1 ? 'it is' : 'they are'} sent once more at the next start.`,
      );
    }
  }

  /** Waits for a commit of this process or the poll interval, whichever comes first. */
  private async idle(ms = this.options.pollMs ?? 1000): Promise<undefined> {
    const signal = this.stopping.signal;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
      if (signal.aborted) this.wake();
    });
    this.wake = undefined;
    return undefined;
  }

  /** `firstFailure`: its first attempt, made in a run of events, failed so. */
  private async deliverWithRetries(event: StoredEvent, firstFailure?: Error): Promise<Outcome> {
    const firstTry = this.failingSince(event) ?? this.options.clock.now();
    this.current.busySince = firstTry;
    try {
      const outcome = await this.retryUntilGivenUp(event, firstTry, firstFailure);
      if (outcome !== 'stopped' && outcome.delivered && this.current.holding?.eventId === event.id)
        this.options.log(
          `Hand-off "${this.name}": ${this.consumer.subjectOf?.(event) ?? `event ${event.id}`} (${event.kind} event ${event.id}) went through; the events behind it go on.`,
        );
      // Delivered or dead, the store forgot it (a retried dead letter starts its clocks again); stopped, it did not.
      if (outcome !== 'stopped' && this.failing?.eventId === event.id) this.failing = undefined;
      return outcome;
    } finally {
      this.current.busySince = undefined;
      this.current.lastError = undefined;
      this.current.holding = undefined;
    }
  }

  /** Since when the store says this hand-off fails on `event` (before a restart); undefined if it does not. */
  private failingSince(event: StoredEvent | undefined): number | undefined {
    return this.failingRecordOf(event)?.since;
  }

  private failingRecordOf(event: StoredEvent | undefined): FailingEvent | undefined {
    return event !== undefined && this.failing?.eventId === event.id ? this.failing : undefined;
  }

  /**
   * Keeps, at each failure of an event (tries are spaced by the backoff; a healthy delivery writes nothing), since
   * when it fails and how many tries failed, so a restart goes on with its --give-up-after and --stuck-after clocks
   * and its attempt count. A store that cannot take it costs only that: delivery goes on.
   */
  private async rememberFailing(event: StoredEvent, since: number, attempts: number): Promise<void> {
    try {
      await this.store.recordFailing(this.name, event.id, since, attempts);
      this.failing = { eventId: event.id, since, attempts };
      this.failureUnrecorded = undefined;
    } catch (error) {
      // Said once per event, not at every try of an outage that may last days.
      if (this.failureUnrecorded === event.id) return;
      this.failureUnrecorded = event.id;
      const kept = this.failingRecordOf(event);
      this.options.log(
        `Hand-off "${this.name}": the store cannot record ${kept === undefined ? `since when event ${event.id} fails` : `attempt ${attempts} of event ${event.id}`} (${(error as Error).message}); ${kept === undefined ? 'a restart would count its --give-up-after and attempts from then' : `a restart would count its attempts on from ${kept.attempts}`}.`,
      );
    }
  }

  /**
   * An event whose failure is its subject's own (one order's fetch answered 500, the platform well for the others)
   * holds every later event, of this hand-off and of those waiting for it, for up to --give-up-after: each hand-off
   * keeps store order (docs/decisions/0039-a-failing-fetch-holds-in-store-order.md). Said in one warning at its first
   * failure in this process, and on /healthz (`delivery held`) while it lasts.
   */
  private holdBehind(event: StoredEvent, firstTry: number, firstFailureHere: boolean): void {
    const subject = this.consumer.subjectOf?.(event);
    if (subject === undefined) return;
    const givesUpAt = firstTry + this.options.giveUpAfterMs;
    const waiting = this.options.waitedForBy ?? [];
    this.current.holding = { eventId: event.id, since: firstTry, givesUpAt, waiting };
    if (!firstFailureHere) return;
    const withIt =
      waiting.length === 0
        ? ''
        : `, and hand-off${waiting.length === 1 ? '' : 's'} ${waiting.map((name) => `"${name}"`).join(', ')} with it`;
    this.options.log(
      `warning: hand-off "${this.name}" fails on ${subject} (${event.kind} event ${event.id}): every later event waits behind it, in store order${withIt}, until it goes through or for at most ${spokenDuration(Math.max(0, givesUpAt - this.options.clock.now()))} more (until ${new Date(givesUpAt).toISOString()}, --give-up-after), when it becomes a dead letter.`,
    );
  }

  private async retryUntilGivenUp(event: StoredEvent, firstTry: number, firstFailure?: Error): Promise<Outcome> {
    const { clock, giveUpAfterMs } = this.options;
    const signal = this.stopping.signal;
    const backoff = this.newBackoff();
    let lastLogged = Number.NEGATIVE_INFINITY;
    // Tries that failed before a restart count: the log and the dead letter tell the whole count.
    const firstAttempt = (this.failingRecordOf(event)?.attempts ?? 0) + 1;
    for (let attempt = firstAttempt; ; attempt++) {
      try {
        if (attempt === firstAttempt && firstFailure !== undefined) throw firstFailure;
        await this.recordingMeanwhile(() => this.consumer.deliver(event, signal));
        return { delivered: true };
      } catch (error) {
        if (signal.aborted) return 'stopped';
        const message = (error as Error).message;
        const failedMs = clock.now() - firstTry;
        if (error instanceof PermanentRefusal || failedMs >= giveUpAfterMs)
          return { delivered: false, error: message, attempts: attempt, failedMs };
        this.current.lastError = message;
        // What was delivered before is recorded before a wait that may last: an outage holds nothing unrecorded.
        if (!(await this.recordDeliveries())) return 'stopped';
        await this.rememberFailing(event, firstTry, attempt);
        this.holdBehind(event, firstTry, attempt === firstAttempt);
        // An ERP that asked for a pause (429 or 503 with Retry-After) gets it, up to 10 minutes, if it is longer.
        const next = nextTry(backoff, error);
        // Every failure while the waits grow, then one line in five minutes: a day's outage is not 3,000 lines.
        if (attempt <= 8 || clock.now() - lastLogged >= 300_000) {
          lastLogged = clock.now();
          this.options.log(
            `Hand-off "${this.name}" (${this.consumer.target}): ${event.kind} event ${event.id} failed (attempt ${attempt}, failing for ${spokenDuration(failedMs)} of --give-up-after ${spokenDuration(giveUpAfterMs)}: ${message}); ${tryingAgainIn(next)}.`,
          );
        }
        if (
          !(await clock.sleep(next.waitMs, signal).then(
            () => true,
            () => false,
          ))
        )
          return 'stopped';
      }
    }
  }
}
