/**
 * `customer addresses` against answers in envelopes b2bctl does not guess: an answer it cannot read is an error
 * naming the setting that points at the array, never "no addresses" with exit 0; the setting reads it.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as addresses } from '../../../src/commands/customer/addresses.js';
import { runSet } from '../../../src/commands/config/index.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { testContext } from '../../support/test-context.js';
import { textServer } from '../../support/text-server.js';

const address = { id: 7, zipcode: '01310-100', street: 'Avenida Paulista', number: '5', city: 'São Paulo' };
/** The body each document's route answers with 200. */
const answers: Record<string, unknown> = {
  '52998224725': { result: { deliveryAddresses: [address] } },
  '11144477735': [address],
  '39053344705': { addresses: [address] },
  '15350946056': {},
  '10163131449': [
    {
      ...address,
      principal: true,
      addressType: 'BUSINESS',
      farmerStateRegistration: '123456789',
      howToReachLocationDescription: 'Km 12, porteira azul',
      responsibleContact: null,
      attributes: { gate: 'north' },
    },
  ],
  // A listing holding entries that are no address (a row the platform's ORM could not load) (a user test).
  '12345678909': [null, address, 'x'],
  '98765432100': [null],
  '11122233396': [null, { zipcode: '01310-100', street: 'Av. Paulista', number: '1000', city: 'São Paulo' }],
  '86288366757': [
    { ...address, complement: 'Conjunto 1201, bloco B, entrada pela rua lateral', quarter: 'Bela Vista', state: 'SP' },
  ],
};
let baseUrl = '';
const server = textServer((_text, request, response) => {
  const document = decodeURIComponent(/\/addresses\/([^/?]+)/.exec(request.url ?? '')?.[1] ?? '').replace(/\D/g, '');
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[document]));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function test(settings: Record<string, string> = {}) {
  return testContext({ env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test', ...settings } });
}

describe('customer addresses: the answer as the platform wraps it', () => {
  it('an array where b2bctl does not look is an error naming answers.addresses.items, exit 1', async () => {
    const run = test();
    expect(await run.run(addresses, { document: '529.982.247-25' })).toBe(1);
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toMatch(
      /holds no array of addresses b2bctl recognises; set answers\.addresses\.items to the field that holds it/,
    );
  });

  it('answers.addresses.items reads it', async () => {
    const run = test();
    expect(await run.run(runSet, { key: 'answers.addresses.items', value: 'result.deliveryAddresses' })).toBe(0);
    const again = testContext({
      configDir: run.configDir,
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
    });
    expect(await again.run(addresses, { document: '529.982.247-25' })).toBe(0);
    expect(JSON.parse(again.stdout())).toEqual([address]);
  });

  it.each([
    ['a bare array', '111.444.777-35', [address]],
    ['{"addresses": […]}', '390.533.447-05', [address]],
    ['{} (nothing to list)', '153.509.460-56', []],
  ])('%s is read without a setting', async (_shape, document, expected) => {
    const run = test();
    expect(await run.run(addresses, { document })).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual(expected);
  });
});

describe('customer addresses on a terminal', () => {
  it('at 60 columns the table is fitted: the address cut with …, no row wrapped', async () => {
    const run = testContext({
      columns: 60,
      tty: { stdout: true },
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
    });
    expect(await run.run(addresses, { document: '862.883.667-57' })).toBe(0);
    expect(await wrappedLineCount(run.stdout(), 60)).toBe(0);
    const screen = await renderedScreen(run.stdout(), 60);
    expect(screen[0]?.split(/ {2,}/).slice(0, 3)).toEqual(['ID', 'PRINCIPAL', 'TYPE']);
    expect(screen[1]).toContain('…');
  });
});

describe('customer addresses: entries that are no address (a user test)', () => {
  const notAddresses =
    "warning: 2 listed entries of customer 123.456.789-09's addresses were no address (null, or not a JSON object) and were left out; b2bctl api shows the answer as it came.\n";

  it('-o json: the address written, null and "x" left out with one warning, exit 0', async () => {
    const run = testContext({ env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' } });
    expect(await run.run(addresses, { document: '123.456.789-09' })).toBe(0);
    expect(JSON.parse(run.stdout())).toEqual([address]);
    expect(run.stderr()).toBe(notAddresses);
  });

  it('-o csv: the address\'s row only, no blank rows for null and "x", one warning, exit 0', async () => {
    const run = testContext({
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
      globals: { output: 'csv' },
    });
    expect(await run.run(addresses, { document: '123.456.789-09' })).toBe(0);
    expect(run.stdout().split('\r\n').slice(1)).toEqual(['7,,01310-100,Avenida Paulista,5,,,São Paulo,,,,,,,,,', '']);
    expect(run.stderr()).toBe(notAddresses);
  });

  it('the table on a terminal: the address shown, no TypeError, exit 0', async () => {
    const run = testContext({
      columns: 120,
      tty: { stdout: true },
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
    });
    expect(await run.run(addresses, { document: '123.456.789-09' })).toBe(0);
    const screen = await renderedScreen(run.stdout(), 120);
    expect(screen.filter((line) => line.trim() !== '')).toHaveLength(2);
    expect(screen[1]).toMatch(/^7 /);
    expect(run.stderr()).toBe(notAddresses);
  });

  it('an address listed without an id: a blank ID cell, never "undefined"', async () => {
    const run = testContext({
      columns: 120,
      tty: { stdout: true },
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
    });
    expect(await run.run(addresses, { document: '111.222.333-96' })).toBe(0);
    const screen = await renderedScreen(run.stdout(), 120);
    expect(screen[1]).toMatch(/^ +01310-100 +Av\. Paulista, 1000 +São Paulo$/);
  });

  it('only a null: one warning, and no "has no addresses" note that the warning would contradict', async () => {
    const run = testContext({
      tty: { stdout: true },
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
    });
    expect(await run.run(addresses, { document: '987.654.321-00' })).toBe(0);
    expect(run.stderr()).toBe(
      "warning: 1 listed entry of customer 987.654.321-00's addresses was no address (null, or not a JSON object) and was left out; b2bctl api shows the answer as it came.\n",
    );
  });
});

describe('customer addresses -o csv', () => {
  it('has a column for every field of a returned address, the farmer registration and attributes among them', async () => {
    const run = testContext({
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'token-of-the-test' },
      globals: { output: 'csv' },
    });
    expect(await run.run(addresses, { document: '101.631.314-49' })).toBe(0);
    expect(run.stdout().split('\r\n')).toEqual([
      'id,name,zipcode,street,number,complement,quarter,city,state,principal,addressType,farmerStateRegistration,howToReachLocationDescription,responsibleContact,attributes,dateCreated,lastUpdated',
      '7,,01310-100,Avenida Paulista,5,,,São Paulo,,true,BUSINESS,123456789,"Km 12, porteira azul",,"{""gate"":""north""}",,',
      '',
    ]);
  });
});
