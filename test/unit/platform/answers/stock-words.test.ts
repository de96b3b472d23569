/**
 * Every word, field and place the stock answers are recognised by, one row each: a word dropped from a list, or a
 * place no longer looked at, fails its row (mutation testing showed a list can lose an entry unseen).
 */
import { describe, expect, it } from 'vitest';
// The places are written out here, not taken from the module's lists: a place dropped from a list must fail a row.
import { readBatchAnswer, readQueueAnswer } from '../../../../src/platform/answers/stock.js';

const skus = ['SKU-1', 'SKU-2'];

describe('readBatchAnswer, word by word', () => {
  it.each(['ok', 'applied', 'success', 'succeeded', 'successful', 'updated', 'done', 'true', '200', ' OK '])(
    '"%s" is applied',
    (word) => {
      expect(readBatchAnswer([{ status: word }, { status: 'error' }], skus)).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected' },
      ]);
    },
  );

  it.each(['error', 'rejected', 'failed', 'failure', 'invalid', 'false', 'not_found', '422', '400', 'REJECTED'])(
    '"%s" is rejected',
    (word) => {
      expect(readBatchAnswer([{ status: 'ok' }, { status: word }], skus)).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected' },
      ]);
    },
  );

  it.each([200, 201, 207, 299, '204', ' 200 '])('the per-item HTTP code %j is applied', (code) => {
    expect(readBatchAnswer([{ status: code }, { status: 'error' }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected' },
    ]);
  });

  it.each([400, 404, 409, 422, 500, 599, '404'])('the per-item HTTP code %j is rejected, with its message', (code) => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: code, message: 'sku not found' }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected', message: 'sku not found' },
    ]);
  });

  it.each(['400 Bad Request', '404: not found', '500 Internal Server Error'])(
    'the status line %j is read by its leading code: rejected, with its message',
    (line) => {
      expect(readBatchAnswer([{ status: 'ok' }, { status: line, message: 'm' }], skus)).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected', message: 'm' },
      ]);
    },
  );

  it.each(['200 OK', '201 Created'])('the status line %j is applied', (line) => {
    expect(readBatchAnswer([{ status: line }, { status: 'error' }], skus)?.[0]).toEqual({ verdict: 'applied' });
  });

  it.each(['2000 items', '404abc', '4040'])('%j is no status line: neither', (word) => {
    expect(readBatchAnswer([{ status: word }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: word,
    });
  });

  it.each([{ code: 404 }, { code: '422' }, { status: 'REJECTED', code: 7 }, { status: '400 Bad Request' }])(
    'a status object %j says it in its status or code',
    (status) => {
      expect(readBatchAnswer([{ status, message: 'm' }, { status: 'ok' }], skus)?.[0]).toEqual({
        verdict: 'rejected',
        message: 'm',
      });
    },
  );

  it('a status object that says nothing b2bctl recognises is quoted as its JSON, never [object Object]', () => {
    expect(readBatchAnswer([{ status: { code: 'PENDING', at: 3 } }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: '{"code":"PENDING","at":3}',
    });
    expect(readBatchAnswer([{ status: ['x'] }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: '["x"]',
    });
  });

  it.each([100, 199, 302, 600, 2000, '20'])('the per-item code %j is neither', (code) => {
    expect(readBatchAnswer([{ status: code }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: String(code),
    });
  });

  it.each(['status', 'result', 'outcome', 'state', 'success', 'applied', 'ok', 'valid'])(
    'the field "%s" holds the verdict',
    (field) => {
      expect(readBatchAnswer([{ [field]: 'applied' }, { [field]: false }], skus)).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected' },
      ]);
    },
  );

  it('an "error" field: text is a rejection with that message, false an applied item, true a rejected one', () => {
    expect(readBatchAnswer([{ error: 'no such SKU' }, { error: false }], skus)).toEqual([
      { verdict: 'rejected', message: 'no such SKU' },
      { verdict: 'applied' },
    ]);
    expect(readBatchAnswer([{ error: true }, { error: null, status: 'ok' }], skus)).toEqual([
      { verdict: 'rejected' },
      { verdict: 'applied' },
    ]);
  });

  it.each(['message', 'reason', 'error', 'errorMessage', 'detail', 'description'])(
    'the field "%s" holds the message',
    (field) => {
      const verdicts = readBatchAnswer([{ status: 'rejected', [field]: 'stock locked' }, { status: 'ok' }], skus);
      expect(verdicts?.[0]).toEqual({ verdict: 'rejected', message: 'stock locked' });
    },
  );

  it('a blank message is no message; the first non-blank one is', () => {
    expect(readBatchAnswer([{ status: 'rejected', message: '  ', reason: 'why' }, true], skus)?.[0]).toEqual({
      verdict: 'rejected',
      message: 'why',
    });
  });

  it.each(['results', 'items', 'data', 'result', 'data.results', 'data.items'])('results under "%s"', (path) => {
    const body: Record<string, unknown> = {};
    let place = body;
    const parts = path.split('.');
    for (const part of parts.slice(0, -1)) place = (place[part] = {}) as Record<string, unknown>;
    place[parts.at(-1) as string] = [{ status: 'ok' }, { status: 'failed' }];
    expect(readBatchAnswer(body, skus)).toEqual([{ verdict: 'applied' }, { verdict: 'rejected' }]);
  });

  it.each(['sku', 'SKU', 'code', 'productCode'])('results matched by their "%s" field, in any order', (field) => {
    expect(
      readBatchAnswer([{ [field]: 'SKU-2', status: 'failed' }, { [field]: 'SKU-1', status: 'ok' }, {}], skus),
    ).toEqual([{ verdict: 'applied' }, { verdict: 'rejected' }]);
  });

  it('a numeric SKU matches its text; an index that contradicts the SKU beside it is not followed, the SKU is', () => {
    expect(readBatchAnswer([{ sku: 2, status: 'failed' }, { sku: 1, status: 'ok' }, {}], ['1', '2'])).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected' },
    ]);
    const notes: unknown[] = [];
    expect(
      readBatchAnswer(
        [
          { index: 1, sku: 'SKU-1', status: 'failed' },
          { index: 0, sku: 'SKU-2', status: 'ok' },
        ],
        skus,
        {},
        (note) => notes.push(note),
      ),
    ).toEqual([{ verdict: 'rejected' }, { verdict: 'applied' }]);
    expect(notes).toEqual([{ kind: 'untrustedIndex', index: 1, sku: 'SKU-1', batchSize: 2, itemSku: 'SKU-2' }]);
  });

  it('an index that agrees with the SKU beside it tells apart a SKU sent twice (two warehouses)', () => {
    const answer = [
      { index: 1, sku: 'SKU-1', status: 'failed' },
      { index: 0, sku: 'SKU-1', status: 'ok' },
    ];
    expect(readBatchAnswer(answer, ['SKU-1', 'SKU-1'])).toEqual([{ verdict: 'applied' }, { verdict: 'rejected' }]);
  });

  it('fewer results than items, none matched by SKU or index: no verdict for the unmatched', () => {
    expect(readBatchAnswer([{ sku: 'SKU-2', status: 'ok' }], skus)).toEqual([undefined, { verdict: 'applied' }]);
    expect(readBatchAnswer([{ status: 'ok' }], skus)).toBeUndefined();
  });

  it('an object keyed by SKU, or by index; plain words and booleans as results', () => {
    expect(readBatchAnswer({ 'SKU-1': 'ok', 'SKU-2': false }, skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected' },
    ]);
    expect(readBatchAnswer({ 0: true, 1: 'failed' }, skus)).toEqual([{ verdict: 'applied' }, { verdict: 'rejected' }]);
  });

  it('nothing that reads as per-item results: no verdicts (the caller reports the items accepted)', () => {
    for (const body of [[], {}, { count: 2 }, { results: [] }, { 'SKU-1': 1, 'SKU-2': 2 }, [1, 2], null, 'ok'])
      expect(readBatchAnswer(body, skus)).toBeUndefined();
  });

  it('a status field set to one the results do not have: no verdict from the others', () => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: 'ok' }], skus, { status: 'outcome' })).toBeUndefined();
  });
});

describe('readQueueAnswer, place by place', () => {
  it.each([
    'batchId',
    'id',
    'jobId',
    'queueId',
    'requestId',
    'protocol',
    'uuid',
    'ticket',
    'data.batchId',
    'data.id',
    'data.jobId',
  ])('the id under "%s"', (path) => {
    const [first, second] = path.split('.');
    const body = second === undefined ? { [first as string]: 'B-42' } : { [first as string]: { [second]: 'B-42' } };
    expect(readQueueAnswer(body)).toBe('B-42');
  });

  it('a number is an id too; nothing id-like is none', () => {
    expect(readQueueAnswer({ id: 42 })).toBe('42');
    expect(readQueueAnswer({ accepted: true })).toBeUndefined();
  });
});

describe('readBatchAnswer, survivors of the mutation run', () => {
  it('a null field is no verdict: the next field gives it', () => {
    expect(readBatchAnswer([{ status: null, result: 'ok' }, { status: 'failed' }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected' },
    ]);
  });

  it('a result that is no object (null) is skipped when matching by SKU, not read', () => {
    expect(readBatchAnswer([null, { status: 'ok' }], skus)).toEqual([undefined, { verdict: 'applied' }]);
  });

  it('an object keyed by SKU must hold only results: one count among them and it is no item list', () => {
    expect(readBatchAnswer({ 'SKU-1': 'ok', 'SKU-2': 5 }, skus)).toBeUndefined();
  });

  it('a result without a SKU is matched to no item, not to one whose SKU is spelled "undefined"', () => {
    const answer = [{ sku: 'A', status: 'ok' }, { status: 'failed' }];
    // Refused but matched to no item: either item no result names may be the refused one.
    const unknown = {
      verdict: 'unknown',
      message:
        'the answer refused an item b2bctl cannot match to the items sent, which may be this one: {"status":"failed"}',
    };
    expect(readBatchAnswer(answer, ['undefined', 'A', 'B'])).toEqual([unknown, { verdict: 'applied' }, unknown]);
  });
});
