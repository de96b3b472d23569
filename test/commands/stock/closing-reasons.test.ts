/**
 * The closing `why` lines of a run whose items the platform refused: the line they name is the reason's first in
 * the file, whichever answer came first (the batch of lines 2–51 answered last once said `first at line 52`), and
 * off a terminal (a cron log) the platform's message is written whole, not cut at a screen's 200 characters.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { generatedSku, writeGeneratedStock } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

/** The platform's refusal of one SKU: 300 characters and more, the SKU in it. */
const refusal = (sku: string) =>
  `SKU ${sku} refused: ${'the warehouse named for this item is closed for the yearly inventory count; '.repeat(4)}`.trim();

/** Every item refused; the batch holding the file's first SKU answered last. */
function refusingEveryItem(): void {
  platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
    const skus = (JSON.parse(body) as { items: { sku: string }[] }).items.map((item) => item.sku);
    const answer = JSON.stringify({
      results: skus.map((sku, index) => ({ index, sku, status: 'REJECTED', message: refusal(sku) })),
    });
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'application/json' }).end(answer),
      skus.includes(generatedSku(1)) ? 500 : 0,
    );
  };
}

async function pushRefused(toTerminal: boolean) {
  refusingEveryItem();
  const folder = freshWorkDir();
  writeGeneratedStock(join(folder, 'stock.csv'), 120);
  const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch'], {
    configDir: freshConfigDir(),
    cwd: folder,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    tty: { stderr: toTerminal },
  });
  return { ...result, why: result.stderr.split('\n').filter((line) => line.includes('why,')) };
}

describe('the closing why line of a run whose every item was refused', () => {
  it('off a terminal: names line 2, answered last, and its whole message', async () => {
    const result = await pushRefused(false);
    expect(result.why).toEqual([`stock push: why, 120 items (first at line 2): ${refusal(generatedSku(1))}`]);
    expect(platform.received).toEqual(Array.from({ length: 3 }, () => 'PUT /v1/stock/batch'));
    expect(result.code).toBe(1);
  });

  it('on a terminal: the message cut at 200 characters', async () => {
    const result = await pushRefused(true);
    expect(result.why).toEqual([
      `stock push: why, 120 items (first at line 2): ${refusal(generatedSku(1)).slice(0, 200)}…`,
    ]);
    expect(result.code).toBe(1);
  });
});
