/**
 * `webhook replay --to` waits the pause an ERP's 429 or 503 asks for (Retry-After, in seconds or as an HTTP date), up
 * to 10 minutes, as the receiver's hand-off does: a user test found it tried again on its own schedule, sooner than
 * the ERP asked, and gave up before the ERP said it would be back. The tries run on the test's fake clock.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { type ErpAnswer, standInErp } from '../../support/stand-in-erp.js';

/** Replays event 1 to an ERP giving `answers` in turn (then 200), and tells when, on the fake clock, each POST came. */
async function replayTo(answers: ErpAnswer[], attempts = 3) {
  const clock = new FakeClock(Date.parse('2026-11-23T12:00:00Z'));
  const sentAt: number[] = [];
  const erp = await standInErp(() => {
    sentAt.push(clock.now());
    return answers[sentAt.length - 1] ?? { status: 200 };
  });
  const inbox = await inboxWithOneEvent();
  const result = await runCommandLine(
    ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url, '--attempts', String(attempts)],
    { configDir: freshConfigDir(), clock },
  );
  await erp.close();
  const started = Date.parse('2026-11-23T12:00:00Z');
  return { result, erp, clock, sentAfterMs: sentAt.map((at) => at - started) };
}

describe('webhook replay --to and an ERP asking for a pause (Retry-After)', () => {
  it('a 503 with Retry-After: 2 is sent again only after 2 s', async () => {
    const { result, sentAfterMs, clock } = await replayTo([
      { status: 503, body: 'busy', headers: { 'retry-after': '2' } },
    ]);
    expect(sentAfterMs).toEqual([0, 2000]);
    expect(clock.waits).toEqual([2000]);
    expect(result.code).toBe(0);
    // Two seconds is no wait worth a line.
    expect(result.stderr).toMatch(/^Replayed 1 event \(\S+\)\.\n$/);
  });

  it("an HTTP date is measured from the answer's own Date, and a wait of minutes is said in one line", async () => {
    const { result, erp, sentAfterMs } = await replayTo([
      {
        status: 429,
        body: 'busy',
        // The ERP's clock is an hour behind this machine's: what it asks for is two minutes, not an instant past.
        headers: { date: 'Mon, 23 Nov 2026 11:00:00 GMT', 'retry-after': 'Mon, 23 Nov 2026 11:02:00 GMT' },
      },
    ]);
    expect(sentAfterMs).toEqual([0, 120_000]);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')).toEqual([
      `orders event 1: ${erp.url} failed (attempt 1 of 3: HTTP 429: busy); trying again in 2 min (the wait its Retry-After asked for).`,
      `Replayed 1 event (${erp.url}).`,
      '',
    ]);
  });

  it('waits at most 10 minutes, however long the ERP asks, and keeps counting --attempts', async () => {
    const asksForADay: ErpAnswer = { status: 503, body: 'busy', headers: { 'retry-after': '86400' } };
    const { result, sentAfterMs } = await replayTo([asksForADay, asksForADay], 2);
    expect(sentAfterMs).toEqual([0, 600_000]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/trying again in 10 min \(the wait its Retry-After asked for\)\.\n/);
  });

  it.each([
    ['a 500 (no pause asked for)', { status: 500, body: 'down', headers: { 'retry-after': '120' } }],
    [
      'a 503 whose Retry-After is no delay nor HTTP date',
      { status: 503, body: 'down', headers: { 'retry-after': 'soon' } },
    ],
    ['a 503 asking for less than the step', { status: 503, body: 'down', headers: { 'retry-after': '0' } }],
  ])("%s: the back-off's own wait, half a second at most", async (_name, answer) => {
    const { result, clock } = await replayTo([answer]);
    expect(result.code).toBe(0);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(250);
    expect(clock.waits[0]).toBeLessThanOrEqual(500);
  });
});
