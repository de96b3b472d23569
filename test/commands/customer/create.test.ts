/**
 * `customer create` in process, through a proxy in front of the sandbox that loses answers: a create applied
 * whose answer never came is not sent again, nor one the platform may still be working on (it is `unknown`, for the
 * resume to ask about), and a registered document is reported (or updated with --upsert) instead of created twice.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustomerCreateOptions, run as create } from '../../../src/commands/customer/create.js';
import { ExitCode } from '../../../src/base/errors.js';
import { readMeta } from '../../../src/bulk/run-meta.js';
import { createHeader, createRoute, storedCustomers } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, useSandbox } from '../../support/sandbox.js';
import {
  pathOf,
  type ProxyAction,
  type ProxiedRequest,
  type ScriptedProxy,
  useScriptedProxy,
} from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

const ana = 'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10';
/** As written in the file: the sandbox keeps it, and the CLI sends it in the update route's path, so. */
const anaDocument = '529.982.247-25';
const biaDocument = '111.444.777-35';
const bia = ana.replace(anaDocument, biaDocument).replace('ana@', 'bia@');

function peopleFile(): { folder: string; file: string } {
  const folder = temporaryFolder();
  const file = join(folder, 'people.csv');
  writeFileSync(file, `${createHeader}\n${ana}\n`);
  return { folder, file };
}

function options(file: string, extra: Partial<CustomerCreateOptions> = {}): CustomerCreateOptions {
  return { file, upsert: false, strict: false, concurrency: 1, dryRun: false, skipInvalid: false, ...extra };
}

/** A logged-in context whose requests go through a proxy that asks `decide` about each one. */
async function throughProxy(decide: (request: ProxiedRequest, creates: number) => ProxyAction) {
  const { sandbox, loggedInContext } = fixture();
  let creates = 0;
  const proxy = await proxied(sandbox.url, (request) => {
    if (request.method === 'POST' && pathOf(request) === '/v1/customer') creates++;
    return decide(request, creates);
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  proxy.requests.length = 0;
  return { sandbox, test, proxy };
}

/** The customer requests the proxy saw, as "METHOD path" (the token request left out). */
function customerRequests(seen: ScriptedProxy): string[] {
  return seen.requests
    .filter((request) => pathOf(request).startsWith('/v1/customer'))
    .map((request) => `${request.method} ${pathOf(request)}`);
}

const isCreate = (request: ProxiedRequest) => request.method === 'POST' && pathOf(request) === '/v1/customer';

describe('customer create when an answer is lost', () => {
  it('the create was applied and its answer lost: looked up, reported created, never sent again', async () => {
    const { sandbox, test, proxy } = await throughProxy((request, creates) =>
      isCreate(request) && creates === 1 ? { reset: 'after' } : undefined,
    );
    const { folder, file } = peopleFile();
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
    expect((await storedCustomers(sandbox)).map((customer) => customer.document)).toEqual([anaDocument]);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      {
        line: '2',
        key: '529.982.247-25',
        outcome: 'created',
        status: '200',
        id: String((await storedCustomers(sandbox))[0]?.id),
        message: 'the answer to the create was lost; the customer exists, so it was not sent again',
        row: '2',
      },
    ]);
  });

  it.each([
    // Reported failed and never asked about, the resume sent it again (a fresh user test).
    [500, 'the create was answered HTTP 500; the customer exists, so it was not sent again'],
    // Taken for a refusal, it was sent again, refused as a registered document and reported failed (a fresh user test).
    [503, 'the create was answered HTTP 503; the customer exists, so it was not sent again'],
  ])(
    'a create the platform did and answered %i with an empty body: looked up, reported created, never sent again',
    async (status, message) => {
      const { sandbox, test, proxy } = await throughProxy((request, creates) =>
        isCreate(request) && creates === 1 ? { appliedThenAnswer: status } : undefined,
      );
      const { folder, file } = peopleFile();
      expect(await test.run(create, options(file))).toBe(ExitCode.ok);
      expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
      expect((await requestCounts(sandbox))[createRoute]).toBe(1);
      expect((await storedCustomers(sandbox)).map((customer) => customer.document)).toEqual([anaDocument]);
      // The look-up's record gives the id, as a create's answer does.
      const id = String((await storedCustomers(sandbox))[0]?.id);
      expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
        { line: '2', key: anaDocument, outcome: 'created', status: '200', id, message, row: '2' },
      ]);
      expect(test.stderr()).toContain(
        '\ncustomer create: 1 created; 2 requests, 0 retries, 0 throttled (429); 0.0 s, 1000 customers/s\n',
      );
    },
  );

  it('a create answered 500 and not done, its document registered before with another e-mail: failed as registered, not created', async () => {
    // Reported created, exit 0, though the file's customer never reached the platform (a fresh user test).
    const { sandbox, test, proxy } = await throughProxy((request, creates) =>
      isCreate(request) && creates === 2 ? { answer: 500 } : undefined,
    );
    const { file: earlier } = peopleFile();
    writeFileSync(earlier, `${createHeader}\n${ana.replace('ana@example.com', 'outra@example.com')}\n`);
    expect(await test.run(create, options(earlier))).toBe(ExitCode.ok);
    proxy.requests.length = 0;
    const { folder, file } = peopleFile();
    const again = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await again.run(create, options(file))).toBe(ExitCode.someRecordsFailed);
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
    expect((await storedCustomers(sandbox)).map((customer) => [customer.document, customer.email])).toEqual([
      [anaDocument, 'outra@example.com'],
    ]);
    const message = `the create was answered HTTP 500, and document ${anaDocument} is already registered (registered with the e-mail outra@example.com; pass --upsert to update existing customers)`;
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      { line: '2', key: anaDocument, outcome: 'failed', status: '500', id: '', message, row: '2' },
    ]);
    const lines = again.stderr().trimEnd().split('\n');
    expect(lines).toContain(
      'customer create: 1 failed; 2 requests, 0 retries, 0 throttled (429); 0.0 s, 0 customers/s',
    );
    expect(lines).toContain(`customer create: why, 1 customer (line 2): ${message}`);
    // As a refused duplicate: fed back, it goes with --upsert.
    expect(lines.at(-2)).toMatch(/^customer create: once fixed, feed it back with: .* --upsert$/);
  });

  it('a create reset once written, and no customer found: unknown, never sent again (exit 1); the resume creates it once', async () => {
    const { sandbox, test, proxy } = await throughProxy((request, creates) =>
      isCreate(request) && creates === 1 ? { reset: 'before' } : undefined,
    );
    const { folder, file } = peopleFile();
    // The platform may have the request and be creating it: a second create could make it twice. It answered the
    // look-up, so it is not unavailable: the run exits 1, not 69.
    expect(await test.run(create, options(file))).toBe(ExitCode.someRecordsFailed);
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
    expect(await storedCustomers(sandbox)).toEqual([]);
    const report = join(folder, onlyReport(folder, 'people'));
    expect(readReport(report)).toEqual([
      {
        line: '2',
        key: anaDocument,
        outcome: 'unknown',
        status: '',
        id: '',
        message: `POST ${proxy.url}/v1/customer failed (ECONNRESET) after the request may have reached the platform. No customer had document ${anaDocument} when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.`,
        row: '2',
      },
    ]);
    const lines = test.stderr().trimEnd().split('\n');
    expect(lines).toContain(
      'customer create: 1 unknown; 2 requests, 0 retries, 0 throttled (429); 0.0 s, 0 customers/s',
    );
    expect(lines.at(-1)).toMatch(
      /^error: The outcome of 1 customer is not known \(1 unknown\); the report \S+people\.report-20261123-120000\.csv says why\. 1 unknown may have gone through without an answer, and the resume asks the platform about it before sending it again: run B2BCTL_CONFIG_DIR=\S+ b2bctl customer create \S+people\.csv --profile default --base-url http:\/\/127\.0\.0\.1:\d+ --concurrency 1 --resume \S+people\.report-20261123-120000\.csv$/,
    );

    proxy.requests.length = 0;
    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: report }))).toBe(ExitCode.ok);
    // Asked first, as the run said: not there, so sent.
    expect(customerRequests(proxy)).toEqual([`PUT /v1/customer/${anaDocument}`, 'POST /v1/customer']);
    const stored = await storedCustomers(sandbox);
    expect(stored.map((customer) => customer.document)).toEqual([anaDocument]);
    expect(readReport(report)).toMatchObject([
      { line: '2', outcome: 'created', status: '200', id: String(stored[0]?.id), message: '' },
    ]);
  });

  // A maintainer's review: a resume given --concurrency 3 printed it in its resume line, but kept the interrupted
  // run's value in the record, so a bare --resume after it went back to the old pacing.
  it('a resume given another pacing flag keeps it in the run record, as its resume line says, for the next bare resume', async () => {
    const { test, proxy } = await throughProxy((request) => (isCreate(request) ? { reset: 'before' } : undefined));
    const { folder, file } = peopleFile();
    expect(await test.run(create, options(file))).toBe(ExitCode.someRecordsFailed);
    const report = join(folder, onlyReport(folder, 'people'));
    expect(readMeta(report).flags.concurrency).toBe(1);
    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: report, concurrency: 3 }))).toBe(
      ExitCode.someRecordsFailed,
    );
    expect(resumed.stderr()).toContain('--concurrency 3 --resume');
    expect(readMeta(report).flags.concurrency).toBe(3);
  });

  it('a create slower than --timeout, its customer not there yet when asked: unknown, never sent twice; the resume finds it created', async () => {
    // The platform is still working on Ana's create when b2bctl gives up and asks: the look-up answers 404. Sent
    // again at once, the create reached the platform twice (a fresh user test).
    const creating: { finish?: () => void } = {};
    const stillCreating = new Promise<void>((resolve) => (creating.finish = resolve));
    const { sandbox, test, proxy } = await throughProxy((request, creates) =>
      isCreate(request) && creates === 1 ? { hold: stillCreating } : undefined,
    );
    const { folder, file } = peopleFile();
    writeFileSync(file, `${createHeader}\n${ana}\n${bia}\n`);
    expect(await test.run(create, options(file, { timeoutMs: 200 }))).toBe(ExitCode.someRecordsFailed);
    creating.finish?.();
    await proxy.idle();
    expect(customerRequests(proxy)).toEqual([
      'POST /v1/customer',
      `PUT /v1/customer/${anaDocument}`,
      'POST /v1/customer',
    ]);
    // Ana's one create, finished after the run, and Bia's.
    expect((await requestCounts(sandbox))[createRoute]).toBe(2);
    expect((await storedCustomers(sandbox)).map((customer) => customer.document).toSorted()).toEqual(
      [anaDocument, biaDocument].toSorted(),
    );
    const report = join(folder, onlyReport(folder, 'people'));
    expect(readReport(report)).toMatchObject([
      {
        line: '2',
        key: anaDocument,
        outcome: 'unknown',
        message: `POST ${proxy.url}/v1/customer failed (timed out) after the request may have reached the platform. No customer had document ${anaDocument} when asked, but the platform may still be creating it, so it was not sent again; a resume asks again before sending it.`,
      },
      { line: '3', key: biaDocument, outcome: 'created', status: '200' },
    ]);
    const lines = test.stderr().trimEnd().split('\n');
    expect(lines).toContain(
      'customer create: 1 created, 1 unknown; 3 requests, 0 retries, 0 throttled (429); 0.0 s, 1000 customers/s',
    );
    // No errors file: fed back, Ana would be refused as registered. The resume is the way on.
    expect(lines.at(-1)).toMatch(
      /^error: The outcome of 1 customer is not known \(1 unknown\); the report \S+people\.report-20261123-120000\.csv says why\. 1 unknown may have gone through without an answer, and the resume asks the platform about it before sending it again: run B2BCTL_CONFIG_DIR=\S+ b2bctl customer create \S+people\.csv .*--resume \S+people\.report-20261123-120000\.csv$/,
    );

    await resetCounts(sandbox);
    proxy.requests.length = 0;
    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: report }))).toBe(ExitCode.ok);
    // Asked before sending, as the run said: found with the file's e-mail, nothing sent. Sent first, it relied on
    // the platform refusing a duplicate it may still be storing (a fresh user test).
    expect(customerRequests(proxy)).toEqual([`PUT /v1/customer/${anaDocument}`]);
    expect((await requestCounts(sandbox))[createRoute]).toBeUndefined();
    expect(await storedCustomers(sandbox)).toHaveLength(2);
    expect(readReport(report)).toEqual([
      expect.objectContaining({ line: '3', outcome: 'created' }),
      {
        line: '2',
        key: anaDocument,
        outcome: 'created',
        status: '200',
        id: String((await storedCustomers(sandbox)).find((customer) => customer.document === anaDocument)?.id),
        message: 'already registered with this e-mail: the interrupted run created it before its answer was recorded',
        row: '2',
      },
    ]);
    expect(resumed.stderr()).toContain(
      '\ncustomer create: 1 created; 1 request, 0 retries, 0 throttled (429); 0.0 s, 1000 customers/s\n',
    );
  });
});

describe('customer create of a document already registered', () => {
  it('without --upsert: reported failed with the fix (exit 1), the customer left as it was', async () => {
    const { sandbox, test, proxy } = await throughProxy(() => undefined);
    const { file } = peopleFile();
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    const again = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    const { folder: secondFolder, file: secondFile } = peopleFile();
    proxy.requests.length = 0;
    expect(await again.run(create, options(secondFile))).toBe(ExitCode.someRecordsFailed);
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
    expect(await storedCustomers(sandbox)).toHaveLength(1);
    const [row] = readReport(join(secondFolder, onlyReport(secondFolder, 'people')));
    expect(row).toMatchObject({ outcome: 'failed', status: '400' });
    expect(row?.message).toMatch(/\(pass --upsert to update existing customers\)$/);
    expect(again.stderr()).toContain('customer create: 1 failed; 2 requests');
  });

  it('with --upsert: updated in place, one customer', async () => {
    const { sandbox, test, proxy } = await throughProxy(() => undefined);
    const { file } = peopleFile();
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    const again = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    const { folder: secondFolder, file: secondFile } = peopleFile();
    expect(await again.run(create, options(secondFile, { upsert: true }))).toBe(ExitCode.ok);
    expect(await storedCustomers(sandbox)).toHaveLength(1);
    expect(readReport(join(secondFolder, onlyReport(secondFolder, 'people')))).toMatchObject([
      { outcome: 'updated', status: '200' },
    ]);
  });
});

describe('customer create: what the run says', () => {
  it('the summary counts each outcome in its order; a dry run names the route', async () => {
    const { test } = await throughProxy(() => undefined);
    const { file } = peopleFile();
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    const { file: mixed } = peopleFile();
    writeFileSync(
      mixed,
      `${createHeader}\n${ana}\n${ana.replace('529.982.247-25', '111.444.777-35').replace('ana@', 'bia@')}\ncpf,1,Bad,bad,1,x,1,1\n`,
    );
    const baseUrl = test.context.globals.baseUrl;
    const dry = fixture().context({ configDir: test.configDir, globals: { baseUrl } });
    await dry.run(create, options(mixed, { dryRun: true, skipInvalid: true, upsert: true }));
    expect(dry.stderr()).toContain(
      'customer create: dry run; would send 2 customers in 2 requests to POST /v1/customer; a registered customer read, then updated (--upsert).\n',
    );
    const again = fixture().context({ configDir: test.configDir, globals: { baseUrl } });
    expect(await again.run(create, options(mixed, { skipInvalid: true, upsert: true }))).toBe(
      ExitCode.someRecordsFailed,
    );
    // The pace counts the customers that went through, over the fake clock's 0 s (taken as 1 ms). The update reads
    // the stored record first: its registration address leaves the complement out, which the update keeps.
    expect(again.stderr()).toContain(
      'customer create: 1 created, 1 updated, 1 invalid; 4 requests, 0 retries, 0 throttled (429); 0.0 s, 2000 customers/s\n',
    );
    // Created and updated customers went through: only the invalid one did not.
    expect(again.stderr()).toMatch(
      /\nerror: 1 customer did not go through \(1 invalid\); the report \S+\.report-\d{8}-\d{6}\.csv and the errors file \S+\.errors-\d{8}-\d{6}\.csv say why\.\n/,
    );
  });
});

describe('customer create --dry-run --resume', () => {
  it('counts what the resume would do: the done records left out, the unknown one looked up first; sends nothing', async () => {
    // It said "would send 2 customers in 2 requests" while the resume sent one look-up and no create (a fresh user test).
    const { test, proxy } = await throughProxy((request, creates) =>
      isCreate(request) && creates === 1 ? { reset: 'before' } : undefined,
    );
    const { folder, file } = peopleFile();
    writeFileSync(file, `${createHeader}\n${ana}\n${bia}\n`);
    expect(await test.run(create, options(file))).toBe(ExitCode.someRecordsFailed);
    const report = join(folder, onlyReport(folder, 'people'));
    expect(readReport(report).map((row) => [row.line, row.outcome])).toEqual([
      ['2', 'unknown'],
      ['3', 'created'],
    ]);
    proxy.requests.length = 0;
    const rehearsal = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await rehearsal.run(create, options(file, { resume: report, dryRun: true }))).toBe(ExitCode.ok);
    expect(rehearsal.stderr().trimEnd().split('\n')).toContain(
      'customer create: dry run; would send 1 customer in 1 request to POST /v1/customer (1 already done by the resumed run). Of these, 1 customer whose create the resumed run could not tell went through is looked up first: sent only if not found.',
    );
    expect(customerRequests(proxy)).toEqual([]);
  });
});

describe('customer create with every create and look-up answered 503', () => {
  it('stops after three in a row, its closing error naming the customer the why line names, the first in the file', async () => {
    // The why line named line 2's customer, the error line the last one lost (a fresh user test).
    const { test, proxy } = await throughProxy((request) =>
      pathOf(request).startsWith('/v1/customer') ? { answer: 503 } : undefined,
    );
    const { folder, file } = peopleFile();
    const others = ['935.411.347-80', '714.602.380-01'].map((document, index) =>
      ana.replace(anaDocument, document).replace('ana@', `c${index}@`),
    );
    writeFileSync(file, [createHeader, ana, bia, ...others, ''].join('\n'));
    expect(await test.run(create, options(file, { retries: 0 }))).toBe(ExitCode.unavailable);
    expect(customerRequests(proxy)).toEqual(
      [anaDocument, biaDocument, '935.411.347-80'].flatMap((document) => [
        'POST /v1/customer',
        `PUT /v1/customer/${document}`,
      ]),
    );
    const why = (document: string) =>
      `POST ${proxy.url}/v1/customer answered HTTP 503, which may come after the platform applied the request. Whether customer ${document} was created could not be asked either (PUT ${proxy.url}/v1/customer/${document} kept failing with HTTP 503 after 1 attempt; the platform is unavailable, try again later); a resume asks again before sending it.`;
    const lines = test.stderr().trimEnd().split('\n');
    expect(lines).toContain(`customer create: why, 3 customers (first at line 2): ${why(anaDocument)}`);
    const report = join(folder, onlyReport(folder, 'people'));
    expect(lines.at(-1)).toBe(
      `error: ${why(anaDocument)} Stopped after 3 failed requests in a row; when the platform is back, run: B2BCTL_CONFIG_DIR=${test.configDir} b2bctl customer create ${file} --profile default --base-url ${proxy.url} --concurrency 1 --retries 0 --resume ${report}`,
    );
  });
});
