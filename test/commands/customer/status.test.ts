/**
 * `customer status` in process: how each platform answer to the status route ends, for one customer
 * (DOC inactive) and for a file (a report row), and what reached the platform.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustomerStatusOptions, run as status } from '../../../src/commands/customer/status.js';
import { storedCustomer } from '../../support/customers.js';
import { temporaryFolder } from '../../support/temporary.js';
import { ana, type CustomerWrite, endOf, fileAnswers, oneCustomerAnswers, useFaultBench } from './faults.js';

const bench = useFaultBench();
const sending = { strict: false, concurrency: 1, dryRun: false, skipInvalid: false } as const;
/** `customer status` makes a customer inactive with one request, a "change" in its lines. */
const statusWrite: CustomerWrite = {
  write: (document) => `PUT /v1/customer/updateStatus/${document}/false`,
  what: 'change',
};
const { write } = statusWrite;

function fileOf(document: string): { folder: string; options: CustomerStatusOptions } {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'states.csv'), `document,active\n${document},false\n`);
  return { folder, options: { target: join(folder, 'states.csv'), fileOnlyFlags: [], ...sending } };
}

describe('customer status DOC inactive: each platform answer', () => {
  it.each(
    oneCustomerAnswers(statusWrite, {
      notFound:
        /^error: No customer has the document 111\.444\.777-35 in this store \(HTTP 404(: [^)]*)?\)\. If the customer is registered, this store's route is not PUT \S+\/v1\/customer\/updateStatus\/111\.444\.777-35\/false: set paths\.customerStatus\.$/,
      done: /^Customer 529\.982\.247-25 is now inactive\.$/,
    }),
  )('%s', async (fault, document, code, requests, lastLine) => {
    const { test, seen, fixture } = await bench(fault);
    expect({
      code: await test.run(status, { target: document, state: 'inactive', fileOnlyFlags: [], ...sending }),
      requests: seen(),
    }).toEqual({
      code,
      requests,
    });
    expect(test.stderr().trimEnd().split('\n').at(-1)).toMatch(lastLine);
    expect((await storedCustomer(fixture.sandbox, ana.document)).active).toBe(code !== 0);
  });
});

describe('customer status FILE: each platform answer', () => {
  it.each(
    fileAnswers(statusWrite, {
      command: 'status',
      base: 'states',
      done: { outcome: 'updated', status: '200', message: 'inactive' },
      // A 404 is also a store's answer on a route it does not have: the row names the route and its setting.
      notFound:
        /^no customer has the document 111\.444\.777-35 in this store, or this store's route is not PUT \S+\/v1\/customer\/updateStatus\/111\.444\.777-35\/false: if the customer is registered, set paths\.customerStatus \(HTTP 404(: [^)]*)?\)$/,
    }),
  )('%s', async (fault, document, code, requests, row) => {
    const { test, seen } = await bench(fault);
    const { folder, options } = fileOf(document);
    expect({ code: await test.run(status, options), requests: seen() }).toEqual({ code, requests });
    expect(endOf(test.stderr(), folder, 'states', row)).toEqual(row instanceof RegExp ? row : [{ line: '2', ...row }]);
  });
});

describe('customer status DOC inactive: the flags of its one request', () => {
  it('--dry-run says what would change and sends nothing', async () => {
    const { test, seen, fixture } = await bench('503');
    expect(
      await test.run(status, { target: ana.document, state: 'inactive', fileOnlyFlags: [], ...sending, dryRun: true }),
    ).toBe(0);
    expect(seen()).toEqual([]);
    expect(test.stderr().trim()).toBe('Dry run: customer 529.982.247-25 would be made inactive; nothing was sent.');
    expect((await storedCustomer(fixture.sandbox, ana.document)).active).toBe(true);
  });

  it('--retries 0 is honoured: one attempt at a 503, not four', async () => {
    const { test, seen } = await bench('503');
    expect(
      await test.run(status, { target: ana.document, state: 'inactive', fileOnlyFlags: [], ...sending, retries: 0 }),
    ).toBe(69);
    expect(seen()).toEqual([write(ana.document)]);
  });
});
