import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCommandInput } from '../../../src/bulk/command-input.js';
import { CompactDuplicateIndex, type DuplicateIndex } from '../../../src/bulk/duplicate-index.js';
import { RecordChecker, runValidationPass } from '../../../src/bulk/validation-pass.js';
import { customerCatalogue, newCustomerChecker } from '../../../src/commands/customer/customer-input.js';
import {
  checkStockRecord,
  newStockChecker,
  stockCatalogue,
  stockUniqueValues,
} from '../../../src/commands/stock/stock-input.js';
import { recordPlace } from '../../../src/io/input/open-input.js';
import type { FieldCatalogue } from '../../../src/io/input/record-shape.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

const folder = temporaryFolder('b2bctl-repeats-');
let files = 0;
function fileWith(text: string, extension = 'csv'): string {
  const path = join(folder, `input-${++files}.${extension}`);
  writeFileSync(path, text);
  return path;
}

/** `place message` per problem of a validation pass over `path`, as `stock validate` and `customer validate` run it. */
async function validate<T>(
  path: string,
  checker: RecordChecker<T>,
  options: { catalogue?: FieldCatalogue; stdin?: string } = {},
): Promise<string[]> {
  const { context } = testContext({ stdin: options.stdin });
  // A note column, read by no field, is left out as a user would.
  const input = await openCommandInput(
    context,
    path,
    { strict: false, ignoreColumns: ['note'] },
    options.catalogue ?? stockCatalogue,
  );
  const problems: string[] = [];
  await runValidationPass({
    batches: input.recordBatches(),
    checker,
    estimatedRecords: input.estimatedRecords,
    onProblem: (_line, problem, record) => {
      problems.push(`${recordPlace(record)} ${problem.message}`);
    },
  });
  return problems;
}

/** The "already …" (or "also …") part of each repeat's message, by the place of the repeat. */
const repeats = (problems: string[]) =>
  problems
    .map((problem) => /^(.*?) Property .*((?:already|also) .*) of this file\)$/.exec(problem))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}: ${match[2]}`);

describe('RecordChecker and its duplicate index', () => {
  it('names the line and row of the other record, below a hidden sep= line and a cell with a line break', async () => {
    const path = fileWith(
      'sep=;\nsku;quantity;note\nA-1;1;x\nA-2;2;"two\nlines"\nA-3;3;y\nA-1;4;z\nA-3;x;w\nA-2;5;v\n',
    );
    // Two lines for one SKU leave both out: the first's problem is known once the file is read.
    expect(repeats(await validate(path, newStockChecker()))).toEqual([
      '7 (row 5): also on line 3 (row 2)',
      '8 (row 6): also on line 6 (row 4)',
      '9 (row 7): also on line 4 (row 3)',
      '3 (row 2): also on line 7 (row 5)',
      '4 (row 3): also on line 9 (row 7)',
      '6 (row 4): also on line 8 (row 6)',
    ]);
  });

  it('names the element of a minified JSON array', async () => {
    const path = fileWith(
      '[{"sku":"A","quantity":1},{"sku":"B","quantity":1},{"sku":"C","quantity":1},{"sku":"B","quantity":2}]',
      'json',
    );
    expect(repeats(await validate(path, newStockChecker()))).toEqual([
      '1:77 (element 3): also in element 1',
      '1:1 (element 1): also in element 3',
    ]);
  });

  it('finds a document and an e-mail of one record, each at its own first record; the first record of the document is invalid too', async () => {
    // Every column a create needs is there (a file without one is refused at its header, before any record).
    const path = fileWith(
      'documentType;document;username;phone;password\ncpf;111;a@x.com;1;x\ncpf;222;b@x.com;1;x\ncpf;222;a@x.com;1;x\n',
    );
    const problems = await validate(path, newCustomerChecker('create'), { catalogue: customerCatalogue('create') });
    // Two rows for one customer leave both out: the first's problem is known once the file is read.
    expect(repeats(problems)).toEqual(['4: also on line 3', '4: already on line 2', '3: also on line 4']);
  });

  it('names every repeat of a document on its first record, in file order, below a cell with a line break', async () => {
    const path = fileWith(
      [
        'document;phone;note',
        '529.982.247-25;11987654321;"two\nlines"',
        '111.444.777-35;11987654321;',
        '529.982.247-25;11987654322;',
        '111.444.777-35;11987654321;',
        '529.982.247-25;11987654323;',
        '',
      ].join('\n'),
    );
    const problems = await validate(path, newCustomerChecker('update'), { catalogue: customerCatalogue('update') });
    expect(problems).toEqual([
      '5 (row 4) Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 2 of this file)',
      '6 (row 5) Property [document] with value [111.444.777-35] does not pass validation (the same document is also on line 4 (row 3) of this file)',
      '7 (row 6) Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 2 of this file)',
      '2 Property [document] with value [529.982.247-25] does not pass validation (the same document is also on line 5 (row 4) and on line 7 (row 6) of this file)',
      '4 (row 3) Property [document] with value [111.444.777-35] does not pass validation (the same document is also on line 6 (row 5) of this file)',
    ]);
  });

  it('finds repeats in stdin as in a file', async () => {
    const text = 'sku;quantity\nA-1;1\nA-2;2\nA-1;3\n';
    expect(repeats(await validate('-', newStockChecker(), { stdin: text }))).toEqual([
      '4: also on line 2',
      '2: also on line 4',
    ]);
  });

  it('asks its index with each unique value, its kind and its place, and reports what the index answers', async () => {
    const asked: string[] = [];
    const index: DuplicateIndex = {
      firstPlaceOf(label, value, place) {
        asked.push(`${label}=${value}@${place}`);
        return value === 'B' ? 2 : undefined;
      },
      placeOf(label, value) {
        asked.push(`${label}=${value}?`);
        return undefined;
      },
      expect(values) {
        asked.push(`expect ${values}`);
      },
    };
    const checker = new RecordChecker(checkStockRecord, stockUniqueValues, () => [], index);
    const path = fileWith('sku;quantity;warehouse\nA;1;\nB;1;W1\nB;2;\n');
    expect(repeats(await validate(path, checker))).toEqual(['4: also on line 2', '2: also on line 4']);
    // A file of four lines, all in its first 64 KB: the estimate is its line count, told before the first value.
    // A value new to the file and already in its loose form (case and leading zeros aside) is only looked up among
    // the loose forms of the others, which it does not join: a file of such values keeps no second index.
    expect(asked).toEqual([
      'expect 4',
      'SKU=A@2',
      'SKU, loose=A?',
      'SKU in this warehouse=B @ W1@3',
      'SKU in this warehouse, loose=B @ W1?',
      'SKU=B@4',
    ]);
  });

  it('looks a value not in its loose form up among the exact values, and notes its loose form', async () => {
    const asked: string[] = [];
    const index: DuplicateIndex = {
      firstPlaceOf(label, value, place) {
        asked.push(`${label}=${value}@${place}`);
        return undefined;
      },
      placeOf(label, value) {
        asked.push(`${label}=${value}?`);
        return undefined;
      },
      expect() {},
    };
    const checker = new RecordChecker(checkStockRecord, stockUniqueValues, () => [], index);
    await validate(fileWith('sku;quantity\n00a-1;1\n'), checker);
    expect(asked).toEqual(['SKU=00a-1@2', 'SKU=A-1?', 'SKU, loose=A-1@2']);
  });
});

describe('CompactDuplicateIndex', () => {
  it('answers the first place of a value, per kind of value', () => {
    const index = new CompactDuplicateIndex();
    expect(index.firstPlaceOf('document', '111', 2)).toBeUndefined();
    expect(index.firstPlaceOf('e-mail', '111', 3)).toBeUndefined();
    expect(index.firstPlaceOf('document', '111', 4)).toBe(2);
    expect(index.firstPlaceOf('document', '111', 5)).toBe(2);
    expect(index.firstPlaceOf('e-mail', '111', 6)).toBe(3);
  });

  it('answers the same after room was made for an estimate far too small or too large', () => {
    for (const estimate of [1, 3_000]) {
      const index = new CompactDuplicateIndex();
      index.expect(estimate);
      const firsts = Array.from({ length: 2_000 }, (_, n) => index.firstPlaceOf('SKU', `sku-${n % 1_000}`, n + 2));
      expect(firsts.slice(0, 1_000).every((first) => first === undefined)).toBe(true);
      expect(firsts.slice(1_000)).toEqual(Array.from({ length: 1_000 }, (_, n) => n + 2));
    }
  });
});
