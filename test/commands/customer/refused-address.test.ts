/**
 * A create or update the platform refuses with `Property [address] with value [] does not pass validation` (a CEP
 * the store does not know, in the sandbox): the report keeps the platform's words first, then names the CEP and
 * number that were sent, which the platform's message does not.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { createHeader, createRoute, updateRoute } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

let running: { sandbox: RunningSandbox; configDir: string } | undefined;
afterAll(async () => {
  if (running) await stopTestSandbox(running.sandbox);
  removeTemporaryFolders();
});

/** `b2bctl ARGS` in a fresh folder holding `name` with `contents`, against a logged-in sandbox that holds Ana. */
async function runIn(name: string, contents: string, args: readonly string[]) {
  if (!running) {
    running = await startLoggedInSandbox();
    const { result } = await runIn('ana.csv', `${createHeader}\n${ana},Senha#1,01310-100,10\n`, [
      'customer',
      'create',
      'ana.csv',
    ]);
    if (result.code !== 0) throw new Error(`could not register Ana: ${result.stderr}`);
  }
  const folder = temporaryFolder();
  writeFileSync(join(folder, name), contents);
  await resetCounts(running.sandbox);
  const result = await runCommandLine(args, { configDir: running.configDir, cwd: folder });
  return { result, folder, counts: await requestCounts(running.sandbox) };
}

const refused = 'Property [address] with value [] does not pass validation';
const ana = 'cpf,529.982.247-25,Ana,ana@example.com,11987654321';

describe('an address the platform refuses', () => {
  it('create: the report row names the CEP and number sent after the platform message', async () => {
    const { result, folder, counts } = await runIn(
      'cep.csv',
      `${createHeader}\ncpf,386.293.405-50,Cep desconhecido,cep3@x.com.br,(11) 3333-4444,Senha#1,99999-999,1\n`,
      ['customer', 'create', 'cep.csv'],
    );
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'cep')))).toMatchObject([
      {
        line: '2',
        outcome: 'failed',
        status: '422',
        message: `${refused}; the platform refused the address: check its CEP 99999-999 and number 1`,
      },
    ]);
    expect(counts[createRoute]).toBe(1);
  });

  it('create with lat/lng, on a store with the latitude/longitude feature off: the lat/lng sent are named too', async () => {
    // The CEP and number are right: without the two columns the same row is created.
    const { result, folder, counts } = await runIn(
      'lat.csv',
      `${createHeader},customerRegistrationAddress.lat,customerRegistrationAddress.lng\ncpf,100.696.872-50,Com coordenadas,lat@x.com.br,(11) 3333-4444,Senha#1,01310-100,1,-23.5505,-46.6333\n`,
      ['customer', 'create', 'lat.csv'],
    );
    expect(result.code).toBe(1);
    const message = `${refused}; the platform refused the address: check its CEP 01310-100 and number 1, and the customerRegistrationAddress.lat/lng -23.5505, -46.6333 sent: the platform takes lat/lng only when the store has its latitude/longitude feature on, so leave them out if it has not`;
    expect(readReport(join(folder, onlyReport(folder, 'lat')))).toMatchObject([
      { line: '2', outcome: 'failed', status: '422', message },
    ]);
    expect(result.stderr).toContain(message);
    expect(counts[createRoute]).toBe(1);
  });

  it('update: the same, for a registered customer', async () => {
    const { result, folder } = await runIn(
      'changes.csv',
      'document,customerRegistrationAddress.zipcode,customerRegistrationAddress.number\n529.982.247-25,99999-999,12A\n',
      ['customer', 'update', 'changes.csv'],
    );
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'changes')))).toMatchObject([
      {
        line: '2',
        outcome: 'failed',
        status: '422',
        message: `${refused}; the platform refused the address: check its CEP 99999-999 and number 12A`,
      },
    ]);
  });

  it('update --set: the error line names the CEP and number sent, as the report row does', async () => {
    const { result, counts } = await runIn('nothing.txt', '', [
      'customer',
      'update',
      '--document',
      '529.982.247-25',
      '--set',
      'customerRegistrationAddress.zipcode=99999-999',
      '--set',
      'customerRegistrationAddress.number=12A',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: PUT ${running?.sandbox.url}/v1/customer/529.982.247-25 failed with HTTP 422: ${refused}; the platform refused the address: check its CEP 99999-999 and number 12A.`,
    );
    // The stored record read (to keep its complement), then the update.
    expect(counts[updateRoute]).toBe(2);
  });

  it('a refusal of another field is the platform message alone', async () => {
    const { folder, counts } = await runIn('tags.csv', 'document,priceRuleTags\n529.982.247-25,Saldão\n', [
      'customer',
      'update',
      'tags.csv',
    ]);
    expect(readReport(join(folder, onlyReport(folder, 'tags')))).toMatchObject([
      {
        outcome: 'failed',
        status: '422',
        message: 'Property [priceRuleTags] with value [Saldão] does not pass validation',
      },
    ]);
    expect(counts[updateRoute]).toBe(1);
  });
});

describe('a group the store does not know', () => {
  const groupsHint = "(`b2bctl api /v1/customer-groups --paginate` lists the store's groups)";

  it("update: the report row names the groups sent and how to list the store's", async () => {
    const { result, folder, counts } = await runIn(
      'group.csv',
      'document,customerGroupList\n529.982.247-25,Sul|atacado\n',
      ['customer', 'update', 'group.csv'],
    );
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'group')))).toMatchObject([
      {
        outcome: 'failed',
        status: '422',
        message: `Property [customerGroupList] with value [atacado] does not pass validation; customer groups sent: Sul, atacado ${groupsHint}`,
      },
    ]);
    expect(counts[updateRoute]).toBe(1);
  });

  it('update --set: the error line says the same', async () => {
    const { result, counts } = await runIn('nothing.txt', '', [
      'customer',
      'update',
      '--document',
      '529.982.247-25',
      '--set',
      'customerGroupList=atacado',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: PUT ${running?.sandbox.url}/v1/customer/529.982.247-25 failed with HTTP 422: Property [customerGroupList] with value [atacado] does not pass validation; customer groups sent: atacado ${groupsHint}.`,
    );
    expect(counts[updateRoute]).toBe(1);
  });

  it('a price-rule tag refused beside groups the store knows: the platform message alone, not the groups', async () => {
    const { result, folder, counts } = await runIn(
      'tag.csv',
      'document,customerGroupList,priceRuleTags\n529.982.247-25,Sul,Promo\n',
      ['customer', 'update', 'tag.csv'],
    );
    expect(result.code).toBe(1);
    expect(readReport(join(folder, onlyReport(folder, 'tag')))).toMatchObject([
      {
        outcome: 'failed',
        status: '422',
        message: 'Property [priceRuleTags] with value [Promo] does not pass validation',
      },
    ]);
    expect(counts[updateRoute]).toBe(1);
  });

  it('create: the same in the report row', async () => {
    const { folder, counts } = await runIn(
      'new.csv',
      `${createHeader},customerGroupList\ncpf,386.293.405-50,Grupo desconhecido,grupo@x.com.br,(11) 3333-4444,Senha#1,01310-100,1,Varejo\n`,
      ['customer', 'create', 'new.csv'],
    );
    expect(readReport(join(folder, onlyReport(folder, 'new')))).toMatchObject([
      {
        outcome: 'failed',
        status: '422',
        message: `Property [customerGroupList] with value [Varejo] does not pass validation; customer groups sent: Varejo ${groupsHint}`,
      },
    ]);
    expect(counts[createRoute]).toBe(1);
  });
});
