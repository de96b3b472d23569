import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import type { EventConsumer } from '../../../src/webhook/consumers.js';
import { HandOff } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { temporaryFolder, useTestReceivers } from '../../support/webhook-receiver.js';

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

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function health(url: string): Promise<[number, unknown]> {
  const answer = await fetch(`${url}/healthz`);
  return [answer.status, ((await answer.json()) as { problems: unknown }).problems];
}

describe('a receiver restarted while its hand-off fails', () => {
  it('keeps --stuck-after and --give-up-after counting from the first failure, not from the restart', async () => {
    const directory = temporaryFolder();
    const clock = new HeldClock();
    const log: string[] = [];
    const options = { clock, log: (line: string) => log.push(line), giveUpAfterMs: 20 * second };

    // First run: the event arrives and its first try fails at once.
    const first = await SqliteStore.open(directory, { now: () => clock.now() });
    await first.openHandOff('forward', 'http://erp/hooks', true);
    await first.append({
      receivedAt: arrived,
      kind: 'orders',
      deliveryId: 'd1',
      key: 'orders:2603',
      flags: [],
      clientAddress: '127.0.0.1',
      raw: '{"id":2603}',
    });
    const before = erpDown();
    const firstHandOff = new HandOff(first, 'forward', before, options);
    firstHandOff.start();
    await until(() => log.length === 1, 'the first failure');
    clock.time = arrived + 8 * second;
    await firstHandOff.stop();
    await first.close();

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
    expect(await health(started.url)).toEqual([503, [{ problem: 'delivery stuck', handOff: 'forward', seconds: 16 }]]);

    // 21 s after it, past --give-up-after 20 s: the next failure makes it a dead letter.
    clock.wakeAt(arrived + 21 * second);
    await until(async () => (await store.deadLetters()).length === 1, 'the dead letter');
    await handOff.stop();
    expect([before.tries, after.tries]).toEqual([1, 2]);
    expect(log.slice(1)).toEqual([
      'Hand-off "forward" (http://erp/hooks): orders event 1 failed (attempt 1, failing for 8.5 s of --give-up-after 20 s: connect ECONNREFUSED 127.0.0.1:47230); trying again in 0.5 s.',
      'Hand-off "forward" (http://erp/hooks): orders event 1 is dead after 2 attempts over 21 s (--give-up-after) (connect ECONNREFUSED 127.0.0.1:47230); delivery goes on. See webhook dead list.',
    ]);
    // Dead, the event's failure is forgotten: a `webhook dead retry` starts its clocks again.
    expect(await store.failingEvent('forward')).toBeUndefined();
  });
});
