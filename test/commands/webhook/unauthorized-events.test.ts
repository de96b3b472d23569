/**
 * Events refused 401 leave a trace (a user test: a platform posting with no token, or with a token this receiver
 * did not issue, had every event refused with no line in the log and no count in the minute's summary, while the
 * token endpoint's own refusals were logged).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../support/fake-clock.js';
import {
  inboxOnDisk,
  listenInProcess,
  postEvent,
  postWithToken,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

// Signed by nobody this receiver knows: a token from another receiver, or from before a client secret change.
const foreignToken = 'eyJhbGciOiJIUzI1NiJ9.e30.x';

describe('webhook listen: events refused 401', () => {
  it('the first of each reason and address a minute gets a line, and the summary counts them all', async () => {
    const inbox = temporaryFolder();
    const clock = new FakeClock(Date.UTC(2026, 10, 30, 12, 0, 0));
    const { memory, url, stop } = await listenInProcess(inbox, { summaryEveryMs: 3_600_000 }, { clock });
    const statuses: number[] = [];
    for (let sent = 0; sent < 5; sent++) statuses.push((await postEvent(url, 'orders', sampleOrder, undefined)).status);
    for (let sent = 0; sent < 5; sent++)
      statuses.push((await postEvent(url, 'customers', { id: 1 }, foreignToken)).status);
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 401));
    // One good event in the same minute.
    expect((await postWithToken(url, 'customers', { id: 77 })).status).toBe(200);
    // A minute later, the same sender's refusal is news again.
    clock.advance(60_000);
    expect((await postEvent(url, 'orders', sampleOrder, undefined)).status).toBe(401);
    await stop();
    const lines = memory
      .stderr()
      .split('\n')
      .filter((line) => line.includes('401') || line.startsWith('Stored'));
    expect(lines).toEqual([
      `Refused an orders event from 127.0.0.1, not stored: answered HTTP 401 "Bearer token missing" (the platform sent no token: check its webhook's token settings).`,
      `Refused a customers event from 127.0.0.1, not stored: answered HTTP 401 "Token unknown" (a token this receiver did not issue: another receiver's, or one from before the client secret changed).`,
      // The minute's refusals past the first, said once the minute is over, by address.
      'Events refused 401 "Bearer token missing": 4 more in the last 60 s, not logged one by one (at most 10 such lines in 60 s): 4 from 127.0.0.1.',
      `Refused an orders event from 127.0.0.1, not stored: answered HTTP 401 "Bearer token missing" (the platform sent no token: check its webhook's token settings).`,
      'Stored 1 event since the last summary (customers 1, orders 0); 0 redeliveries recognised; 11 refused, not stored (HTTP 401 11).',
    ]);
    // The token is never quoted.
    expect(memory.stderr()).not.toContain(foreignToken);
    expect(inboxOnDisk(inbox).map((event) => event.event)).toEqual([{ id: 77 }]);
  });
});
