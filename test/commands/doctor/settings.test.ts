/**
 * `doctor` reads every setting as a command would: a value from the environment that every other command refuses
 * (exit 2) is a failed check naming it, not "all is well".
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../../src/commands/doctor/run.js';
import { testContext } from '../../support/test-context.js';
import { textServer } from '../../support/text-server.js';

const server = textServer((_text, _request, answer) => answer.writeHead(404).end());
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it.each([
  ['B2BCTL_TIMEOUT', 'abc', 'http.timeout'],
  ['B2BCTL_RETRIES', '-1', 'http.retries'],
])('%s=%s is a failed check of %s, exit 2', async (variable, value, key) => {
  const test = testContext({ env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test', [variable]: value } });
  expect(await test.run(run, {})).toBe(2);
  const findings = JSON.parse(test.stdout()) as { check: string; result: string; detail: string }[];
  expect(findings.find((finding) => finding.check === `setting ${key}`)).toMatchObject({
    result: 'fail',
    detail: expect.stringContaining(`(from ${variable})`),
  });
});

it('every setting that reads is one line: "settings ok"', async () => {
  const test = testContext({ env: { B2BCTL_BASE_URL: baseUrl } });
  await test.run(run, {});
  const findings = JSON.parse(test.stdout()) as { check: string; result: string }[];
  expect(findings.filter((finding) => finding.check.startsWith('setting'))).toEqual([
    expect.objectContaining({ check: 'settings', result: 'ok' }),
  ]);
});

// The nightly push refused it (exit 2) while doctor called every setting fit (a fresh user test).
it.each([
  ['{bad', 2, 'The stock schema from the stock.schema setting (from B2BCTL_STOCK_SCHEMA) is not usable'],
  ['/no/such/schema.json', 66, 'the stock schema'],
])('B2BCTL_STOCK_SCHEMA=%s is a failed check of the stock schema, exit %i', async (value, code, detail) => {
  const test = testContext({
    env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test', B2BCTL_STOCK_SCHEMA: value },
  });
  expect(await test.run(run, {})).toBe(code);
  const findings = JSON.parse(test.stdout()) as { check: string; result: string; detail: string }[];
  expect(findings.find((finding) => finding.check === 'stock schema')).toMatchObject({
    result: 'fail',
    detail: expect.stringContaining(detail),
  });
});
