import { describe, expect, it } from 'vitest';
import { serverTimeouts } from '../../../src/http-server/server-timeouts.js';

// How late a trickling client's 408 may come is set here, not measured with a clock: the behaviour itself (a 408,
// the connection closed, others served meanwhile) is receiver.test.ts's "answers 408 to a client sending one byte
// at a time".

describe('the receiver server timeouts', () => {
  it.each([
    // request timeout, headers timeout, how often requests past their time are looked for
    [1, 1, 50],
    [199, 199, 50],
    [200, 200, 50],
    [203, 203, 50],
    [207, 207, 51],
    [1000, 1000, 250],
    [1003, 1003, 250],
    [3999, 3999, 999],
    [4000, 4000, 1000],
    [4004, 4004, 1000],
    [60_000, 60_000, 1000],
    [120_000, 60_000, 1000],
  ])('a request timeout of %i ms: headers within %i ms, looked for every %i ms', (request, headers, interval) => {
    expect(serverTimeouts(request)).toEqual({
      requestTimeout: request,
      headersTimeout: headers,
      connectionsCheckingInterval: interval,
      keepAliveTimeout: 5000,
    });
  });
});
