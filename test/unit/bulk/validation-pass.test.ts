import { describe, expect, it } from 'vitest';
import { RecordChecker, runValidationPass } from '../../../src/bulk/validation-pass.js';
import type { InputRecord } from '../../../src/io/input/open-input.js';
import type { FieldProblem, RecordVerdict } from '../../../src/domain/validation.js';

interface Customer {
  document: string;
  username?: string;
}

function record(line: number, values: Record<string, unknown>, problems: string[] = []): InputRecord {
  return { line, values, original: [], problems };
}

/** A document is required; a document of "bad" breaks a platform rule. */
function checkCustomer(input: InputRecord): RecordVerdict<Customer> {
  const document = input.values.document;
  if (typeof document !== 'string')
    return {
      ok: false,
      problems: [
        { field: 'document', value: '', message: 'Property [document] with value [] does not pass validation' },
      ],
    };
  if (document === 'bad')
    return {
      ok: false,
      problems: [
        { field: 'document', value: 'bad', message: 'Property [document] with value [bad] does not pass validation' },
      ],
    };
  return { ok: true, value: { document, username: input.values.username as string | undefined } };
}

const newChecker = () =>
  new RecordChecker<Customer>(checkCustomer, (customer) => [
    { label: 'document', field: 'document', value: customer.document },
    { label: 'e-mail', field: 'username', value: customer.username },
  ]);

const duplicate = (field: string, value: string, label: string, firstLine: number): FieldProblem => ({
  field,
  value,
  message: `Property [${field}] with value [${value}] does not pass validation (the same ${label} is already on line ${firstLine} of this file)`,
});

/** Where a duplicate's message says the value was first seen: `on line 4 (row 3)`. */
const firstSeen = (verdict: RecordVerdict<Customer>) =>
  verdict.ok ? undefined : /already (on line .*) of this file/.exec(verdict.problems[0]?.message ?? '')?.[1];

describe('RecordChecker', () => {
  it('a repeated document names the line where it was first seen, every time', () => {
    const checker = newChecker();
    const verdicts = [
      checker.judge(record(2, { document: '111', username: 'a@x.com' })),
      checker.judge(record(3, { document: '222', username: 'b@x.com' })),
      checker.judge(record(5, { document: '111', username: 'c@x.com' })),
      checker.judge(record(9, { document: '111', username: 'd@x.com' })),
    ];
    expect(verdicts).toEqual([
      { ok: true, value: { document: '111', username: 'a@x.com' } },
      { ok: true, value: { document: '222', username: 'b@x.com' } },
      { ok: false, problems: [duplicate('document', '111', 'document', 2)] },
      { ok: false, problems: [duplicate('document', '111', 'document', 2)] },
    ]);
  });

  it('below a cell with a line break, a repeat names the line and the spreadsheet row where it was first seen', () => {
    const checker = newChecker();
    const below = (line: number, row: number, document: string): InputRecord => ({
      ...record(line, { document }),
      row,
    });
    // Line 2 holds a two-line cell, so rows fall one behind lines from line 4; another such cell at line 6.
    checker.judge(record(2, { document: '111' }));
    checker.judge(below(4, 3, '222'));
    checker.judge(below(5, 4, '333'));
    checker.judge(below(8, 6, '444'));
    const repeatOf = (document: string) => checker.judge(below(20, 18, document));
    expect([repeatOf('111'), repeatOf('222'), repeatOf('333'), repeatOf('444')].map(firstSeen)).toEqual([
      'on line 2',
      'on line 4 (row 3)',
      'on line 5 (row 4)',
      'on line 8 (row 6)',
    ]);
  });

  it('in minified JSON (every record on line 1) a repeat names the element where it was first seen', () => {
    const checker = newChecker();
    const element = (index: number, document: string): InputRecord => ({
      ...record(1, { document }),
      column: 2 + index * 40,
      element: index,
    });
    checker.judge(element(0, '111'));
    checker.judge(element(1, '222'));
    // A record on a line of its own below them, then one repeating it from line 1.
    checker.judge(record(2, { document: '333' }));
    expect([checker.judge(element(2, '222')), checker.judge(element(3, '333'))]).toEqual([
      {
        ok: false,
        problems: [
          {
            ...duplicate('document', '222', 'document', 1),
            message:
              'Property [document] with value [222] does not pass validation (the same document is already in element 1 of this file)',
          },
        ],
      },
      { ok: false, problems: [duplicate('document', '333', 'document', 2)] },
    ]);
  });

  it('a record repeating both the document and the e-mail gets both problems, each naming its own first line', () => {
    const checker = newChecker();
    checker.judge(record(2, { document: '111', username: 'a@x.com' }));
    checker.judge(record(3, { document: '222', username: 'b@x.com' }));
    expect(checker.judge(record(4, { document: '222', username: 'a@x.com' }))).toEqual({
      ok: false,
      problems: [duplicate('document', '222', 'document', 3), duplicate('username', 'a@x.com', 'e-mail', 2)],
    });
  });

  it('the same text under two labels is no repeat', () => {
    const checker = newChecker();
    expect(checker.judge(record(2, { document: 'same', username: 'same' })).ok).toBe(true);
    expect(checker.judge(record(3, { document: 'other', username: 'other2' })).ok).toBe(true);
  });

  it('an absent unique value is not compared', () => {
    const checker = newChecker();
    expect(checker.judge(record(2, { document: '1' })).ok).toBe(true);
    expect(checker.judge(record(3, { document: '2' })).ok).toBe(true);
  });

  it('a record that breaks a rule claims no value: a later valid record with it is not a repeat', () => {
    const checker = newChecker();
    expect(checker.judge(record(2, { document: 'bad' })).ok).toBe(false);
    expect(checker.judge(record(4, { document: 'bad' }, []))).toEqual({
      ok: false,
      problems: [
        { field: 'document', value: 'bad', message: 'Property [document] with value [bad] does not pass validation' },
      ],
    });
    expect(checker.judge(record(5, { username: 'a@x.com' })).ok).toBe(false);
    expect(checker.judge(record(6, { document: '9', username: 'a@x.com' }))).toEqual({
      ok: true,
      value: { document: '9', username: 'a@x.com' },
    });
  });

  it('a record with only shape problems still claims its values: a later record with them is a repeat', () => {
    const checker = newChecker();
    expect(checker.judge(record(3, { document: '7' }, ['too many cells'])).ok).toBe(false);
    expect(checker.judge(record(4, { document: '7' }))).toEqual({
      ok: false,
      problems: [duplicate('document', '7', 'document', 3)],
    });
  });

  it.each<[string, InputRecord, FieldProblem[]]>([
    [
      'shape problems alone',
      record(2, { document: '1' }, ['too many cells']),
      [{ field: '', value: '', message: 'too many cells' }],
    ],
    [
      'shape problems come before the rule problems',
      record(2, { document: 'bad' }, ['too many cells']),
      [
        { field: '', value: '', message: 'too many cells' },
        { field: 'document', value: 'bad', message: 'Property [document] with value [bad] does not pass validation' },
      ],
    ],
  ])('%s', (_name, input, problems) => {
    expect(newChecker().judge(input)).toEqual({ ok: false, problems });
  });

  it('a fresh checker judges a file the same way again (the sending pass relies on it)', () => {
    const records = [
      record(2, { document: '1' }),
      record(3, { document: '1' }),
      record(4, { document: 'bad' }),
      record(5, { document: '2' }),
    ];
    const first = newChecker();
    const second = newChecker();
    expect(records.map((input) => second.judge(input))).toEqual(records.map((input) => first.judge(input)));
  });
});

/** The records as a reader of them hands them out: in batches (of two, so a batch boundary falls inside). */
async function* batchesOf(records: InputRecord[]): AsyncGenerator<InputRecord[]> {
  for (let index = 0; index < records.length; index += 2) yield records.slice(index, index + 2);
}

describe('runValidationPass', () => {
  const records = [
    record(2, { document: '1', username: 'a@x.com' }),
    record(3, {}),
    record(4, { document: '1', username: 'a@x.com' }),
    record(6, { document: '2' }, ['too many cells']),
    record(7, { document: '3' }),
    record(70_000, { document: 'bad' }, ['too many cells']),
  ];

  it('counts records, valid, invalid and problems, reports each problem with its line, and keeps the invalid lines', async () => {
    const reported: [number, string][] = [];
    const summary = await runValidationPass({
      batches: batchesOf(records),
      checker: newChecker(),
      onProblem: async (line, problem) => {
        await Promise.resolve();
        reported.push([line, problem.message]);
      },
    });
    expect({
      records: summary.records,
      valid: summary.valid,
      invalid: summary.invalid,
      problems: summary.problems,
    }).toEqual({ records: 6, valid: 2, invalid: 4, problems: 6 });
    expect(reported).toEqual([
      [3, 'Property [document] with value [] does not pass validation'],
      [
        4,
        'Property [document] with value [1] does not pass validation (the same document is already on line 2 of this file)',
      ],
      [
        4,
        'Property [username] with value [a@x.com] does not pass validation (the same e-mail is already on line 2 of this file)',
      ],
      [6, 'too many cells'],
      [70_000, 'too many cells'],
      [70_000, 'Property [document] with value [bad] does not pass validation'],
    ]);
    expect(summary.invalidLines.count).toBe(4);
    for (const line of [3, 4, 6, 70_000]) expect(summary.invalidLines.has(line)).toBe(true);
    for (const line of [1, 2, 5, 7, 69_999]) expect(summary.invalidLines.has(line)).toBe(false);
  });

  it('an empty input is all zeros', async () => {
    const summary = await runValidationPass({ batches: batchesOf([]), checker: newChecker(), onProblem: () => {} });
    expect({
      records: summary.records,
      valid: summary.valid,
      invalid: summary.invalid,
      problems: summary.problems,
      lines: summary.invalidLines.count,
    }).toEqual({ records: 0, valid: 0, invalid: 0, problems: 0, lines: 0 });
  });

  it('stops at an abort', async () => {
    const controller = new AbortController();
    const summary = await runValidationPass({
      batches: batchesOf(records),
      checker: newChecker(),
      signal: controller.signal,
      onProblem: () => controller.abort(),
    });
    expect(summary.records).toBe(2);
    expect(summary.invalid).toBe(1);
  });

  it('reads no record when aborted before it starts, and leaves no listener on the signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const summary = await runValidationPass({
      batches: batchesOf(records),
      checker: newChecker(),
      signal: controller.signal,
      onProblem: () => {},
    });
    expect(summary.records).toBe(0);
    const running = new AbortController();
    let listeners = 0;
    const add = running.signal.addEventListener.bind(running.signal);
    const remove = running.signal.removeEventListener.bind(running.signal);
    running.signal.addEventListener = (...args: Parameters<typeof add>) => (listeners++, add(...args));
    running.signal.removeEventListener = (...args: Parameters<typeof remove>) => (listeners--, remove(...args));
    await runValidationPass({
      batches: batchesOf(records),
      checker: newChecker(),
      signal: running.signal,
      onProblem: () => {},
    });
    expect(listeners).toBe(0);
  });
});
