/**
 * An address update whose read of the stored record (`PUT {}`) answers no readable record, through a proxy in front
 * of the sandbox (fresh user tests): answered `204`, the update went without the complement, which the platform
 * cleared, exit 0, a note in the report alone; answered `{"data":{…}}`, the same, though the record was there. Now a
 * record in a recognised envelope is read, and a row the read cannot complete is not sent: `invalid`, naming the
 * columns to give, with its `why` line on stderr as a failed row has.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import {
  createdWithFullAddress,
  fullAddressHeader,
  storedCustomer,
  updateRoute,
  zipcodeAndNumberUpdate,
} from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';
import {
  loggedInThroughProxy,
  pathOf,
  type ProxyAction,
  type ScriptedProxy,
  startScriptedProxy,
} from '../../support/scripted-proxy.js';

let sandbox: RunningSandbox;
let configDir: string;
let proxy: ScriptedProxy | undefined;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const header = fullAddressHeader;

/** Creates a company whose registration address has a complement, a type and a name; its folder. */
const created = (document: string, email: string) => createdWithFullAddress(sandbox, configDir, document, email);

/** A config folder logged in through a proxy that answers the read of the stored record (`PUT {}`) so. */
async function throughProxyAnsweringRead(action: ProxyAction): Promise<string> {
  proxy = await startScriptedProxy(sandbox.url, (request) =>
    request.method === 'PUT' && request.body === '{}' ? action : undefined,
  );
  return loggedInThroughProxy(sandbox, proxy);
}

/** `customer update` of a file that gives DOCUMENT's zipcode and number alone, in FOLDER through the PROXIED login. */
async function updateNumberOnly(folder: string, document: string, proxied: string) {
  writeFileSync(
    join(folder, 'endereco.csv'),
    // The stored CEP and number: the same place, whose complement is kept (at another number it would be cleared).
    `document;customerRegistrationAddress.zipcode;customerRegistrationAddress.number\r\n${document};01310-100;100\r\n`,
  );
  return runCommandLine(['customer', 'update', 'endereco.csv', '--no-input'], { configDir: proxied, cwd: folder });
}

const customerBodies = () =>
  proxy?.requests.filter((request) => pathOf(request).startsWith('/v1/customer/')).map((request) => request.body);

const leftColumns =
  'give customerRegistrationAddress.complement, customerRegistrationAddress.name, customerRegistrationAddress.addressType and customerRegistrationAddress.farmerStateRegistration';

describe('an address update whose read of the stored record answers no record', () => {
  it('answered 204: not sent, invalid, naming the columns to give, with its why line; exit 1', async () => {
    const document = '66.392.332/0001-77';
    const folder = await created(document, 'read1@empresa.com.br');
    const proxied = await throughProxyAnsweringRead({ answer: 204 });
    const result = await updateNumberOnly(folder, document, proxied);
    expect(result.code).toBe(1);
    const reason = `not sent: the registration address leaves complement, name, addressType, farmerStateRegistration empty, and the customer's stored record was read (PUT {}, HTTP 204), but the answer holds no customer record to keep them from, and sending it could clear the stored ones: ${leftColumns}`;
    const [row] = readReport(join(folder, onlyReport(folder, 'endereco')));
    expect(row).toMatchObject({ outcome: 'invalid', message: reason });
    expect(result.stderr).toContain(`why, 1 customer (line 2): ${reason}`);
    // Only the read went; the update never reached the platform, and the complement is as stored.
    expect(customerBodies()).toEqual(['{}']);
    expect(await requestCounts(sandbox)).toEqual({});
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress).toMatchObject({
      number: '100',
      complement: 'Galpão 3',
    });
  });

  it('answered in a {"data": …} envelope: the record is read there, and its complement kept', async () => {
    const document = '11.222.333/0001-81';
    const folder = await created(document, 'read2@empresa.com.br');
    const stored = await storedCustomer(sandbox, document);
    const proxied = await throughProxyAnsweringRead({ answer: 200, body: { data: stored } });
    const result = await updateNumberOnly(folder, document, proxied);
    expect(result.code).toBe(0);
    expect((await storedCustomer(sandbox, document)).customerRegistrationAddress).toMatchObject({
      number: '100',
      complement: 'Galpão 3',
      addressType: 'BUSINESS',
      name: 'Matriz',
    });
    expect(await requestCounts(sandbox)).toEqual({ [updateRoute]: 1 });
  });

  it('create --upsert, the read answered 204: the update is not sent, invalid, exit 1', async () => {
    const document = '60.701.190/0001-04';
    const folder = await created(document, 'read3@empresa.com.br');
    const proxied = await throughProxyAnsweringRead({ answer: 204 });
    writeFileSync(
      join(folder, 'reenvio.csv'),
      `${header.split(';').slice(0, 8).join(';')}\r\ncnpj;${document};Empresa Renomeada Ltda;read3@empresa.com.br;(11) 3333-0000;Senha#1;01310-100;100\r\n`,
    );
    const result = await runCommandLine(['customer', 'create', 'reenvio.csv', '--upsert', '--no-input'], {
      configDir: proxied,
      cwd: folder,
    });
    expect(result.code).toBe(1);
    const [row] = readReport(join(folder, onlyReport(folder, 'reenvio')));
    expect(row?.outcome).toBe('invalid');
    expect(row?.message).toContain(`not sent as an update: the registration address leaves complement`);
    expect(row?.message).toContain(leftColumns);
    expect(result.stderr).toContain('why, 1 customer (line 2): not sent as an update');
    const after = await storedCustomer(sandbox, document);
    expect(after.name).toBe('Empresa Ltda');
    expect(after.customerRegistrationAddress).toMatchObject({ complement: 'Galpão 3' });
  });

  it('update --document --set, the read answered 204: nothing sent, one line naming the columns, exit 65', async () => {
    const document = '33.000.167/0001-01';
    const folder = await created(document, 'read4@empresa.com.br');
    const proxied = await throughProxyAnsweringRead({ answer: 204 });
    const result = await runCommandLine(zipcodeAndNumberUpdate(document), { configDir: proxied, cwd: folder });
    expect(result.code).toBe(65);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(
        `^error: Customer ${document.replace(/[./]/g, '\\$&')}: .*HTTP 204.*${leftColumns}\\. Nothing was sent\\.$`,
      ),
    );
    expect(customerBodies()).toEqual(['{}']);
  });
});
