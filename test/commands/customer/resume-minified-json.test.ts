/**
 * `customer create --resume` of a minified JSON file, where every record is on line 1: the report names
 * each record by its element, so the resumed run skips exactly the customers the first run created and
 * sends the rest. A report that names line 1 only (as reports were written before) is refused, nothing sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustomerCreateOptions, run as create } from '../../../src/commands/customer/create.js';
import { ExitCode } from '../../../src/base/errors.js';
import { generateCustomers, storedCustomers } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxiedRequest, type ScriptedProxy, useScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

interface Generated {
  document: string;
}

/** Four valid customers as one line of JSON, the way an ERP's API export or `JSON.stringify` writes them. */
function minifiedFile(): { folder: string; file: string; documents: string[] } {
  const customers = JSON.parse(generateCustomers(4, 'json').toString('utf8')) as Generated[];
  const folder = temporaryFolder();
  const file = join(folder, 'clientes.json');
  writeFileSync(file, JSON.stringify(customers));
  return { folder, file, documents: customers.map((customer) => customer.document) };
}

function options(file: string, extra: Partial<CustomerCreateOptions> = {}): CustomerCreateOptions {
  return { file, upsert: false, strict: false, concurrency: 1, dryRun: false, skipInvalid: false, ...extra };
}

const documentOf = (request: ProxiedRequest) => (JSON.parse(request.body) as Generated).document;
const isCreate = (request: ProxiedRequest) => request.method === 'POST' && pathOf(request) === '/v1/customer';

/** A logged-in context through a proxy that answers 503 to the creates of `down` documents while `down` is set. */
async function throughProxy(down: { documents: ReadonlySet<string> }) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) =>
    isCreate(request) && down.documents.has(documentOf(request)) ? { answer: 503 } : undefined,
  );
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  proxy.requests.length = 0;
  return { sandbox, test, proxy };
}

/** The documents of the creates the proxy saw (retries included), in order. */
const createdDocuments = (proxy: ScriptedProxy) => proxy.requests.filter(isCreate).map(documentOf);

describe('customer create --resume of a minified JSON file', () => {
  it('skips the customers the first run created and sends only the others, each created once', async () => {
    const { folder, file, documents } = minifiedFile();
    const down = { documents: new Set(documents.slice(2)) };
    const { sandbox, test, proxy } = await throughProxy(down);
    expect(await test.run(create, options(file, { retries: 0 }))).toBe(ExitCode.someRecordsFailed);
    const reportPath = join(folder, onlyReport(folder, 'clientes'));
    const firstRun = readReport(reportPath);
    // Each row names its record: the line alone (1) would name all four.
    expect(firstRun.map((row) => [row.line, row.key, row.outcome])).toEqual([
      [expect.stringMatching(/^1:\d+ \(element 0\)$/), documents[0], 'created'],
      [expect.stringMatching(/^1:\d+ \(element 1\)$/), documents[1], 'created'],
      // A create answered 503 may have been stored: looked up, not found, and not sent again (the resume asks).
      [expect.stringMatching(/^1:\d+ \(element 2\)$/), documents[2], 'unknown'],
      [expect.stringMatching(/^1:\d+ \(element 3\)$/), documents[3], 'unknown'],
    ]);

    down.documents = new Set();
    proxy.requests.length = 0;
    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: reportPath }))).toBe(ExitCode.ok);
    expect(createdDocuments(proxy)).toEqual(documents.slice(2));
    expect((await storedCustomers(sandbox)).map((customer) => customer.document).toSorted()).toEqual(
      documents.toSorted(),
    );
    // One row per record once the resume ends: the two unknown rows gave way to the resume's.
    const rows = readReport(reportPath);
    expect(rows.map((row) => [row.line, row.key, row.outcome])).toEqual([
      [firstRun[0]?.line, documents[0], 'created'],
      [firstRun[1]?.line, documents[1], 'created'],
      [firstRun[2]?.line, documents[2], 'created'],
      [firstRun[3]?.line, documents[3], 'created'],
    ]);
  });

  it('customers created by a killed run before their rows were written are recognised by element, not created again', async () => {
    const { folder, file, documents } = minifiedFile();
    const { sandbox, test, proxy } = await throughProxy({ documents: new Set() });
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    const reportPath = join(folder, onlyReport(folder, 'clientes'));
    // A SIGKILL after the platform created all four but before three of their rows reached the report.
    const [header, firstRow] = readFileSync(reportPath, 'utf8').split('\r\n');
    writeFileSync(reportPath, `${header}\r\n${firstRow}\r\n`);
    proxy.requests.length = 0;

    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: reportPath }))).toBe(ExitCode.ok);
    expect(createdDocuments(proxy)).toEqual(documents.slice(1));
    expect(await storedCustomers(sandbox)).toHaveLength(4);
    expect(readReport(reportPath).map((row) => [row.key, row.outcome, row.message])).toEqual([
      [documents[0], 'created', ''],
      ...documents
        .slice(1)
        .map((document) => [
          document,
          'created',
          'already registered with this e-mail: the interrupted run created it before its answer was recorded',
        ]),
    ]);
  });

  it('a report whose rows name line 1 only (written before rows named the element) is refused, nothing sent', async () => {
    const { folder, file, documents } = minifiedFile();
    const { sandbox, test, proxy } = await throughProxy({ documents: new Set(documents.slice(2)) });
    expect(await test.run(create, options(file, { retries: 0 }))).toBe(ExitCode.someRecordsFailed);
    const reportPath = join(folder, onlyReport(folder, 'clientes'));
    // What an older b2bctl wrote for the same run: the line cell is 1 on every row.
    writeFileSync(reportPath, readFileSync(reportPath, 'utf8').replace(/^1:\d+ \(element \d+\),/gm, '1,'));
    proxy.requests.length = 0;

    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: reportPath }))).toBe(ExitCode.usage);
    expect(resumed.stderr().split('\n').at(-2)).toBe(
      `error: Cannot resume from ${reportPath}: it has rows for 1 place where ${file} has no record (${file} holds several records on a line, and the report names lines only, as b2bctl wrote reports before it named the element; such a report cannot tell its records apart). Nothing was sent.`,
    );
    expect(proxy.requests.filter((request) => pathOf(request).startsWith('/v1/customer'))).toEqual([]);
    expect(await storedCustomers(sandbox)).toHaveLength(2);
  });
});
