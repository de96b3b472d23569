import type { EventConsumer } from '../../src/webhook/consumers.js';
import { HandOff } from '../../src/webhook/hand-off.js';
import type { EventStore } from '../../src/webhook/store/types.js';
import { FakeClock } from './fake-clock.js';

/**
 * A started hand-off whose waits pass at once (a fake clock; backoff 5 ms doubling to 20 ms), so that an event
 * failing for the second given up on is tried a few times; its stop is added to `closers`.
 */
export function fastHandOff(
  store: EventStore,
  name: string,
  consumer: EventConsumer,
  closers: (() => Promise<void>)[],
  log: string[] = [],
): HandOff {
  const started = new HandOff(store, name, consumer, {
    clock: new FakeClock(Date.UTC(2026, 10, 23, 6)),
    log: (line) => log.push(line),
    giveUpAfterMs: 1000,
    initialBackoffMs: 5,
    maxBackoffMs: 20,
    pollMs: 50,
  });
  started.start();
  closers.push(() => started.stop());
  return started;
}
