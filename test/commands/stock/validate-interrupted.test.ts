/**
 * Ctrl-C during `stock validate` (and every `validate`, one flow): the pass stops at a record, and the command
 * says the file was not checked to the end and exits 75, never 0 (a script would take the file as valid).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/stock/validate.js';
import { ExitCode } from '../../../src/base/errors.js';
import { testContext } from '../../support/test-context.js';
import { temporaryFolder } from '../../support/temporary.js';

const folder = temporaryFolder('b2bctl-validate-interrupted-');

/** A stock file of `rows` rows, the first one invalid (a negative quantity). */
function stockFile(rows: number): string {
  const path = join(folder, `stock-${rows}.csv`);
  const lines = Array.from({ length: rows }, (_, index) => `SKU-${index},${index === 0 ? -1 : index},9.90`);
  writeFileSync(path, `sku,quantity,price\n${lines.join('\n')}\n`);
  return path;
}

describe('stock validate interrupted', () => {
  it('before the first record: exit 75, "interrupted", not "nothing to check"', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: folder } });
    memory.interrupt('SIGINT');
    const code = await memory.run(run, { file: stockFile(10), strict: false });
    expect(code).toBe(ExitCode.interrupted);
    expect(memory.stderr()).toContain('Interrupted after 0 records of');
    expect(memory.stderr()).toContain('(none invalid so far)');
    expect(memory.stderr()).toContain('the rest was not checked');
    expect(memory.stderr()).not.toContain('nothing to check');
  });

  it('mid-file, once the first problem is printed: exit 75, the rows read so far counted, fewer than the file has', async () => {
    const rows = 200_000;
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: folder } });
    void memory.firstLine().then(() => memory.interrupt('SIGINT'));
    const code = await memory.run(run, { file: stockFile(rows), strict: false });
    expect(code).toBe(ExitCode.interrupted);
    expect(memory.stdout()).toMatch(/"line":2\b/);
    const read = Number(/Interrupted after (\d+) records/.exec(memory.stderr())?.[1]);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(rows);
    expect(memory.stderr()).toContain('(1 invalid so far, listed above)');
    expect(memory.stderr()).not.toMatch(/\d+ records, \d+ valid/);
  });
});
