/**
 * Customer commands as a process: exit codes and stdout/stderr through pipes. Every sample's content, update,
 * status and addresses are tested in process (test/commands/customer/samples.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { addressesRoute, createRoute, statusRoute, storedCustomers, updateRoute } from '../../support/customers.js';
import { expectLines, timed } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

describe('customer commands (built CLI)', () => {
  it('create customers.json: exit 0, the phases on stderr, nothing on stdout, one request a customer', async () => {
    const folder = freshWorkDir();
    copySamples(folder, 'customers.json');
    const result = await runCli(['customer', 'create', 'customers.json'], { configDir, cwd: folder });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectLines(result.stderr, [
      'customer create: validating customers.json',
      timed('customer create: 10 records, 10 valid, 0 invalid ({s} s)'),
      'customer create: sending 10 customers, one request each, to POST /v1/customer (concurrency 8)',
      timed('customer create: 10 created; 10 requests, 0 retries, 0 throttled (429); {s} s, {n} customers/s'),
      timed('customer create: report: customers.report-{stamp}.csv'),
    ]);
    expect(await storedCustomers(sandbox)).toHaveLength(10);
    expect(await requestCounts(sandbox)).toEqual({ [createRoute]: 10 });
  });

  it('addresses, status and update --set of a document the store does not have each exit 1 naming it', async () => {
    const folder = freshWorkDir();
    const missing = '529.982.247-25';
    // The platform's words kept; for the two routes a setting names, the path asked and that setting.
    const message = `error: No customer has the document ${missing} in this store (HTTP 404: No customer with document ${missing} in the store).`;
    const route = (method: string, path: string, setting: string) =>
      ` If the customer is registered, this store's route is not ${method} ${sandbox.url}${path}: set ${setting}.`;
    const run = (args: string[]) => runCli(['customer', ...args], { configDir, cwd: folder });
    const addresses = await run(['addresses', missing]);
    expect([addresses.code, addresses.stdout, addresses.stderr]).toEqual([
      1,
      '',
      `${message}${route('GET', `/v1/customer/addresses/${missing}`, 'paths.customerAddresses')}\n`,
    ]);
    const status = await run(['status', missing, 'inactive']);
    expect([status.code, status.stdout, status.stderr]).toEqual([
      1,
      '',
      `${message}${route('PUT', `/v1/customer/updateStatus/${missing}/false`, 'paths.customerStatus')}\n`,
    ]);
    const update = await run(['update', '--document', missing, '--set', 'name=Ana']);
    expect([update.code, update.stdout, update.stderr]).toEqual([1, '', `${message}\n`]);
    expect(await requestCounts(sandbox)).toEqual({ [addressesRoute]: 1, [statusRoute]: 1, [updateRoute]: 1 });
  });
});
