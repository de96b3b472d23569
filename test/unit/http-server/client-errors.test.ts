/**
 * What `tax serve` and the webhook receiver answer of a request node refuses before any route sees it: headers past
 * node's limit (431), an `Expect` other than 100-continue (417). They came in fastify's own shape
 * (`{"error":"Request Header Fields Too Large","message":…,"statusCode":431}`) or with an empty body, where each server
 * promises one shape for every refusal (a user test): `tax serve`'s `{error, message}`, the receiver's
 * `{error, error_description}`.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { watchedFixtureTable } from '../../support/tax-table.js';
import { useTestReceivers } from '../../support/webhook-receiver.js';

const startReceiver = useTestReceivers();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function taxServerUrl(): Promise<string> {
  const { table } = await watchedFixtureTable('b2bctl-early-refusal-', () => undefined);
  closers.push(() => table.close());
  const server = await startLoopbackTaxServer(
    { table, auth: { kind: 'none' }, log: { warn: () => undefined } },
    closers,
  );
  return server.url;
}

/** A POST to `path` with `headers` through node's own client (fetch refuses an Expect header): status and body. */
function post(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, url), { method: 'POST', headers }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body: text === '' ? '' : JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end('{}');
  });
}

const bigHeader = { 'content-type': 'application/json', 'x-padding': 'x'.repeat(20 * 1024) };
const oddExpectation = { 'content-type': 'application/json', expect: 'foo' };

describe('tax serve: refusals made before any route, in the callback’s one shape', () => {
  it('a 20 KB header: 431 {error, message}', async () => {
    const url = await taxServerUrl();
    expect(await post(url, '/tax', bigHeader)).toEqual({
      status: 431,
      body: { error: 'headers-too-large', message: 'The request headers are larger than this server reads' },
    });
  });

  it('Expect: foo: 417 {error, message}, the header not quoted', async () => {
    const url = await taxServerUrl();
    expect(await post(url, '/tax', oddExpectation)).toEqual({
      status: 417,
      body: {
        error: 'expectation-failed',
        message: 'Only Expect: 100-continue is supported; send the request without another Expect header',
      },
    });
  });
});

describe('webhook listen: refusals made before any route, in the receiver’s one shape', () => {
  it('a 20 KB header: 431 {error, error_description}', async () => {
    const { url } = await startReceiver();
    expect(await post(url, '/webhooks/customers', bigHeader)).toEqual({
      status: 431,
      body: { error: 'headers_too_large', error_description: 'The request headers are larger than this server reads' },
    });
  });

  it('Expect: foo: 417 {error, error_description}', async () => {
    const { url } = await startReceiver();
    expect(await post(url, '/webhooks/customers', oddExpectation)).toEqual({
      status: 417,
      body: {
        error: 'expectation_failed',
        error_description: 'Only Expect: 100-continue is supported; send the request without another Expect header',
      },
    });
  });
});
