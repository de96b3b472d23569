import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import type { EventConsumer } from '../../../src/webhook/consumers.js';
import { HandOff, type HandOffOptions } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { temporaryFolder, useTestReceivers } from '../../support/webhook-receiver.js';
import { inboxEvent } from '../../support/inbox-events.js';
import { untilWith } from '../../support/until.js';

const until = untilWith({ deadlineMs: 20_000 });

// A receiver restarted while its ERP is down (a deploy, systemd's Restart=) goes on with the clocks of the event it
// fails on: /healthz calls it stuck and it goes dead as if no restart had happened.

const receiver = useTestReceivers();
const second = 1000;
const arrived = Date.UTC(2026, 10, 23, 6);

/** A clock the test moves; each backoff wait lasts until the test ends it (or the hand-off stops). */
class HeldClock implements Clock {
  time = arrived;
  private waiting: (() => void)[] = [];

  now(): number {
    return this.time;
  }

  sleep(_ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      this.waiting.push(resolve);
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }

  /** Ends the waits under way, at `time`. */
  wakeAt(time: number): void {
    this.time = time;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** The ERP is down: every try fails, counted. */
function erpDown(): EventConsumer & { tries: number } {
  return {
    target: 'http://erp/hooks',
    tries: 0,
    async deliver() {
      this.tries++;
      throw new Error('connect ECONNREFUSED 127.0.0.1:47230');
    },
  };
}

async function health(url: string): Promise<[number, unknown]> {
  const answer = await fetch(`${url}/healthz`);
  return [answer.status, ((await answer.json()) as { problems: unknown }).problems];
}

/**
 * The receiver's first run: the event arrives and its tries fail, the first at once, the next one a second after
 * the one before; then it is stopped at `stoppedAt`. `log`: the lines `options.log` keeps. The ERP it tried.
 */
async function firstRunFailing(
  directory: string,
  options: HandOffOptions & { clock: HeldClock },
  log: string[],
  failures: number,
  stoppedAt: number,
): Promise<{ tries: number }> {
  const clock = options.clock;
  const first = await SqliteStore.open(directory, { now: () => clock.now() });
  await first.openHandOff('forward', 'http://erp/hooks', true);
  await first.append(inboxEvent(2603, { receivedAt: arrived }));
  const erp = erpDown();
  const handOff = new HandOff(first, 'forward', erp, options);
  handOff.start();
  await until(() => log.length === 1, 'the first failure');
  for (let failed = 1; failed < failures; failed++) {
    clock.wakeAt(arrived + failed * second);
    await until(() => log.length === failed + 1, `failure ${failed + 1}`);
  }
  clock.time = stoppedAt;
  await handOff.stop();
  await first.close();
  return erp;
}

describe('a receiver restarted while its hand-off fails', () => {
  it('keeps --stuck-after and --give-up-after counting from the first failure, not from the restart', async () => {
    const directory = temporaryFolder();
    const clock = new HeldClock();
    const log: string[] = [];
    const options = { clock, log: (line: string) => log.push(line), giveUpAfterMs: 20 * second };

    // First run: the event arrives and its first try fails at once.
    const before = await firstRunFailing(directory, options, log, 1, arrived + 8 * second);

    // Restarted at 8.5 s on the same inbox: the event still fails.
    clock.time = arrived + 8.5 * second;
    const store = await SqliteStore.open(directory, { now: () => clock.now() });
    const after = erpDown();
    const handOff = new HandOff(store, 'forward', after, options);
    const started = await receiver({
      store,
      now: () => clock.now(),
      stuckAfterMs: 10 * second,
      handOffStates: () => [handOff.state()],
    });
    handOff.start();
    await until(() => log.length === 2, 'the try after the restart');

    // 16 s after the first failure, past --stuck-after 10 s: degraded, as `webhook status` says.
    clock.time = arrived + 16 * second;
    expect(await health(started.url)).toEqual([200, [{ problem: 'delivery stuck', handOff: 'forward', seconds: 16 }]]);

    // 21 s after it, past --give-up-after 20 s: the next failure makes it a dead letter.
    clock.wakeAt(arrived + 21 * second);
    await until(async () => (await store.deadLetters()).length === 1, 'the dead letter');
    await handOff.stop();
    expect([before.tries, after.tries]).toEqual([1, 2]);
    expect(log.slice(1)).toEqual([
      'Hand-off "forward" (http://erp/hooks): orders event 1 failed (attempt 2, failing for 8.5 s of --give-up-after 20 s: connect ECONNREFUSED 127.0.0.1:47230); trying again in 0.5 s.',
      'Hand-off "forward" (http://erp/hooks): orders event 1 is dead after 3 attempts over 21 s (--give-up-after) (connect ECONNREFUSED 127.0.0.1:47230); delivery goes on. See webhook dead list.',
    ]);
    // Dead, the event's failure is forgotten: a `webhook dead retry` starts its clocks again.
    expect(await store.failingEvent('forward')).toBeUndefined();
  });

  it('goes on counting the attempts: the log and the dead letter tell every try, before the restart and after', async () => {
    const directory = temporaryFolder();
    const clock = new HeldClock();
    const log: string[] = [];
    const options = { clock, log: (line: string) => log.push(line), giveUpAfterMs: 20 * second };

    // Five tries fail, the last at 4 s; stopped at 6 s, restarted at 7 s.
    const before = await firstRunFailing(directory, options, log, 5, arrived + 6 * second);
    expect(log[4]).toBe(
      'Hand-off "forward" (http://erp/hooks): orders event 1 failed (attempt 5, failing for 4 s of --give-up-after 20 s: connect ECONNREFUSED 127.0.0.1:47230); trying again in 8 s.',
    );
    clock.time = arrived + 7 * second;
    const store = await SqliteStore.open(directory, { now: () => clock.now() });
    const after = erpDown();
    const handOff = new HandOff(store, 'forward', after, options);
    handOff.start();
    await until(() => log.length === 6, 'the try after the restart');
    clock.wakeAt(arrived + 21 * second);
    await until(async () => (await store.deadLetters()).length === 1, 'the dead letter');
    await handOff.stop();

    expect([before.tries, after.tries]).toEqual([5, 2]);
    expect(log.slice(5)).toEqual([
      'Hand-off "forward" (http://erp/hooks): orders event 1 failed (attempt 6, failing for 7 s of --give-up-after 20 s: connect ECONNREFUSED 127.0.0.1:47230); trying again in 0.5 s.',
      'Hand-off "forward" (http://erp/hooks): orders event 1 is dead after 7 attempts over 21 s (--give-up-after) (connect ECONNREFUSED 127.0.0.1:47230); delivery goes on. See webhook dead list.',
    ]);
    expect((await store.deadLetters()).map(({ eventId, attempts }) => ({ eventId, attempts }))).toEqual([
      { eventId: 1, attempts: 7 },
    ]);
  });

  it('goes on delivering when the store cannot record a failed try, and says so once', async () => {
    const directory = temporaryFolder();
    const clock = new HeldClock();
    const log: string[] = [];
    const store = await SqliteStore.open(directory, { now: () => clock.now() });
    await store.openHandOff('forward', 'http://erp/hooks', true);
    await store.append(inboxEvent(2603, { receivedAt: arrived }));
    // The store takes the first try's record, refuses the second's and third's (a full disk), takes the fourth's.
    let records = 0;
    const refusing = new Proxy(store, {
      get(target, property) {
        if (property === 'recordFailing')
          return (...values: Parameters<SqliteStore['recordFailing']>) => {
            records++;
            if (records === 2 || records === 3) return Promise.reject(new Error('database or disk is full'));
            return target.recordFailing(...values);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...values: unknown[]) => unknown).bind(target) : value;
      },
    });
    const handOff = new HandOff(refusing, 'forward', erpDown(), {
      clock,
      log: (line: string) => log.push(line),
      giveUpAfterMs: 20 * second,
    });
    handOff.start();
    await until(() => log.length === 1, 'the first failure');
    for (const at of [1, 2, 3]) {
      clock.wakeAt(arrived + at * second);
      await until(() => records === at + 1 && log.at(-1)?.includes(`attempt ${at + 1},`) === true, `try ${at + 1}`);
    }
    await handOff.stop();

    expect(log.filter((line) => line.includes('the store'))).toEqual([
      'Hand-off "forward": the store cannot record attempt 2 of event 1 (database or disk is full); a restart would count its attempts on from 1.',
    ]);
    expect(log.at(-1)).toMatch(/^Hand-off "forward" \(http:\/\/erp\/hooks\): orders event 1 failed \(attempt 4, /);
    expect(await store.failingEvent('forward')).toEqual({ eventId: 1, since: arrived, attempts: 4 });
    await store.close();
  });

  it("an order's fetch that keeps failing: its hold said once a run and on /healthz, counted from its first failure", async () => {
    const directory = temporaryFolder();
    const clock = new HeldClock();
    const log: string[] = [];
    const options = {
      clock,
      log: (line: string) => log.push(line),
      giveUpAfterMs: 20 * second,
      waitedForBy: ['forward'],
    };
    // A consumer whose failures are its subject's own, as --fetch-orders' is.
    const fetch = {
      target: 'fetch orders into /inbox/orders',
      failing: true,
      subjectOf: (event: StoredEvent) => `order ${(event.event as { id: number }).id}`,
      async deliver() {
        if (this.failing) throw new Error('HTTP 500: internal error');
      },
    };
    const first = await SqliteStore.open(directory, { now: () => clock.now() });
    await first.openHandOff('fetch-orders', fetch.target, true);
    await first.append(inboxEvent(2603, { receivedAt: arrived }));
    const firstRun = new HandOff(first, 'fetch-orders', fetch, options);
    firstRun.start();
    await until(() => log.length === 2, 'the first failure');
    clock.wakeAt(arrived + second);
    await until(() => log.length === 3, 'the second failure');
    await firstRun.stop();
    await first.close();

    clock.time = arrived + 8 * second;
    const store = await SqliteStore.open(directory, { now: () => clock.now() });
    const handOff = new HandOff(store, 'fetch-orders', fetch, options);
    const started = await receiver({
      store,
      now: () => clock.now(),
      stuckAfterMs: 60 * second,
      handOffStates: () => [handOff.state()],
    });
    handOff.start();
    await until(() => log.length === 5, 'the try after the restart');
    const warnings = log.filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: hand-off "fetch-orders" fails on order 2603 (orders event 1): every later event waits behind it, in store order, and hand-off "forward" with it, until it goes through or for at most 20 s more (until 2026-11-23T06:00:20.000Z, --give-up-after), when it becomes a dead letter.',
      'warning: hand-off "fetch-orders" fails on order 2603 (orders event 1): every later event waits behind it, in store order, and hand-off "forward" with it, until it goes through or for at most 12 s more (until 2026-11-23T06:00:20.000Z, --give-up-after), when it becomes a dead letter.',
    ]);
    expect(await health(started.url)).toEqual([
      200,
      [
        {
          problem: 'delivery held',
          handOff: 'fetch-orders',
          eventId: 1,
          seconds: 8,
          givesUpInSeconds: 12,
          waiting: ['forward'],
        },
      ],
    ]);

    fetch.failing = false;
    clock.wakeAt(arrived + 9 * second);
    await until(() => log.length === 6, 'the fetch to go through');
    expect(log[5]).toBe(
      'Hand-off "fetch-orders": order 2603 (orders event 1) went through; the events behind it go on.',
    );
    expect(await health(started.url)).toEqual([200, []]);
    await handOff.stop();
  });
});
