/**
 * The tax callback end to end, two processes of the built CLI over real HTTP: `tax serve` from the LibreOffice-saved
 * table, and a sandbox with --tax-callback whose carts wait for their taxes. The order the sandbox closes carries
 * the taxes of docs/tax.md's worked examples; a cart the table cannot tax is not closed.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, firstLine, freshConfigDir, spawnCli } from '../../support/cli.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { sandboxPassword, sandboxUser } from '../../support/sandbox.js';
import { workedExample3 } from '../../support/tax-examples.js';

const taxToken = 'e2e-tax-token-0123456789abcdef0123';
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => collect(child)));
  removeTemporaryFolders();
});

async function start(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  const child = spawnCli(args, freshConfigDir(), env, cwd);
  child.stdin?.end();
  children.push(child);
  return firstLine(child.stdout as NodeJS.ReadableStream);
}

/** Example 3 of docs/tax.md: a final consumer (a CPF) in Minas Gerais, freight R$ 100.00. */
const example3Cart = {
  customer: { document: '529.982.247-25' },
  state: 'MG',
  shipping: 100,
  discount: 0,
  items: [{ sku: 'FORNO-1', ncm: '85166000', quantity: 1, unitPrice: 2000 }],
};

/** A folder holding the LibreOffice-saved table and its map, as an operator keeps them. */
function tableFolder(): string {
  const folder = temporaryFolder('b2bctl-tax-e2e-');
  for (const file of ['impostos-libreoffice.csv', 'impostos.map.json'])
    copyFileSync(
      join(__dirname, '..', '..', 'fixtures', 'tax', file),
      join(folder, file === 'impostos-libreoffice.csv' ? 'impostos.csv' : file),
    );
  return folder;
}

/** Closes an order of `cart` in the sandbox and reads its detail back as an ERP does, through the platform's API. */
async function closedOrderTaxes(sandboxUrl: string, cart: unknown): Promise<{ status: number; taxes?: unknown }> {
  const created = await fetch(`${sandboxUrl}/_sandbox/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(cart),
  });
  if (created.status !== 200) return { status: created.status };
  const order = (await created.json()) as { id: number };
  const token = (await (
    await fetch(`${sandboxUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: sandboxUser, password: sandboxPassword }),
    })
  ).json()) as { access_token: string };
  const detail = (await (
    await fetch(`${sandboxUrl}/v1/orders/${order.id}`, { headers: { authorization: `Bearer ${token.access_token}` } })
  ).json()) as { taxes: unknown };
  return { status: created.status, taxes: detail.taxes };
}

const example3Taxes = {
  items: [{ sku: 'FORNO-1', ...workedExample3 }],
  totals: {
    merchandise: '2000.00',
    ipi: '105.00',
    icms: '264.60',
    icmsSt: '0.00',
    difal: '161.34',
    fcp: '47.33',
    added: '105.00',
  },
};

describe('sandbox --tax-callback with tax serve', () => {
  it('closes an order with the taxes tax serve computed from the table, and refuses a cart it cannot tax', async () => {
    const folder = tableFolder();
    const env = { B2BCTL_TAX_TOKEN: taxToken };
    const taxUrl = await start(
      ['tax', 'serve', '--rules', 'impostos.csv', '--map', 'impostos.map.json', '--auth', 'bearer', '--port', '0'],
      env,
      folder,
    );
    const sandboxUrl = await start(['sandbox', '--port', '0', '--tax-callback', `${taxUrl}/tax`], env, folder);

    // The order's detail, as an ERP reads it from the platform, carries the taxes tax serve answered.
    expect(await closedOrderTaxes(sandboxUrl, example3Cart)).toEqual({ status: 200, taxes: example3Taxes });

    const untaxable = await fetch(`${sandboxUrl}/_sandbox/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...example3Cart, items: [{ sku: 'X', ncm: '85176255', quantity: 1, unitPrice: 10 }] }),
    });
    expect(untaxable.status).toBe(502);
    expect(((await untaxable.json()) as { message: string }).message).toContain(
      'the tax callback answered HTTP 422: {"error":"no-tax-row"',
    );
    const health = (await (await fetch(`${taxUrl}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ answered: 1, noRow: 1, refused: 0 });
  });

  it('asks tax serve --auth token for a token first, in the body style, and keeps it for the next cart', async () => {
    const folder = tableFolder();
    const env = { B2BCTL_TAX_CLIENT_SECRET: 'e2e-tax-client-secret-0123456789abcdef' };
    const taxUrl = await start(
      ['tax', 'serve', '--rules', 'impostos.csv', '--map', 'impostos.map.json', '--port', '0'].concat([
        '--auth',
        'token',
        '--client-id',
        'plataforma',
      ]),
      env,
      folder,
    );
    const sandboxUrl = await start(
      ['sandbox', '--port', '0', '--tax-callback', `${taxUrl}/tax`].concat([
        '--tax-client-id',
        'plataforma',
        '--tax-style',
        'body',
      ]),
      env,
      folder,
    );
    expect(await closedOrderTaxes(sandboxUrl, example3Cart)).toEqual({ status: 200, taxes: example3Taxes });
    expect(await closedOrderTaxes(sandboxUrl, example3Cart)).toEqual({ status: 200, taxes: example3Taxes });
    // Two carts answered and nothing refused: the token was asked for, accepted, and kept.
    const health = (await (await fetch(`${taxUrl}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ answered: 2, refused: 0 });
  });
});
