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
import { ana, endOf, type Fault, loginLine, loginThenResumeLine, nobody, useFaultBench } from './faults.js';

const bench = useFaultBench();
const sending = { strict: false, concurrency: 1, dryRun: false, skipInvalid: false } as const;
const write = (document: string) => `PUT /v1/customer/${document}`;

function one(document: string): CustomerUpdateOptions {
  return { document, set: ['name=Ana Souza'], ...sending };
}

function fileOf(document: string): { folder: string; options: CustomerUpdateOptions } {
  const folder = temporaryFolder();
  writeFileSync(join(folder, 'changes.csv'), `document,name\n${document},Ana Souza\n`);
  return { folder, options: { file: join(folder, 'changes.csv'), ...sending } };
}

describe('customer update --document --set: each platform answer', () => {
  it.each<[Fault, string, number, string[], RegExp]>([
    [
      '404',
      nobody,
      1,
      [write(nobody)],
      /^error: No customer has the document 111\.444\.777-35 in this store \(HTTP 404(: [^)]*)?\)\.$/,
    ],
    ['400', ana.document, 1, [write(ana.document)], /^error: PUT \S+ failed with HTTP 400: Bad Request$/],
    ['422', ana.document, 1, [write(ana.document)], /Property \[phone\] with value \[1\] does not pass validation/],
    [
      '401',
      ana.document,
      0,
      [write(ana.document), 'token', write(ana.document)],
      /^Updated customer \d+ \(529\.982\.247-25\)\.$/,
    ],
    ['401 no password', ana.document, 77, [write(ana.document)], loginLine],
    // A 500 may come after the store applied the update: said so, exit 69, as an unanswered single write is.
    [
      '500',
      ana.document,
      69,
      [write(ana.document)],
      /^error: Customer 529\.982\.247-25: PUT \S+ failed with HTTP 500: Internal Server Error, which may come after the platform applied the update; sending it again is harmless\.$/,
    ],
    [
      '503',
      ana.document,
      69,
      Array(4).fill(write(ana.document)),
      /^error: PUT \S+ kept failing with HTTP 503 after 4 attempts; the platform is unavailable, try again later\.$/,
    ],
  ])('%s', async (fault, document, code, requests, lastLine) => {
    const { test, seen, fixture } = await bench(fault);
    expect({ code: await test.run(update, one(document)), requests: seen() }).toEqual({ code, requests });
    expect(test.stderr().trimEnd().split('\n').at(-1)).toMatch(lastLine);
    const stored = await storedCustomer(fixture.sandbox, ana.document);
    expect(stored.name).toBe(code === 0 ? 'Ana Souza' : 'Ana');
  });
});

describe('customer update FILE: each platform answer', () => {
  it.each<[Fault, string, number, string[], Record<string, unknown> | RegExp]>([
    [
      '404',
      nobody,
      1,
      [write(nobody)],
      {
        outcome: 'failed',
        status: '404',
        message: expect.stringMatching(
          /^no customer has the document 111\.444\.777-35 in this store \(HTTP 404(: [^)]*)?\)$/,
        ),
      },
    ],
    ['400', ana.document, 1, [write(ana.document)], { outcome: 'failed', status: '400', message: 'Bad Request' }],
    [
      '422',
      ana.document,
      1,
      [write(ana.document)],
      { outcome: 'failed', status: '422', message: 'Property [phone] with value [1] does not pass validation' },
    ],
    [
      '401',
      ana.document,
      0,
      [write(ana.document), 'token', write(ana.document)],
      { outcome: 'updated', status: '200' },
    ],
    ['401 no password', ana.document, 77, [write(ana.document)], loginThenResumeLine('update', 'changes')],
    [
      '500',
      ana.document,
      1,
      [write(ana.document)],
      // A 500 may come after the store applied the update: unknown (a resume sends it again), not "failed … to fix".
      {
        outcome: 'unknown',
        status: '500',
        message: expect.stringMatching(
          /failed with HTTP 500: Internal Server Error, which may come after the platform applied the update$/,
        ),
      },
    ],
    [
      '503',
      ana.document,
      69,
      Array(4).fill(write(ana.document)),
      /^error: .*--resume \S+changes\.report-\d{8}-\d{6}\.csv$/,
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
