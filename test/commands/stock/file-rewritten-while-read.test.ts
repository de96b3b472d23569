/**
 * An export rewritten in place (truncated and written again) while b2bctl reads it: the rows read after the rewrite
 * are of the new file, at the old file's offsets (a line half old and half new, a SKU "also on line 6640"). The
 * change is the one verdict, and none of those rows' problems is printed or counted as the file's (z/Z4, w2).
 */
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type B2bctlError, ExitCode } from '../../../src/base/errors.js';
import { run as push } from '../../../src/commands/stock/push.js';
import { run as validate } from '../../../src/commands/stock/validate.js';
import { requestCounts, useSandbox } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import type { TestContext } from '../../support/test-context.js';

const fixture = useSandbox();

/** A stock file of `count` rows, the SKU repeated by warehouse; `quantity` gives each row's. */
function stockRows(count: number, quantity: (index: number) => string): string {
  const rows = Array.from({ length: count }, (_, index) => `PAR-SXT-M8X40-ZN;${quantity(index)};1,00;;W-${index}`);
  return `sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`;
}

/**
 * An export of 100,000 rows whose first one is refused (a negative quantity): its problem is the file's own, and
 * printing it is the moment the test rewrites the file, mid-read, with rows that are all refused.
 */
function exportWithOneBadRow(): string {
  const file = join(temporaryFolder('b2bctl-rewritten-'), 'estoque.csv');
  writeFileSync(
    file,
    stockRows(100_000, (index) => (index === 0 ? '-1' : String(index % 100))),
  );
  return file;
}

/** How the ERP rewrites its export: with other rows (all refused), or caught just after truncating it. */
const rewrites = {
  'with other rows': (file: string) =>
    writeFileSync(
      file,
      stockRows(100_001, () => 'x'),
    ),
  // The reader meets the end early: the line it had half read was a record only then, cut.
  'cut short': (file: string) => truncateSync(file, 0),
};
type Rewrite = keyof typeof rewrites;

/** Rewrites `file` once `stream` has carried the problem of its line 2. */
function rewriteOnceLineTwoIsShown(stream: NodeJS.WritableStream, file: string, how: Rewrite): void {
  let shown = '';
  const onData = (chunk: Buffer) => {
    shown += chunk.toString('utf8');
    if (!shown.includes(`${file}:2: `) && !/"line": ?2,/.test(shown)) return;
    (stream as unknown as Readable).off('data', onData);
    rewrites[how](file);
  };
  (stream as unknown as Readable).on('data', onData);
}

const lineTwo = (file: string) =>
  `${file}:2: Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more)`;

describe('a file rewritten while it is read', () => {
  it.each<[boolean, Rewrite]>([
    [false, 'with other rows'],
    [true, 'with other rows'],
    [false, 'cut short'],
    [true, 'cut short'],
  ])(
    'stock push (dry run %s), rewritten %s: its own problem, then the change alone; nothing of the rewrite, no count; exit 65',
    async (dryRun, how) => {
      const { sandbox, loggedInContext } = fixture();
      const test: TestContext = await loggedInContext();
      const file = exportWithOneBadRow();
      rewriteOnceLineTwoIsShown(test.context.io.stderr, file, how);
      const code = await test.run(push, { file, route: 'batch', strict: false, dryRun, skipInvalid: false });
      expect(test.stderr().split('\n')).toEqual([
        `stock push: validating ${file}`,
        lineTwo(file),
        `error: ${file} changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.`,
        '',
      ]);
      // Printed after that line by run-program, as the log's last: no count of what the pass had read.
      expect((test.error as B2bctlError).closingLine?.message).toBe(
        `stock push: ${file} to profile "default" (${sandbox.url}): nothing sent; exit 65`,
      );
      expect(code).toBe(ExitCode.dataInvalid);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it.each<[Rewrite]>([['with other rows'], ['cut short']])(
    'stock validate, rewritten %s: its own problem on stdout, then the change alone; no problem of the rewrite; exit 65',
    async (how) => {
      const { loggedInContext } = fixture();
      const test = await loggedInContext();
      const file = exportWithOneBadRow();
      rewriteOnceLineTwoIsShown(test.context.io.stdout, file, how);
      const code = await test.run(validate, { file, strict: false });
      expect(test.stdout().split('\n').filter(Boolean)).toEqual([
        JSON.stringify({
          file,
          line: 2,
          field: 'quantity',
          value: '-1',
          message:
            'Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more)',
        }),
      ]);
      expect(test.stderr().split('\n')).toEqual([
        `error: ${file} changed while it was being read (another program is writing or replacing it): what was checked is not the file as it now stands. Run again once the export is complete, or copy it first and validate the copy.`,
        '',
      ]);
      expect(code).toBe(ExitCode.dataInvalid);
    },
  );

  // The pass stops at the change: what it printed is still ended, one JSON array a script can parse.
  it("stock validate -o json, rewritten: stdout is one array of the file's own problem", async () => {
    const { loggedInContext } = fixture();
    const test = await loggedInContext({ globals: { output: 'json' } });
    const file = exportWithOneBadRow();
    rewriteOnceLineTwoIsShown(test.context.io.stdout, file, 'with other rows');
    expect(await test.run(validate, { file, strict: false })).toBe(ExitCode.dataInvalid);
    expect(JSON.parse(test.stdout())).toEqual([
      {
        file,
        line: 2,
        field: 'quantity',
        value: '-1',
        message:
          'Property [quantity] with value [-1] does not pass validation (quantity must be a whole number of 0 or more)',
      },
    ]);
    expect(test.stderr()).toMatch(/^error: .* changed while it was being read .*\n$/);
  });
});
