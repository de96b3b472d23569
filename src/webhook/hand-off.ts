import type { Clock } from '../clock.js';
import { type EventConsumer, PermanentRefusal } from './consumers.js';
import type { EventStore, StoredEvent } from './store/types.js';

export interface HandOffOptions {
  clock: Clock;
  log: (message: string) => void;
  /** Tries of one event before it goes to the dead letters. */
  maxAttempts: number;
  /** First wait after a failure; doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often to look for work another process added (a second receiver, `webhook dead retry`). */
  pollMs?: number;
}

type Outcome = { delivered: true } | { delivered: false; error: string; attempts: number } | 'stopped';

/**
 * Hands a store's events to one consumer, one at a time, in store order, under a name that keeps its position:
 * an event is delivered, or after a permanent refusal or `maxAttempts` tries it goes dead and the next one
 * follows. At least once: a crash between the consumer's success and the position's commit repeats one event.
 */
export class HandOff {
  private wake: (() => void) | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private announcedWait = false;

  constructor(
    private readonly store: EventStore,
    readonly name: string,
    private readonly consumer: EventConsumer,
    private readonly options: HandOffOptions,
  ) {}

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
        if ((await this.step()) === 'stopped') return;
      } catch (error) {
        // The store did not answer (a database restart): the same event is tried again after a pause.
        this.options.log(`Hand-off "${this.name}": the store failed (${(error as Error).message}); trying again.`);
        await this.options.clock.sleep(5000, signal).catch(() => undefined);
      }
    }
  }

  /** Claims the hand-off, then delivers its next event, or waits for one. */
  private async step(): Promise<'stopped' | undefined> {
    if (!(await this.store.claimHandOff(this.name))) {
      if (!this.announcedWait)
        this.options.log(`Hand-off "${this.name}" is delivered by another receiver; standing by.`);
      this.announcedWait = true;
      return this.idle();
    }
    const event = await this.store.nextForHandOff(this.name);
    if (!event) return this.idle();
    const outcome = await this.deliverWithRetries(event);
    if (outcome === 'stopped') return 'stopped';
    if (outcome.delivered) return void (await this.store.markDelivered(this.name, event));
    await this.store.markDead(this.name, event, outcome.error, outcome.attempts);
    this.options.log(
      `Hand-off "${this.name}": ${event.kind} event ${event.id} is dead after ${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'} (${outcome.error}); delivery goes on. See webhook dead list.`,
    );
    return undefined;
  }

  /** Waits for a commit of this process or the poll interval, whichever comes first. */
  private async idle(): Promise<undefined> {
    const signal = this.stopping.signal;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.pollMs ?? 1000);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
      if (signal.aborted) this.wake();
    });
    this.wake = undefined;
    return undefined;
  }

  private async deliverWithRetries(event: StoredEvent): Promise<Outcome> {
    const { clock, log, maxAttempts } = this.options;
    const signal = this.stopping.signal;
    let backoff = this.options.initialBackoffMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.consumer.deliver(event, signal);
        return { delivered: true };
      } catch (error) {
        if (signal.aborted) return 'stopped';
        const message = (error as Error).message;
        if (error instanceof PermanentRefusal || attempt >= maxAttempts)
          return { delivered: false, error: message, attempts: attempt };
        log(
          `Hand-off "${this.name}" (${this.consumer.target}): ${event.kind} event ${event.id} failed (attempt ${attempt} of ${maxAttempts}: ${message}); trying again in ${Math.round(backoff / 100) / 10} s.`,
        );
        try {
          await clock.sleep(backoff * (0.8 + Math.random() * 0.4), signal);
        } catch {
          return 'stopped';
        }
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
      }
    }
  }
}
