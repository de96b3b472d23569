/**
 * `customer create --upsert`: a registered customer's row goes as an update, and that update answered 500 (the
 * platform had applied it) was `failed`, to fix, as if refused; a `customer update` of the same row is `unknown`. The
 * client's rule for a write answered 5xx (src/platform/applied-write.ts) now covers it as every write route.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run as create } from '../../../src/commands/customer/create.js';
import { createHeader, storedCustomer } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useSandbox } from '../../support/sandbox.js';
import { pathOf, type ScriptedProxy, startScriptedProxy } from '../../support/scripted-proxy.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
let proxy: ScriptedProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const sending = { strict: false, concurrency: 1, dryRun: false, skipInvalid: false } as const;
const ana = (name: string) =>
  `${createHeader}\ncpf,529.982.247-25,${name},ana@example.com,11987654321,Senha#1,01310-100,10\n`;

describe('customer create --upsert: the update of a registered customer answered 500', () => {
  it('is unknown with the status and the platform words, sent once, exit 1', async () => {
    const current = fixture();
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'ana.csv'), ana('Ana'));
    const registering = await current.loggedInContext();
    expect(await registering.run(create, { file: join(folder, 'ana.csv'), upsert: false, ...sending })).toBe(0);
    // The update (a PUT with changes; not the empty one that asks) is applied, and its answer replaced by a 500.
    proxy = await startScriptedProxy(current.sandbox.url, (request) =>
      request.method === 'PUT' && request.body !== '{}'
        ? { appliedThenAnswer: 500, body: { message: 'Internal Server Error' } }
        : undefined,
    );
    const test = await current.loggedInContext({ globals: { baseUrl: proxy.url } });
    writeFileSync(join(folder, 'again.csv'), ana('Ana Souza'));
    const code = await test.run(create, { file: join(folder, 'again.csv'), upsert: true, ...sending });
    const [row] = readReport(join(folder, onlyReport(folder, 'again')));
    expect({ code, outcome: row?.outcome, status: row?.status }).toEqual({
      code: 1,
      outcome: 'unknown',
      status: '500',
    });
    expect(row?.message).toMatch(
      /^PUT \S+ failed with HTTP 500: Internal Server Error, which may come after the platform applied the update\.$/,
    );
    // Applied, as the row may not say: never sent again after its 500.
    expect((await storedCustomer(current.sandbox, '529.982.247-25')).name).toBe('Ana Souza');
    const updates = proxy.requests.filter((request) => request.method === 'PUT' && request.body !== '{}');
    expect(updates.map((request) => pathOf(request))).toEqual(['/v1/customer/529.982.247-25']);
  });
});
