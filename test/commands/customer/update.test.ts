/**
 * `customer update` in process: how each platform answer to the update route ends, for one customer
 * (--document with --set) and for a file (a report row), and what reached the platform.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustomerUpdateOptions, run as update } from '../../../src/commands/customer/update.js';
import { storedCustomer } from '../../support/customers.js';
import { temporaryFolder } from '../../support/temporary.js';
import {
  ana,
  type AnswerCase,
  type CustomerWrite,
  endOf,
  fileAnswers,
  oneCustomerAnswers,
  useFaultBench,
} from './faults.js';

const bench = useFaultBench();
const sending = { strict: false, concurrency: 1, dryRun: false, skipInvalid: false } as const;
/** `customer update` writes a customer with one request, an "update" in its lines. */
const updateWrite: CustomerWrite = { write: (document) => `PUT /v1/customer/${document}`, what: 'update' };
const { write } = updateWrite;

function one(document: string): CustomerUpdateOptions {
  return { document, set: ['name=Ana Souza'], ...sending };
}

function fileOf(document: string): { folder: string; options: CustomerUpdateOptions } {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'changes.csv'), `document,name\n${document},Ana Souza\n`);
  return { folder, options: { file: join(folder, 'changes.csv'), ...sending } };
}

describe('customer update --document --set: each platform answer', () => {
  it.each<AnswerCase<RegExp>>([
    ...oneCustomerAnswers(updateWrite, {
      notFound: /^error: No customer has the document 111\.444\.777-35 in this store \(HTTP 404(: [^)]*)?\)\.$/,
      done: /^Updated customer \d+ \(529\.982\.247-25\)\.$/,
    }),
    // The platform document's refusal of a field: its words, exit 1.
    ['422', ana.document, 1, [write(ana.document)], /Property \[phone\] with value \[1\] does not pass validation/],
  ])('%s', async (fault, document, code, requests, lastLine) => {
    const { test, seen, fixture } = await bench(fault);
    expect({ code: await test.run(update, one(document)), requests: seen() }).toEqual({ code, requests });
    expect(test.stderr().trimEnd().split('\n').at(-1)).toMatch(lastLine);
    const stored = await storedCustomer(fixture.sandbox, ana.document);
    expect(stored.name).toBe(code === 0 ? 'Ana Souza' : 'Ana');
  });
});

describe('customer update FILE: each platform answer', () => {
  it.each<AnswerCase<Record<string, unknown> | RegExp>>([
    ...fileAnswers(updateWrite, { command: 'update', base: 'changes', done: { outcome: 'updated', status: '200' } }),
    [
      '422',
      ana.document,
      1,
      [write(ana.document)],
      { outcome: 'failed', status: '422', message: 'Property [phone] with value [1] does not pass validation' },
    ],
  ])('%s', async (fault, document, code, requests, row) => {
    const { test, seen } = await bench(fault);
    const { folder, options } = fileOf(document);
    expect({ code: await test.run(update, options), requests: seen() }).toEqual({ code, requests });
    expect(endOf(test.stderr(), folder, 'changes', row)).toEqual(row instanceof RegExp ? row : [{ line: '2', ...row }]);
  });
});

describe('customer update --document --set: the flags of its one request', () => {
  it('--dry-run prints the body it would send, a password masked, and sends nothing', async () => {
    const { test, seen, fixture } = await bench('503');
    const options = { ...one(ana.document), set: ['name=Ana Souza', 'active=false'], dryRun: true };
    expect(await test.run(update, options)).toBe(0);
    expect(seen()).toEqual([]);
    expect(test.stderr().trim()).toBe(
      'Dry run: customer 529.982.247-25 would be sent {"name":"Ana Souza","active":false}; nothing was sent.',
    );
    expect((await storedCustomer(fixture.sandbox, ana.document)).name).toBe('Ana');
  });

  it('--retries 0 is honoured: one attempt at a 503, not four', async () => {
    const { test, seen } = await bench('503');
    expect(await test.run(update, { ...one(ana.document), retries: 0 })).toBe(69);
    expect(seen()).toEqual([write(ana.document)]);
  });
});
