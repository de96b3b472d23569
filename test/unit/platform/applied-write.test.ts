/**
 * The client's rule for a write answered 5xx (src/platform/applied-write.ts), over real HTTP: whatever the route, the
 * platform may have stored it, so PlatformClient.send throws MayHaveBeenAppliedError (`unknown` to the commands),
 * never a refusal. A read, and a write that changes nothing, answered 5xx stay the platform's error.
 */
import { describe, expect, it } from 'vitest';
import { KeptFailingError, PlatformError } from '../../../src/base/errors.js';
import type { ProfileStore } from '../../../src/config/profile-store.js';
import { Session } from '../../../src/config/session.js';
import { MayHaveBeenAppliedError } from '../../../src/platform/applied-write.js';
import { PlatformClient, type PlatformRequest } from '../../../src/platform/client.js';
import { HttpClient } from '../../../src/platform/http-client.js';
import type { TokenSource } from '../../../src/platform/token-source.js';
import { FakeClock } from '../../support/fake-clock.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** A client of the scripted platform holding a token already: the only requests it sends are the test's. */
function client(): PlatformClient {
  const http = new HttpClient({ baseUrl: platform.url, timeoutMs: 5_000, maxRetries: 3, clock: new FakeClock() });
  const session = new Session({ store: {} as ProfileStore, profileName: 'prod', profile: {}, flags: {}, env: {} });
  const tokens = { current: () => Promise.resolve('token') } as unknown as TokenSource;
  return new PlatformClient(http, session, tokens);
}

async function failureOf(request: PlatformRequest): Promise<unknown> {
  const platformClient = client();
  try {
    await platformClient.send(request);
  } catch (error) {
    return error;
  } finally {
    await platformClient.close();
  }
  throw new Error('expected the request to fail');
}

describe('PlatformClient.send: a write answered 5xx may have been applied', () => {
  it.each<[string, PlatformRequest, number, string]>([
    // A route no command knows yet gets the rule without asking for it, worded for any request.
    [
      'a new write route (POST) answered 500',
      { method: 'POST', path: '/v1/new', body: {} },
      500,
      'applied the request',
    ],
    [
      'a PUT that says what it does, answered 500',
      { method: 'PUT', path: '/v1/new', body: {}, effect: 'applied the update' },
      500,
      'applied the update',
    ],
    ['a DELETE answered 501', { method: 'DELETE', path: '/v1/new' }, 501, 'applied the request'],
  ])('%s: unknown, its status and the platform words kept, sent once', async (_case, request, status, effect) => {
    platform.routes[`${request.method} /v1/new`] = (_request, _body, response) =>
      answerJson(response, status, { message: 'Erro interno.' });
    const error = await failureOf(request);
    expect(error).toBeInstanceOf(MayHaveBeenAppliedError);
    expect(error).toMatchObject({
      status,
      exitCode: 69,
      message: `${request.method} ${platform.url}/v1/new failed with HTTP ${status}: Erro interno, which may come after the platform ${effect}.`,
    });
    expect((error as MayHaveBeenAppliedError).failure).toBeInstanceOf(PlatformError);
    expect(platform.received).toEqual([`${request.method} /v1/new`]);
  });

  it.each<[string, PlatformRequest]>([
    ['a read (GET)', { method: 'GET', path: '/v1/new' }],
    [
      'a write that changes nothing (the empty update that asks)',
      { method: 'PUT', path: '/v1/new', body: {}, changesNothing: true },
    ],
  ])('%s answered 500 stays the platform error', async (_case, request) => {
    platform.routes[`${request.method} /v1/new`] = (_request, _body, response) =>
      answerJson(response, 500, { message: 'Erro interno' });
    const error = await failureOf(request);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).not.toBeInstanceOf(MayHaveBeenAppliedError);
  });

  it('a refusal (422) to a write stays the refusal', async () => {
    platform.routes['POST /v1/new'] = (_request, _body, response) => answerJson(response, 422, { message: 'No' });
    const error = await failureOf({ method: 'POST', path: '/v1/new', body: {} });
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 422 });
  });

  it('a write safe to repeat answered 503 on every attempt: unavailable, unless it says such a write is unknown too', async () => {
    platform.routes['PUT /v1/new'] = (_request, _body, response) => answerJson(response, 503, { message: 'Down' });
    const request: PlatformRequest = { method: 'PUT', path: '/v1/new', body: {}, effect: 'applied the batch' };
    const unavailable = await failureOf(request);
    expect(unavailable).toBeInstanceOf(KeptFailingError);
    expect(unavailable).not.toBeInstanceOf(MayHaveBeenAppliedError);
    expect(platform.received).toEqual(Array(4).fill('PUT /v1/new'));
    const unknown = await failureOf({ ...request, unknownWhenKeptFailing: true });
    expect(unknown).toBeInstanceOf(MayHaveBeenAppliedError);
    // No status: still the platform unavailable, which a bulk run counts towards stopping.
    expect(unknown).toMatchObject({
      status: undefined,
      message: `PUT ${platform.url}/v1/new kept failing with HTTP 503 after 4 attempts; the platform is unavailable, try again later; each 503 may have come after the platform applied the batch.`,
    });
  });
});
