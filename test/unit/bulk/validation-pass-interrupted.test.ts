import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCommandInput } from '../../../src/bulk/command-input.js';
import { runValidationPass } from '../../../src/bulk/validation-pass.js';
import { newStockChecker, stockCatalogue } from '../../../src/commands/stock/stock-input.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

/** A pass over rows whose quantities are all negative (one problem each), Ctrl-C at the problem of `abortAtLine`. */
async function passAbortedAt(abortAtLine: number, rows: number) {
  const path = join(temporaryFolder('b2bctl-pass-interrupted-'), 'stock.csv');
  const lines = Array.from({ length: rows }, (_, index) => `SKU-${index},-1`);
  writeFileSync(path, `sku,quantity\n${lines.join('\n')}\n`);
  const { context } = testContext();
  const input = await openCommandInput(context, path, { strict: false }, stockCatalogue);
  const controller = new AbortController();
  return runValidationPass({
    batches: input.recordBatches(),
    checker: newStockChecker(),
    signal: controller.signal,
    onProblem: (line) => {
      if (line === abortAtLine) controller.abort();
    },
  });
}

describe('runValidationPass and Ctrl-C', () => {
  it('stops at the next record and says it was interrupted', async () => {
    const summary = await passAbortedAt(3, 5);
    expect(summary).toMatchObject({ records: 2, invalid: 2, interrupted: true });
  });

  it('a Ctrl-C at the last record is no interruption: every record was judged', async () => {
    const summary = await passAbortedAt(6, 5);
    expect(summary).toMatchObject({ records: 5, invalid: 5, interrupted: false });
  });
});
