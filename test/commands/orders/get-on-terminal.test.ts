/**
 * `orders get` on a terminal (a user test): it printed `label: value` lines, the order's customer, items and totals
 * squeezed into one-line JSON after each label and wrapped back at the left edge, where its help and docs promise
 * the order as JSON. It prints JSON on a terminal too; `-o table` keeps the labelled lines, wrapped under their column.
 */
import { describe, expect, it } from 'vitest';
import { run as get } from '../../../src/commands/orders/get.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { scriptedPlatformEnv } from '../../support/scripted-workspace.js';
import { testContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();

/** Order 217 as a store's platform answers it, with a long item name and nested objects. */
const order = {
  id: 217,
  orderId: 100217,
  status: 'NEW',
  customer: { document: '101.647.152-15', name: 'Antônio Assunção' },
  items: [
    {
      sku: 'CX-PAP-ONDU-40X30X30',
      name: 'Caixa de papelão ondulado 40 x 30 x 30 cm (fardo com 25)',
      quantity: 13,
      unitPrice: 32.69,
      total: 424.97,
    },
    {
      sku: 'TONER-HP-CF258A',
      name: 'Toner compatível HP CF258A preto',
      quantity: 14,
      unitPrice: 262.05,
      total: 3668.7,
    },
  ],
  totals: { items: 4093.67, shipping: 39.17, discount: 204.68, total: 3928.16 },
};

/** `orders get 217` with stdout a terminal COLUMNS wide, and -o OUTPUT when given. */
async function getOnTerminal(columns: number, output?: 'table') {
  platform.routes['GET /v1/orders/217'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(order));
  const memory = testContext({
    env: scriptedPlatformEnv(platform),
    tty: { stdout: true, stderr: true },
    columns,
    globals: { output },
  });
  const code = await memory.run(get, { id: '217' });
  return { code, stdout: memory.stdout() };
}

describe('orders get on a terminal', () => {
  it('prints the order as indented JSON, as its help says, not label: value lines', async () => {
    const { code, stdout } = await getOnTerminal(80);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(order);
    expect(stdout).toBe(`${JSON.stringify(order, null, 2)}\n`);
    expect(platform.received).toEqual(['GET /v1/orders/217']);
  });

  it('-o table at 40 columns: each long value wraps under its own column, never back at the left edge', async () => {
    const { code, stdout } = await getOnTerminal(40, 'table');
    expect(code).toBe(0);
    expect(await wrappedLineCount(stdout, 40)).toBe(0);
    const screen = await renderedScreen(stdout, 40);
    const labelColumn = 'customer: '.length;
    // A label at the edge, or a value's next line under the values' column.
    for (const line of screen) expect(line).toMatch(new RegExp(`^(?:[a-zA-Z]+: +\\S| {${labelColumn}}\\S)`));
    expect(screen[0]).toBe('id:       217');
    // Every character of the value shows, in order, across its lines (a line broken at a space leaves the space out).
    const itemsLines = screen.slice(
      screen.findIndex((line) => line.startsWith('items:')),
      screen.findIndex((line) => line.startsWith('totals:')),
    );
    const shown = itemsLines.map((line) => line.slice(labelColumn)).join('');
    expect(shown.replaceAll(' ', '')).toBe(JSON.stringify(order.items).replaceAll(' ', ''));
  });
});
