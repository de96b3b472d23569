/**
 * `customer create --resume` after a killed run, against a platform that answers a create of a registered document
 * `409 Conflict` (the usual HTTP answer for "already exists") rather than the document's 400. The records with no row
 * in the killed run's report were reported `failed`, to fix and feed back, though the killed run created them (a
 * fresh user test): the 409 is now followed by the same one question as the 400, and the file's e-mail in the record
 * read back shows the create made it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CustomerCreateOptions, run as create } from '../../../src/commands/customer/create.js';
import { ExitCode } from '../../../src/base/errors.js';
import { createHeader, storedCustomers } from '../../support/customers.js';
import { onlyReport, readReport, runFiles } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxiedRequest, type ScriptedProxy, useScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

const ana = 'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10';
const anaDocument = '529.982.247-25';
const biaDocument = '111.444.777-35';
const bia = ana.replace(anaDocument, biaDocument).replace('ana@', 'bia@');

function options(file: string, extra: Partial<CustomerCreateOptions> = {}): CustomerCreateOptions {
  return { file, upsert: false, strict: false, concurrency: 1, dryRun: false, skipInvalid: false, ...extra };
}

const isCreate = (request: ProxiedRequest) => request.method === 'POST' && pathOf(request) === '/v1/customer';

/** A logged-in context through a proxy that answers every create `409 Cliente já cadastrado` while `conflict.on`. */
async function conflictingPlatform() {
  const { sandbox, loggedInContext } = fixture();
  const conflict = { on: false };
  const proxy = await proxied(sandbox.url, (request) =>
    conflict.on && isCreate(request) ? { answer: 409, body: { message: 'Cliente já cadastrado' } } : undefined,
  );
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  proxy.requests.length = 0;
  return { sandbox, test, proxy, conflict };
}

function customerRequests(proxy: ScriptedProxy): string[] {
  return proxy.requests
    .filter((request) => pathOf(request).startsWith('/v1/customer'))
    .map((request) => `${request.method} ${pathOf(request)}`);
}

/** Ana and Bia created by a run, then its report cut to Ana's row: a kill after both creates, before Bia's row. */
async function killedAfterBothCreates() {
  const platform = await conflictingPlatform();
  const folder = temporaryFolder();
  const file = join(folder, 'people.csv');
  writeFileSync(file, `${createHeader}\n${ana}\n${bia}\n`);
  expect(await platform.test.run(create, options(file))).toBe(ExitCode.ok);
  const report = join(folder, onlyReport(folder, 'people'));
  const [head, anaRow] = readFileSync(report, 'utf8').split('\r\n');
  writeFileSync(report, `${head}\r\n${anaRow}\r\n`);
  platform.conflict.on = true;
  platform.proxy.requests.length = 0;
  return { ...platform, folder, file, report };
}

describe('customer create --resume answered 409 for a record the killed run created', () => {
  it('reads the customer back and reports it created, not failed; no errors file', async () => {
    const { sandbox, test, proxy, folder, file, report } = await killedAfterBothCreates();
    const resumed = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await resumed.run(create, options(file, { resume: report }))).toBe(ExitCode.ok);
    // The create, then the one harmless question (PUT {}), which finds Bia with the file's e-mail.
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${biaDocument}`]);
    expect(JSON.parse(proxy.requests.at(-1)?.body ?? '')).toEqual({});
    expect(await storedCustomers(sandbox)).toHaveLength(2);
    expect(readReport(report).map((row) => [row.key, row.outcome, row.status, row.message])).toEqual([
      [anaDocument, 'created', '200', ''],
      [
        biaDocument,
        'created',
        '',
        'already registered with this e-mail: the interrupted run created it before its answer was recorded',
      ],
    ]);
    expect(resumed.stderr()).toContain('1 created');
    expect(resumed.stderr()).not.toContain('failed');
    expect(runFiles(folder, 'people').errors).toEqual([]);
  });

  it('a 409 outside a resume, the customer registered with another e-mail: failed 409, naming it and --upsert', async () => {
    const { test, proxy, conflict } = await conflictingPlatform();
    const folder = temporaryFolder();
    const file = join(folder, 'people.csv');
    writeFileSync(file, `${createHeader}\n${ana}\n`);
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    conflict.on = true;
    proxy.requests.length = 0;
    const again = join(folder, 'again.csv');
    writeFileSync(again, `${createHeader}\n${ana.replace('ana@', 'ana.nova@')}\n`);
    const run = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await run.run(create, options(again))).toBe(ExitCode.someRecordsFailed);
    expect(customerRequests(proxy)).toEqual(['POST /v1/customer', `PUT /v1/customer/${anaDocument}`]);
    expect(readReport(join(folder, onlyReport(folder, 'again')))).toEqual([
      expect.objectContaining({
        key: anaDocument,
        outcome: 'failed',
        status: '409',
        message:
          'Cliente já cadastrado (registered with the e-mail ana@example.com; pass --upsert to update existing customers)',
      }),
    ]);
  });

  it('a 409 with --upsert: the registered customer is updated with the file’s values', async () => {
    const { sandbox, test, proxy, conflict } = await conflictingPlatform();
    const folder = temporaryFolder();
    const file = join(folder, 'people.csv');
    writeFileSync(file, `${createHeader}\n${ana}\n`);
    expect(await test.run(create, options(file))).toBe(ExitCode.ok);
    conflict.on = true;
    proxy.requests.length = 0;
    writeFileSync(file, `${createHeader}\n${ana.replace(',Ana,', ',Ana Maria,')}\n`);
    const run = fixture().context({ configDir: test.configDir, globals: { baseUrl: proxy.url } });
    expect(await run.run(create, options(file, { upsert: true }))).toBe(ExitCode.ok);
    // Read back (the address is completed from the stored record, as after a 400), then updated.
    expect(customerRequests(proxy)).toEqual([
      'POST /v1/customer',
      `PUT /v1/customer/${anaDocument}`,
      `PUT /v1/customer/${anaDocument}`,
    ]);
    expect((await storedCustomers(sandbox)).map((customer) => customer.name)).toEqual(['Ana Maria']);
  });
});
