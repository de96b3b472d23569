import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCommandInput } from '../../../src/bulk/command-input.js';
import { type RecordChecker, runValidationPass } from '../../../src/bulk/validation-pass.js';
import { customerCatalogue, newCustomerChecker } from '../../../src/commands/customer/customer-input.js';
import { newStockChecker, stockCatalogue } from '../../../src/commands/stock/stock-input.js';
import { recordPlace } from '../../../src/io/input/open-input.js';
import type { FieldCatalogue } from '../../../src/io/input/record-shape.js';
import { cyrb53 } from '../../../src/lib/compact-key-set.js';
import { seededRandom } from '../../support/seeded-text.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

const folder = temporaryFolder('b2bctl-rereads-');
let files = 0;
function fileWith(text: string, extension = 'csv'): string {
  const path = join(folder, `input-${++files}.${extension}`);
  writeFileSync(path, text);
  return path;
}

/** Every hash the same: every value after the first is a false match until the file is read again. */
const everyKeyCollides = () => 7;

interface Pass {
  /** `place message` per problem, in the order they were reported. */
  problems: string[];
  /** Whether the input could be opened again (a file, not stdin). */
  reopens: boolean;
}

/** A validation pass over `path` as `customer validate` and `stock validate` run it (`reread: false`: as stdin is). */
async function validate<T>(
  path: string,
  checker: RecordChecker<T>,
  options: { catalogue?: FieldCatalogue; reread?: boolean; stdin?: string } = {},
): Promise<Pass> {
  const { context } = testContext({ stdin: options.stdin });
  const input = await openCommandInput(context, path, { strict: false }, options.catalogue ?? stockCatalogue);
  const reopens = input.reopen !== undefined;
  if (options.reread === false) delete input.reopen;
  const problems: string[] = [];
  await runValidationPass({
    input,
    checker,
    onProblem: (_line, problem, record) => {
      problems.push(`${recordPlace(record)} ${problem.message}`);
    },
  });
  return { problems, reopens };
}

/** The "already …" part of each repeat's message, by the place of the repeat. */
const repeats = (pass: Pass) =>
  pass.problems
    .map((problem) => /^(.*?) Property .*(already .*) of this file\)$/.exec(problem))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}: ${match[2]}`);

describe('RecordChecker reading its file again for a repeated fingerprint', () => {
  it('names the line and row of the first record, below a hidden sep= line and a cell with a line break', async () => {
    const path = fileWith(
      'sep=;\nsku;quantity;note\nA-1;1;x\nA-2;2;"two\nlines"\nA-3;3;y\nA-1;4;z\nA-3;x;w\nA-2;5;v\n',
    );
    const checker = newStockChecker({ rereadsBeforeExactIndex: Infinity, rereadShareBeforeExactIndex: Infinity });
    const pass = await validate(path, checker);
    expect(pass.reopens).toBe(true);
    expect(repeats(pass)).toEqual([
      '7 (row 5): already on line 3 (row 2)',
      '8 (row 6): already on line 6 (row 4)',
      '9 (row 7): already on line 4 (row 3)',
    ]);
    // One re-read per repeat, and the same messages, in the same order, as the exact index gives.
    expect(checker.rereads).toBe(3);
    expect(pass.problems).toEqual((await validate(path, newStockChecker(), { reread: false })).problems);
  });

  it('names the element of a minified JSON array', async () => {
    const path = fileWith(
      '[{"sku":"A","quantity":1},{"sku":"B","quantity":1},{"sku":"C","quantity":1},{"sku":"B","quantity":2}]',
      'json',
    );
    const checker = newStockChecker();
    const pass = await validate(path, checker);
    expect(repeats(pass)).toEqual(['1:77 (element 3): already in element 1']);
    expect(checker.rereads).toBe(1);
  });

  it('finds a document and an e-mail of one record, each at its own first record, in one re-read', async () => {
    const path = fileWith('document;username\n111;a@x.com\n222;b@x.com\n222;a@x.com\n');
    const checker = newCustomerChecker('create');
    const pass = await validate(path, checker, { catalogue: customerCatalogue('create') });
    expect(repeats(pass)).toEqual(['4: already on line 3', '4: already on line 2']);
    expect(checker.rereads).toBe(1);
  });

  it('reports no repeat for a false fingerprint match: the file has no earlier record with the value', async () => {
    const path = fileWith('sku;quantity\nA-1;1\nA-2;2\nA-3;3\nA-1;4\n');
    const checker = newStockChecker({
      keyHash: everyKeyCollides,
      rereadsBeforeExactIndex: Infinity,
      rereadShareBeforeExactIndex: Infinity,
    });
    const pass = await validate(path, checker);
    expect(pass.problems).toEqual([
      '5 Property [sku] with value [A-1] does not pass validation (the same SKU is already on line 2 of this file)',
    ]);
    // A-2, A-3 and A-1 all matched A-1's fingerprint; only the file could tell.
    expect(checker.rereads).toBe(3);
  });

  it('builds the exact index after three re-reads instead of reading the file once per repeat', async () => {
    const distinct = Array.from({ length: 18 }, (_, index) => `D-${index};1`);
    const rows = ['B-1;1', 'A-1;0', ...distinct, ...Array.from({ length: 8 }, () => 'A-1;1'), 'C-1;1', 'B-1;2'];
    const path = fileWith(`sku;quantity\n${rows.join('\n')}\n`);
    const checker = newStockChecker();
    const pass = await validate(path, checker);
    expect(repeats(pass)).toEqual([
      ...Array.from({ length: 8 }, (_, index) => `${index + 22}: already on line 3`),
      '31: already on line 2',
    ]);
    // Three re-reads of two records for the first three repeats, one that built the exact index, none after.
    expect(checker.rereads).toBe(4);
  });

  it('builds the exact index once a re-read has read half the records judged', async () => {
    const rows = Array.from({ length: 20 }, (_, index) => `X-${index};1`);
    const path = fileWith(`sku;quantity\n${[...rows, 'X-18;2', 'X-19;2', 'X-0;2'].join('\n')}\n`);
    const checker = newStockChecker();
    const pass = await validate(path, checker);
    expect(repeats(pass)).toEqual(['22: already on line 20', '23: already on line 21', '24: already on line 2']);
    // The first re-read read 19 of 20 records to find X-18: the second repeat builds the exact index instead.
    expect(checker.rereads).toBe(2);
  });

  it('builds the exact index once re-reads have read half the records judged in all', async () => {
    const rows = Array.from({ length: 10 }, (_, index) => `X-${index};1`);
    const path = fileWith(`sku;quantity\n${[...rows, 'X-3;2', 'X-3;3', 'X-3;4', 'X-3;5'].join('\n')}\n`);
    const checker = newStockChecker();
    const pass = await validate(path, checker);
    expect(repeats(pass)).toEqual(Array.from({ length: 4 }, (_, index) => `${index + 12}: already on line 5`));
    // Two re-reads of 4 records each (of 10 and 11 judged), then 8 read of 12 judged: the third builds it.
    expect(checker.rereads).toBe(3);
  });

  it('Ctrl-C during a re-read ends the pass there: the record is not judged, nothing more is read', async () => {
    const rows = Array.from({ length: 5000 }, (_, index) => `S-${index};1`);
    const path = fileWith(`sku;quantity\n${rows.join('\n')}\nS-1;2\nS-2;2\n`);
    const checker = newStockChecker();
    const { context } = testContext();
    const input = await openCommandInput(context, path, { strict: false }, stockCatalogue);
    const controller = new AbortController();
    const reopen = input.reopen as NonNullable<typeof input.reopen>;
    // Ctrl-C comes as the file is opened again for the first repeat.
    input.reopen = async () => {
      controller.abort();
      return reopen();
    };
    const problems: string[] = [];
    const summary = await runValidationPass({
      input,
      checker,
      signal: controller.signal,
      onProblem: (_line, problem) => void problems.push(problem.message),
    });
    expect(checker.rereads).toBe(1);
    expect(summary).toMatchObject({ records: 5000, valid: 5000, invalid: 0, interrupted: true });
    expect(problems).toEqual([]);
  });

  it('keeps the exact index for stdin, which cannot be read again', async () => {
    const text = 'sku;quantity\nA-1;1\nA-2;2\nA-1;3\n';
    const checker = newStockChecker({ keyHash: everyKeyCollides });
    const pass = await validate('-', checker, { stdin: text });
    expect(pass.reopens).toBe(false);
    // The colliding hash is the fingerprints' only: the exact index reports the one real repeat, with no re-read.
    expect(repeats(pass)).toEqual(['4: already on line 2']);
    expect(checker.rereads).toBe(0);
  });

  it('does not read a device again', async () => {
    const { context } = testContext();
    expect((await openCommandInput(context, '/dev/null', { strict: false }, stockCatalogue)).reopen).toBeUndefined();
  });
});

/** A stock file with repeats, invalid rows, warehouses, multi-line cells and sometimes a sep= line. */
function stockFile(seed: number): string {
  const random = seededRandom(seed);
  const skus = 2 + Math.floor(random() * 40);
  const lines = [random() < 0.3 ? 'sep=;\n' : '', 'sku;quantity;warehouse;note\n'];
  const rows = 20 + Math.floor(random() * 100);
  for (let row = 0; row < rows; row++) {
    const code = `S-${Math.floor(random() * skus)}`;
    // Spaces around a code are read off, by the rules and by the re-read alike.
    const sku = random() < 0.05 ? '' : random() < 0.2 ? ` ${code} ` : code;
    const quantity = random() < 0.1 ? 'x' : String(Math.floor(random() * 9));
    const warehouse = random() < 0.3 ? `W${Math.floor(random() * 2)}` : '';
    const note = random() < 0.05 ? '"a\nb"' : 'n';
    lines.push(`${sku};${quantity};${warehouse};${note}\n`);
  }
  return lines.join('');
}

/** Valid customers as scripts/generate-customers.mjs writes them: its header, then one line per customer. */
const [customerHeader, ...customerRows] = execFileSync(
  process.execPath,
  [fileURLToPath(new URL('../../../scripts/generate-customers.mjs', import.meta.url)), '40'],
  { encoding: 'utf8' },
)
  .trimEnd()
  .split('\n');

/**
 * A customer file: customers drawn from a small pool, so documents and e-mails repeat, often in one record;
 * most are valid, their keys written as people do (punctuated or not, spaces, capitals): a re-read takes a valid
 * record's keys from its raw values, which must read them as the rules do. Some lose their document or e-mail.
 */
function customerFile(seed: number): string {
  const random = seededRandom(seed);
  const pool = 2 + Math.floor(random() * 30);
  const lines = [`${customerHeader}\n`];
  const rows = 20 + Math.floor(random() * 80);
  for (let row = 0; row < rows; row++) {
    let line = customerRows[Math.floor(random() * pool)] as string;
    const cells = line.split(',');
    const [document, username] = [cells[1] as string, cells[5] as string];
    const style = random();
    if (style < 0.2) line = line.replace(document, document.replace(/\D/g, ''));
    else if (style < 0.3) line = line.replace(document, ` ${document} `);
    else if (style < 0.35) line = line.replace(document, '');
    if (random() < 0.3) line = line.replace(username, ` ${username.toUpperCase()}`);
    else if (random() < 0.05) line = line.replace(username, 'not-an-email');
    lines.push(`${line}\n`);
  }
  return lines.join('');
}

describe('RecordChecker with fingerprints against the exact index', () => {
  const variants = [
    { name: 'fingerprints', options: {} },
    { name: 'fingerprints, re-reads under the full rules', options: { rawValuesSuffice: false } },
    { name: 'the exact index from the first repeat', options: { rereadsBeforeExactIndex: 0 } },
    {
      name: 'fingerprints only, never the exact index',
      options: { rereadsBeforeExactIndex: Infinity, rereadShareBeforeExactIndex: Infinity },
    },
    {
      name: 'a hash of 5 values (false matches everywhere)',
      options: {
        keyHash: (key: string) => cyrb53(key) % 5,
        rereadsBeforeExactIndex: Infinity,
        rereadShareBeforeExactIndex: Infinity,
      },
    },
  ];

  it.each(variants)('stock files: $name give the exact index’s problems, in order', async ({ options }) => {
    for (let seed = 1; seed <= 8; seed++) {
      const path = fileWith(stockFile(seed));
      const exact = await validate(path, newStockChecker(), { reread: false });
      const checker = newStockChecker(options);
      expect((await validate(path, checker)).problems, `seed ${seed}`).toEqual(exact.problems);
      expect(
        exact.problems.some((problem) => problem.includes('already')),
        `seed ${seed}`,
      ).toBe(true);
    }
  });

  it.each(variants)('customer files: $name give the exact index’s problems, in order', async ({ options }) => {
    const catalogue = customerCatalogue('create');
    for (let seed = 1; seed <= 6; seed++) {
      const path = fileWith(customerFile(seed));
      const exact = await validate(path, newCustomerChecker('create'), {
        catalogue,
        reread: false,
      });
      const checker = newCustomerChecker('create', options);
      expect((await validate(path, checker, { catalogue })).problems, `seed ${seed}`).toEqual(exact.problems);
      // Repeats of valid records: no problem but the repeat on their line.
      const places = (kind: boolean) =>
        new Set(
          exact.problems
            .filter((problem) => problem.includes('already') === kind)
            .map((problem) => problem.split(' ')[0]),
        );
      const invalid = places(false);
      expect(
        [...places(true)].some((place) => !invalid.has(place)),
        `seed ${seed}`,
      ).toBe(true);
    }
  });
});
