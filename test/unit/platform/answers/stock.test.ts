import { describe, expect, it } from 'vitest';
import {
  type MatchNote,
  readBatchAnswer,
  readQueueAnswer,
  readQueueRefusal,
} from '../../../../src/platform/answers/stock.js';

const skus = ['A-1', 'B-2', 'C-3'];

describe('readBatchAnswer: the per-item shapes a platform may answer the batch route with', () => {
  it.each([
    [
      'results with index and status words',
      {
        results: [
          { index: 2, sku: 'C-3', status: 'APPLIED', message: null },
          { index: 0, sku: 'A-1', status: 'APPLIED', message: null },
          { index: 1, sku: 'B-2', status: 'REJECTED', message: 'Unknown SKU [B-2]' },
        ],
      },
    ],
    [
      'a bare array with booleans and no index, matched by SKU',
      [
        { sku: 'B-2', success: false, errorMessage: 'Unknown SKU [B-2]' },
        { sku: 'A-1', success: true },
        { sku: 'C-3', success: true },
      ],
    ],
    [
      'items keyed by SKU with OK/ERROR',
      { items: { 'A-1': 'OK', 'B-2': { status: 'ERROR', reason: 'Unknown SKU [B-2]' }, 'C-3': 'ok' } },
    ],
    [
      'data keyed by index with booleans',
      { data: { 0: true, 1: { success: false, message: 'Unknown SKU [B-2]' }, 2: true } },
    ],
    [
      // The store's own name for the SKU (its --schema's), results in another order: matched by place, the refused
      // item was reported applied and an applied one rejected (a fresh user test).
      "results naming the SKU under a field of the store's own, in another order",
      {
        results: [
          { codigo: 'B-2', status: 'REJECTED', message: 'Unknown SKU [B-2]' },
          { codigo: 'C-3', status: 'APPLIED', message: '' },
          { codigo: 'A-1', status: 'APPLIED', message: '' },
        ],
      },
    ],
    [
      'results naming the SKU under another field of their own, out of order',
      [
        { referencia: 'C-3', ok: true },
        { referencia: 'A-1', ok: true },
        { referencia: 'B-2', ok: false, message: 'Unknown SKU [B-2]' },
      ],
    ],
    [
      'a bare array in order with SUCCESS/REJECTED words',
      [{ result: 'SUCCESS' }, { result: 'REJECTED', error: 'Unknown SKU [B-2]' }, { result: 'success' }],
    ],
  ])('%s', (_name, body) => {
    const verdicts = readBatchAnswer(body, skus);
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['applied', 'rejected', 'applied']);
    expect(verdicts?.[1]).toMatchObject({ message: 'Unknown SKU [B-2]' });
  });

  it.each([
    ['an empty body', undefined],
    ['an acknowledgement without items', { accepted: true, count: 3 }],
    ['an empty object', {}],
    ['plain text', 'OK'],
  ])('%s: nothing itemised, so undefined (the caller reports the items accepted)', (_name, body) => {
    expect(readBatchAnswer(body, skus)).toBeUndefined();
  });

  it.each([
    ['the answer itself', [], 'the answer, an empty list'],
    ['"results"', { results: [] }, 'the answer\'s "results", an empty list'],
    ['"data.items"', { data: { items: [] } }, 'the answer\'s "data.items", an empty list'],
  ])('an empty results list (%s) names none of the items: each unknown, noted once', (_name, body, list) => {
    const notes: MatchNote[] = [];
    const message = `the results list (${list}) names none of the items sent: the platform may have applied none`;
    expect(readBatchAnswer(body, skus, {}, (note) => notes.push(note))).toEqual(
      skus.map(() => ({ verdict: 'unknown', message })),
    );
    expect(notes).toEqual([{ kind: 'noneListed', list, batchSize: 3 }]);
  });

  it('an empty results list beside a count covering the batch: the count says nothing against any, undefined', () => {
    expect(readBatchAnswer({ results: [], processados: 3 }, skus)).toBeUndefined();
  });

  it('an empty results list where answers.stockBatch.results points: unknown; elsewhere it is no results list', () => {
    expect(readBatchAnswer({ payload: [] }, skus, { results: 'payload' })?.[0]?.verdict).toBe('unknown');
    expect(readBatchAnswer({ payload: [] }, skus)).toBeUndefined();
  });

  it('an empty results list on the queue route says nothing: the items stay queued', () => {
    expect(readQueueRefusal({ batchId: 'b1', results: [] }, skus)).toBeUndefined();
  });

  it('two fields that could each name the SKU (numeric SKUs, quantities among them) tell nothing: the place decides', () => {
    const numeric = ['1', '2', '3'];
    const results = [
      { codigo: 1, quantidade: 3, status: 'OK' },
      { codigo: 2, quantidade: 1, status: 'ERROR', message: 'inativo' },
      { codigo: 3, quantidade: 2, status: 'OK' },
    ];
    expect(readBatchAnswer(results, numeric)?.map((verdict) => verdict?.verdict)).toEqual([
      'applied',
      'rejected',
      'applied',
    ]);
  });

  it('a status word it does not know is neither applied nor rejected', () => {
    expect(
      readBatchAnswer({ results: [{ status: 'PENDING' }, { status: 'OK' }, { status: 'OK' }] }, skus)?.[0],
    ).toEqual({
      verdict: 'unsettled',
      status: 'PENDING',
    });
  });

  it('the answers.stockBatch.results and .status settings point at a shape it would not guess', () => {
    const body = {
      payload: {
        lines: [
          { code: 'A-1', outcome2: 'yes' },
          { code: 'B-2', outcome2: 'no' },
          { code: 'C-3', outcome2: 'yes' },
        ],
      },
    };
    expect(readBatchAnswer(body, skus)).toBeUndefined();
    const verdicts = readBatchAnswer(body, skus, { results: 'payload.lines', status: 'outcome2' });
    // `yes` and `no` are words b2bctl does not know: `unknown`, never `accepted` with exit 0.
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['unknown', 'unknown', 'unknown']);
    const booleans = { payload: { lines: [{ done: true }, { done: false }, { done: true }] } };
    expect(
      readBatchAnswer(booleans, skus, { results: 'payload.lines', status: 'done' })?.map((verdict) => verdict?.verdict),
    ).toEqual(['applied', 'rejected', 'applied']);
  });

  it('the same SKU twice in a batch (two warehouses) is told apart by position', () => {
    const verdicts = readBatchAnswer(
      [
        { sku: 'A-1', success: true },
        { sku: 'A-1', success: false },
      ],
      ['A-1', 'A-1'],
    );
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['applied', 'rejected']);
  });

  it('the same SKU twice with fewer results than items: the place tells nothing, so both are unknown', () => {
    const notes: MatchNote[] = [];
    const verdicts = readBatchAnswer([{ sku: 'A-1', success: false }], ['A-1', 'A-1', 'B-2'], {}, (note) =>
      notes.push(note),
    );
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['unknown', 'unknown', undefined]);
    expect(notes).toEqual([{ kind: 'ambiguousSku', named: 'A-1', sent: ['A-1', 'A-1'] }]);
  });
});

describe('readBatchAnswer: which item a result is about', () => {
  const batch = ['A1', 'B2', 'C3', 'D4', 'E5'];
  /** The verdicts as one word each, `-` for an item no result was matched to, and what matching noticed. */
  function read(body: unknown, sent: readonly string[] = batch) {
    const notes: MatchNote[] = [];
    const verdicts = readBatchAnswer(body, sent, {}, (note) => notes.push(note));
    return { verdicts: verdicts?.map((verdict) => verdict?.verdict ?? '-'), notes };
  }
  const numberedFrom1 = batch.map((sku, position) => ({
    index: position + 1,
    sku,
    status: sku === 'B2' ? 'REJECTED' : 'APPLIED',
  }));

  it('results numbered from 1, each naming its SKU: matched by the SKU, the index noted as not trusted', () => {
    expect(read({ results: numberedFrom1 })).toEqual({
      verdicts: ['applied', 'rejected', 'applied', 'applied', 'applied'],
      notes: [{ kind: 'untrustedIndex', index: 1, sku: 'A1', batchSize: 5, itemSku: 'B2' }],
    });
  });

  it('results numbered from 1 without a SKU: no item is matched (never a result of its neighbour); the refusal makes each unknown', () => {
    const results = numberedFrom1.map(({ index, status }) => ({ index, status }));
    expect(read({ results })).toEqual({
      verdicts: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
      notes: [
        { kind: 'untrustedIndex', index: 5, sku: undefined, batchSize: 5, itemSku: undefined },
        { kind: 'unmatchedRefusal', result: '{"index":2,"status":"REJECTED"}' },
      ],
    });
    // Applied throughout: nothing refused, so nothing is unknown; the items are not itemised.
    const applied = results.map(({ index }) => ({ index, status: 'APPLIED' }));
    expect(read({ results: applied }).verdicts).toEqual(['-', '-', '-', '-', '-']);
  });

  it('a short list of refusals by index alone, none 0: the base is not shown, so the items are unknown, never the neighbour refused', () => {
    // `[{"index": 2, REJECTED}]` for B2 counted from 1 was read from 0: C3 rejected, B2 accepted (a fresh user test).
    expect(read({ results: [{ index: 2, status: 'REJECTED', message: 'Produto não encontrado' }] })).toEqual({
      verdicts: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
      notes: [
        { kind: 'unshownIndexBase', index: 2, batchSize: 5 },
        {
          kind: 'unmatchedRefusal',
          result: '{"index":2,"status":"REJECTED","message":"Produto não encontrado"}',
        },
      ],
    });
    // An index 0 among them shows the base: followed.
    const fromZero = [
      { index: 0, status: 'APPLIED' },
      { index: 2, status: 'REJECTED', message: 'x' },
    ];
    expect(read({ results: fromZero })).toEqual({
      verdicts: ['applied', 'unknown', 'rejected', 'unknown', 'unknown'],
      notes: [{ kind: 'leftOutItems', skus: ['B2', 'D4', 'E5'], batchSize: 5 }],
    });
  });

  it('an object keyed by index from 1: no item is matched, the index noted; the refusal makes each unknown', () => {
    expect(read({ data: { 1: 'OK', 2: 'ERROR', 3: 'OK', 4: 'OK', 5: 'OK' } })).toEqual({
      verdicts: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
      notes: [
        { kind: 'untrustedIndex', index: 5, sku: undefined, batchSize: 5, itemSku: undefined },
        { kind: 'unmatchedRefusal', result: '{"2":"ERROR"}' },
      ],
    });
  });

  it('SKUs given back without leading zeros or in capitals, in another order: matched by SKU, each noted', () => {
    const answer = [
      { sku: 'AB-7', status: 'OK' },
      { sku: '456', status: 'OK' },
      { sku: '123', status: 'REJECTED', message: 'produto inativo' },
    ];
    expect(read(answer, ['00123', '00456', 'ab-7'])).toEqual({
      verdicts: ['rejected', 'applied', 'applied'],
      notes: [
        { kind: 'respelledSku', sent: 'ab-7', named: 'AB-7' },
        { kind: 'respelledSku', sent: '00456', named: '456' },
        { kind: 'respelledSku', sent: '00123', named: '123' },
      ],
    });
    expect(read({ items: { 123: 'ERROR', 456: 'OK', 'AB-7': 'OK' } }, ['00123', '00456', 'ab-7']).verdicts).toEqual([
      'rejected',
      'applied',
      'applied',
    ]);
  });

  it('an exact SKU is preferred to a loose one; a loose one that two items share matches neither', () => {
    expect(read([{ sku: '123', status: 'failed' }], ['0123', '123'])).toEqual({
      verdicts: ['-', 'rejected'],
      notes: [],
    });
    expect(read([{ sku: '123', status: 'failed' }], ['0123', '00123'])).toEqual({
      verdicts: ['unknown', 'unknown'],
      notes: [{ kind: 'ambiguousSku', named: '123', sent: ['0123', '00123'] }],
    });
  });

  it('a loose SKU that two items share is settled by place only when the answer shows it is in the order sent', () => {
    const twoAs123 = [
      { sku: '123', status: 'REJECTED', message: 'inativo' },
      { sku: '123', status: 'OK' },
    ];
    expect(read(twoAs123, ['0123', '00123']).verdicts).toEqual(['unknown', 'unknown']);
    // A1 names its item alone at its place: the answer is in the order sent, so each 123 is its place's.
    expect(read([{ sku: 'A1', status: 'OK' }, ...twoAs123], ['A1', '0123', '00123'])).toEqual({
      verdicts: ['applied', 'rejected', 'applied'],
      notes: [
        { kind: 'respelledSku', sent: '0123', named: '123' },
        { kind: 'respelledSku', sent: '00123', named: '123' },
      ],
    });
  });

  it('two results for one item that disagree leave it unknown, naming both; two that agree are one', () => {
    const answer = [
      { sku: 'A1', status: 'APPLIED' },
      { sku: 'A1', status: 'REJECTED', message: 'second' },
      { sku: 'B2', status: 'OK' },
      { sku: 'B2', status: 'APPLIED' },
    ];
    const shown = ['{"sku":"A1","status":"APPLIED"}', '{"sku":"A1","status":"REJECTED","message":"second"}'];
    expect(readBatchAnswer(answer, ['A1', 'B2'])).toEqual([
      { verdict: 'unknown', message: `the answer gave this item 2 results that disagree: ${shown.join('; ')}` },
      { verdict: 'applied' },
    ]);
    expect(read(answer, ['A1', 'B2']).notes).toEqual([{ kind: 'conflictingResults', sku: 'A1', results: shown }]);
  });

  it('a result naming a SKU not sent is matched to no item, not to the item at its place', () => {
    expect(
      read(
        [
          { sku: 'A1', status: 'ok' },
          { sku: 'ZZ', status: 'failed' },
        ],
        ['A1', 'B2'],
      ),
    ).toEqual({
      verdicts: ['applied', 'unknown'],
      notes: [
        { kind: 'strangerSku', sku: 'ZZ', result: '{"sku":"ZZ","status":"failed"}' },
        { kind: 'unmatchedRefusal', result: '{"sku":"ZZ","status":"failed"}' },
      ],
    });
    expect(
      read(
        [
          { sku: 'A1', status: 'ok' },
          { sku: 'ZZ', status: 'ok' },
        ],
        ['A1', 'B2'],
      ),
    ).toEqual({
      // ZZ may be B2 misspelled, or another product: B2 is left out beside A1 applied, so unknown.
      verdicts: ['applied', 'unknown'],
      notes: [
        { kind: 'strangerSku', sku: 'ZZ', result: '{"sku":"ZZ","status":"ok"}' },
        { kind: 'leftOutItems', skus: ['B2'], batchSize: 2 },
      ],
    });
  });

  it('indexes from 0 that agree with their SKUs are followed, whatever the order', () => {
    const results = numberedFrom1.toReversed().map((result) => ({ ...result, index: result.index - 1 }));
    expect(read({ results })).toEqual({
      verdicts: ['applied', 'rejected', 'applied', 'applied', 'applied'],
      notes: [],
    });
  });

  it.each([
    ['an empty errors list', { results: numberedFrom1.map(({ sku }) => ({ sku, status: 'OK' })), errors: [] }],
    ['no failures counted', { accepted: 5, rejected: 0, failedCount: 0 }],
    ['a batch-level success with a message', { success: true, error: null, message: 'Stock updated' }],
    ['a field saying there were none', { status: 'DONE', noErrors: true }],
  ])('no sign of refusal beside the results (%s): nothing unknown, nothing noted', (_name, body) => {
    const { verdicts, notes } = read(body);
    expect(verdicts?.includes('unknown')).not.toBe(true);
    expect(notes).toEqual([]);
  });

  it('a SKU whose name holds a refusal word is an item, not a sign of refusal', () => {
    expect(read({ 'ERROR-1': 'OK', 'FAILED-2': 'OK' }, ['ERROR-1', 'FAILED-2'])).toEqual({
      verdicts: ['applied', 'applied'],
      notes: [],
    });
  });

  it('a sign of refusal beside the results makes the items they do not show applied or refused unknown', () => {
    const nested = { data: { results: [{ sku: 'A1', status: 'OK' }], failedCount: 2 } };
    expect(read(nested)).toEqual({
      verdicts: ['applied', 'unknown', 'unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'unmatchedRefusal', result: '{"data":{"failedCount":2}}' }],
    });
    const pending = { status: 'COMPLETED_WITH_ERRORS', results: [{ sku: 'A1', status: 'PENDING' }] };
    expect(read(pending, ['A1']).verdicts).toEqual(['unknown']);
    // Results that refuse an item themselves and show every other applied explain the count beside them.
    const explained = { results: numberedFrom1.map(({ sku, status }) => ({ sku, status })), rejected: 1 };
    expect(read(explained)).toEqual({ verdicts: ['applied', 'rejected', 'applied', 'applied', 'applied'], notes: [] });
    // Every item shown applied beside a refusing status: contradicted, so none is known applied (they stood, exit 0,
    // though the batch may not have been stored).
    const contradicted = { status: 'FAILED', results: batch.map((sku) => ({ sku, status: 'OK' })) };
    expect(read(contradicted)).toEqual({
      verdicts: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'contradictedBatch', result: '{"status":"FAILED"}' }],
    });
  });
});

/** The verdict of an item a list of SKUs under `field` names. */
function listed(field: string) {
  return { verdict: 'rejected', message: `the platform listed this SKU under ${field}` };
}

describe('readBatchAnswer: items the results leave out, and lists of the SKUs not taken', () => {
  const batch = ['A1', 'B2', 'C3'];
  function read(body: unknown, sent: readonly string[] = batch) {
    const notes: MatchNote[] = [];
    const verdicts = readBatchAnswer(body, sent, {}, (note) => notes.push(note));
    return { verdicts, notes };
  }

  it('items left out beside others only pending are unknown, said as "taken"', () => {
    expect(read([{ sku: 'A1', status: 'QUEUED' }])).toEqual({
      verdicts: [
        { verdict: 'unsettled', status: 'QUEUED' },
        ...['B2', 'C3'].map(() => ({
          verdict: 'unknown',
          message:
            'the answer showed other items of the batch taken and said nothing of this one: it may have dropped it',
        })),
      ],
      notes: [{ kind: 'leftOutItems', skus: ['B2', 'C3'], batchSize: 3 }],
    });
  });

  it('an item a result names without a status b2bctl reads is unknown, quoting the result, noted', () => {
    expect(read([{ sku: 'A1', status: 'OK' }, { sku: 'B2' }, { sku: 'C3', status: 'OK' }])).toEqual({
      verdicts: [
        { verdict: 'applied' },
        {
          verdict: 'unknown',
          message: `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: {"sku":"B2"}`,
        },
        { verdict: 'applied' },
      ],
      notes: [{ kind: 'unreadResult', sku: 'B2', result: '{"sku":"B2"}' }],
    });
  });

  it('a list of SKUs: a SKU sent twice (two warehouses) refuses both its items; one respelled is noted', () => {
    expect(read({ notFound: ['b2'] }, ['A1', 'B2', 'B2'])).toEqual({
      verdicts: [undefined, listed('notFound'), listed('notFound')],
      notes: [{ kind: 'respelledSku', sent: 'B2', named: 'b2' }],
    });
  });

  it('a list of SKUs with an entry that fits two SKUs sent is a sign of refusal: every item unknown', () => {
    const { verdicts, notes } = read({ notFound: ['123'] }, ['0123', '00123', 'C3']);
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(notes).toEqual([{ kind: 'unmatchedRefusal', result: '{"notFound":["123"]}' }]);
  });

  it('a list naming an item its result refuses keeps both reasons; one its result shows applied is unknown', () => {
    const body = {
      results: [
        { sku: 'A1', status: 'OK' },
        { sku: 'B2', status: 'REJECTED', message: 'inativo' },
        { sku: 'C3', status: 'OK' },
      ],
      invalidSkus: ['B2', 'C3'],
    };
    const { verdicts, notes } = read(body);
    const disagreeing = ['{"sku":"C3","status":"OK"}', '{"invalidSkus":["B2","C3"]}'];
    expect(verdicts).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected', message: 'inativo; the platform listed this SKU under invalidSkus' },
      { verdict: 'unknown', message: `the answer gave this item 2 results that disagree: ${disagreeing.join('; ')}` },
    ]);
    expect(notes).toEqual([{ kind: 'conflictingResults', sku: 'C3', results: disagreeing }]);
  });

  it('a list of SKUs beside another sign: the sign still makes the items not shown unknown', () => {
    const { verdicts } = read({ status: 'PARTIAL', notFound: ['B2'] });
    expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual(['unknown', 'rejected', 'unknown']);
  });
});

function appliedResult(sku: string) {
  return { sku, status: 'APPLIED' };
}

describe('readBatchAnswer: a result matched to an item that says nothing b2bctl reads', () => {
  const sent = ['A1', 'A2', 'A3'];
  it.each([
    ['null at its place', null],
    ['{} at its place', {}],
    ['its SKU without a status', { sku: 'A1' }],
    ['a null status beside a message', { sku: 'A1', status: null, message: 'Estoque n\u00e3o atualizado' }],
  ])('%s beside items shown applied: unknown, quoting the result, noted', (_name, first) => {
    const notes: MatchNote[] = [];
    const result = JSON.stringify(first);
    expect(
      readBatchAnswer({ results: [first, appliedResult('A2'), appliedResult('A3')] }, sent, {}, (note) =>
        notes.push(note),
      ),
    ).toEqual([
      {
        verdict: 'unknown',
        message: `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: ${result}`,
      },
      { verdict: 'applied' },
      { verdict: 'applied' },
    ]);
    expect(notes).toEqual([{ kind: 'unreadResult', sku: 'A1', result }]);
  });

  it('on the queue route such a result leaves its item queued, as the batch is', () => {
    expect(readQueueRefusal({ results: [null, appliedResult('A2'), appliedResult('A3')] }, sent)).toBeUndefined();
  });
});

describe('readBatchAnswer: results matched by their place alone, whose words quote another item\u2019s SKU', () => {
  const sent = ['BAD-1', 'GOOD-2', 'GOOD-3'];
  /** The verdicts as one word each, `-` for an item no result was matched to, and what matching noticed. */
  function read(body: unknown, batch: readonly string[] = sent) {
    const notes: MatchNote[] = [];
    const verdicts = readBatchAnswer(body, batch, {}, (note) => notes.push(note));
    return { verdicts: verdicts?.map((verdict) => verdict?.verdict ?? '-'), notes };
  }
  const applied = { status: 'APPLIED' };

  it('a refusal quoting another item\u2019s SKU, the results reversed: every item unknown, quoting it, noted once', () => {
    // A queue worker finishing in another order: BAD-1 was reported applied and GOOD-3 rejected (a fresh user test).
    const refusal = { status: 'REJECTED', message: 'SKU BAD-1 not found' };
    const result = JSON.stringify(refusal);
    const message = `the answer's results name neither SKU nor index, and the one at the place of "GOOD-3" quotes "BAD-1", another item sent: ${result}; their order is not to be trusted, so which is this item's is not known`;
    const notes: MatchNote[] = [];
    expect(readBatchAnswer({ results: [applied, applied, refusal] }, sent, {}, (note) => notes.push(note))).toEqual(
      sent.map(() => ({ verdict: 'unknown', message })),
    );
    expect(notes).toEqual([{ kind: 'misplacedResults', placeSku: 'GOOD-3', quoted: 'BAD-1', result, by: 'place' }]);
  });

  it.each([
    ['an applied result', [applied, { status: 'APPLIED', message: 'GOOD-3 atualizado' }, applied]],
    ['a reason field in Portuguese', [applied, applied, { ok: false, motivo: 'produto BAD-1 inexistente' }]],
    ['a result given as a sentence', ['OK', 'ERRO: produto BAD-1 inexistente', 'OK']],
    ['a nested errors list', ['OK', { status: 'ERROR', errors: [{ field: 'sku', message: 'BAD-1 unknown' }] }, 'OK']],
    ['the SKU in capitals', [applied, applied, { status: 'REJECTED', message: 'SKU BAD-1 NOT FOUND' }]],
    ['at the end of a sentence', [applied, { status: 'REJECTED', message: 'Not found: BAD-1.' }, applied]],
  ])('%s quoting another item\u2019s SKU: every item unknown', (_name, results) => {
    expect(read({ results })).toMatchObject({
      verdicts: ['unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'misplacedResults' }],
    });
  });

  it('a SKU sent in lower case and quoted in capitals is quoted', () => {
    const results = [applied, { status: 'REJECTED', message: 'SKU AB-7 not found' }, applied];
    expect(read({ results }, ['ab-7', 'cd-8', 'ef-9']).verdicts).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it.each([
    ['its own SKU', [{ status: 'REJECTED', message: 'SKU BAD-1 not found' }, applied, applied]],
    ['no SKU', [{ status: 'REJECTED', message: 'SKU not found' }, applied, applied]],
    ['its own SKU beside another', [{ status: 'REJECTED', message: 'BAD-1 replaced by GOOD-2' }, applied, applied]],
    [
      'a longer code holding another SKU',
      [{ status: 'REJECTED', message: 'SKU BAD-1 not found (GOOD-2X, GOOD-3-B)' }, applied, applied],
    ],
    [
      'a price or a quantity',
      [{ status: 'REJECTED', message: 'SKU not found' }, { status: 'APPLIED', message: 'GOOD.2' }, applied],
    ],
  ])('a message quoting %s changes nothing: matched by place, nothing noted', (_name, results) => {
    expect(read({ results })).toEqual({ verdicts: ['rejected', 'applied', 'applied'], notes: [] });
  });

  it('a SKU that is part of another SKU sent is not quoted where the other stands; the other is', () => {
    // BAD-1 inside BAD-10, and 10M inside "CABO 10M", are not those SKUs; but "CABO 10M" at 10M's place is another's.
    const longer = ['BAD-1', 'BAD-10', 'CABO 10M', '10M'];
    const own = [applied, { status: 'REJECTED', message: 'SKU BAD-10 not found' }, applied, applied];
    expect(read({ results: own }, longer)).toEqual({
      verdicts: ['applied', 'rejected', 'applied', 'applied'],
      notes: [],
    });
    const other = [applied, applied, applied, { status: 'REJECTED', message: 'CABO 10M fora de linha' }];
    expect(read({ results: other }, longer).verdicts).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    const inside = [applied, applied, { status: 'REJECTED', message: 'CABO 10M fora de linha' }, applied];
    expect(read({ results: inside }, longer)).toEqual({
      verdicts: ['applied', 'applied', 'rejected', 'applied'],
      notes: [],
    });
  });

  it('short SKUs, and SKUs of 3 digits, standing bare are not quoted: a line, a quantity or a code would look like them', () => {
    const results = [{ status: 'REJECTED', message: 'line 2: quantity 3 above 404 units' }, applied, applied];
    expect(read({ results }, ['1', '2', '3'])).toEqual({ verdicts: ['rejected', 'applied', 'applied'], notes: [] });
    expect(read({ results }, ['A1', '404', 'B3'])).toEqual({ verdicts: ['rejected', 'applied', 'applied'], notes: [] });
    // Four digits and more are codes enough.
    const quoting = [{ status: 'REJECTED', message: 'produto 40420 inexistente' }, applied, applied];
    expect(read({ results: quoting }, ['10101', '40420', '20202']).verdicts).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it('two-character SKUs of a letter and a digit (X1, A1) are looked for; two letters or two digits are not', () => {
    // "SKU X1 not found" at X3's place reported X1 applied and X3 rejected (a fresh user test).
    const quoting = (sku: string) => [applied, applied, { status: 'REJECTED', message: `SKU ${sku} not found` }];
    expect(read({ results: quoting('X1') }, ['X1', 'X2', 'X3'])).toMatchObject({
      verdicts: ['unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'misplacedResults', placeSku: 'X3', quoted: 'X1', by: 'place' }],
    });
    expect(read({ results: quoting('1a') }, ['1a', '2a', '3a']).verdicts).toEqual(['unknown', 'unknown', 'unknown']);
    // Two letters (a word: `OK`, `de`) or two digits (a quantity) stand in messages for other things.
    const words = [applied, applied, { status: 'REJECTED', message: 'OK de 12 itens recusados' }];
    expect(read({ results: words }, ['OK', 'de', '12'])).toEqual({
      verdicts: ['applied', 'applied', 'rejected'],
      notes: [],
    });
    // Whole words only: X1 inside X10 is not X1.
    const longer = [applied, applied, { status: 'REJECTED', message: 'SKU X10 not found' }];
    expect(read({ results: longer }, ['X1', 'X2', 'X3'])).toEqual({
      verdicts: ['applied', 'applied', 'rejected'],
      notes: [],
    });
  });

  it.each([
    ['after the word SKU', 'SKU 12 not found'],
    ['after "sku:" and a quote', "sku: '12' inexistente"],
    ['after "SKU #"', 'SKU #12 rejected'],
    ['in lower case, after "sku="', 'invalid sku=12'],
    ['between double quotes', 'produto "12" inexistente'],
    ['between typographic quotes', 'produto \u201c12\u201d inexistente'],
    ['between brackets', 'not found: [12]'],
    ['at the end of a sentence', 'Not found: SKU 12.'],
  ])('a SKU of 2 digits marked as a code %s is quoted: every item unknown, noted', (_how, message) => {
    // "SKU 12 not found" at 7's place was matched by place: 12 reported applied, 7 refused (a maintainer's round).
    const results = [applied, applied, { status: 'REJECTED', message }];
    expect(read({ results }, ['12', '5', '7'])).toMatchObject({
      verdicts: ['unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'misplacedResults', placeSku: '7', quoted: '12', by: 'place' }],
    });
  });

  it.each([
    ['two letters after the word SKU', ['de', 'ab', 'cd'], 'SKU DE not found'],
    ['two letters between quotes', ['de', 'ab', 'cd'], "produto 'de' inexistente"],
    ['one character between brackets', ['A', 'B', 'C'], 'not found: [A]'],
    ['3 digits after the word SKU', ['404', '405', '406'], 'SKU 404 not found'],
  ])('a short SKU marked as a code (%s) is quoted too', (_how, batch, message) => {
    const results = [applied, applied, { status: 'REJECTED', message }];
    expect(read({ results }, batch).verdicts).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it.each([
    ['a count', '12 items refused'],
    ['a date', 'rejected on 2026-12-01'],
    ['a date the other way round', 'rejected on 01/12/2026'],
    ['a price', 'price 12.00 below cost'],
    ['a longer number after SKU', 'SKU 123 not found'],
    ['a code holding it after SKU', 'SKU AB-12 not found'],
    ['a longer quoted phrase', 'produto "12 unidades" recusado'],
    ['a word SKUs before it', 'SKUs: 12 refused'],
    ['a word ending in "sku" before it', 'lote TASKU 12 refused'],
  ])('a 2-digit SKU standing in %s is not quoted: matched by place, nothing noted', (_how, message) => {
    const results = [applied, applied, { status: 'REJECTED', message }];
    expect(read({ results }, ['12', '5', '7'])).toEqual({ verdicts: ['applied', 'applied', 'rejected'], notes: [] });
  });

  it('a two-letter SKU standing as a word (`de`) is not quoted; its own SKU marked as a code changes nothing', () => {
    const word = [applied, applied, { status: 'REJECTED', message: 'Produto de teste inexistente' }];
    expect(read({ results: word }, ['de', 'ab', 'cd'])).toEqual({
      verdicts: ['applied', 'applied', 'rejected'],
      notes: [],
    });
    const own = [applied, applied, { status: 'REJECTED', message: 'SKU 7 not found' }];
    expect(read({ results: own }, ['12', '5', '7'])).toEqual({
      verdicts: ['applied', 'applied', 'rejected'],
      notes: [],
    });
  });

  it('results matched by index alone, one quoting another item\u2019s SKU: every item matched by index unknown, noted', () => {
    // A platform numbering its results after its own sort: BAD-1 was reported applied, GOOD-3 rejected (a fresh user test).
    const refusal = { index: 2, status: 'REJECTED', message: 'SKU BAD-1 not found' };
    const result = JSON.stringify(refusal);
    const message = `the answer's results name their items by index alone, and the one at the index of "GOOD-3" quotes "BAD-1", another item sent: ${result}; their numbering is not to be trusted, so which is this item's is not known`;
    const indexed = [{ index: 0, status: 'OK' }, { index: 1, status: 'OK' }, refusal];
    expect(read({ results: indexed })).toEqual({
      verdicts: ['unknown', 'unknown', 'unknown'],
      notes: [{ kind: 'misplacedResults', placeSku: 'GOOD-3', quoted: 'BAD-1', result, by: 'index' }],
    });
    const notes: MatchNote[] = [];
    expect(readBatchAnswer({ results: indexed }, sent, {}, (note) => notes.push(note))).toEqual(
      sent.map(() => ({ verdict: 'unknown', message })),
    );
    // Its own SKU, or one result naming its SKU beside the indexes: nothing changes for the rest.
    const own = [
      { index: 0, status: 'REJECTED', message: 'SKU BAD-1 not found' },
      { index: 1, status: 'OK' },
      { index: 2, status: 'OK' },
    ];
    expect(read({ results: own })).toEqual({ verdicts: ['rejected', 'applied', 'applied'], notes: [] });
    const named = [
      { index: 0, status: 'OK' },
      { index: 1, sku: 'GOOD-2', status: 'OK', message: 'kit of BAD-1' },
      { index: 2, status: 'OK' },
    ];
    expect(read({ results: named })).toEqual({ verdicts: ['applied', 'applied', 'applied'], notes: [] });
  });

  it('only the items matched by place are unknown: one a result names by its SKU keeps its verdict', () => {
    const results = [
      applied,
      { sku: 'GOOD-2', status: 'APPLIED' },
      { status: 'REJECTED', message: 'SKU BAD-1 not found' },
    ];
    expect(read({ results })).toMatchObject({
      verdicts: ['unknown', 'applied', 'unknown'],
      notes: [{ kind: 'misplacedResults', placeSku: 'GOOD-3', quoted: 'BAD-1' }],
    });
  });

  it('results naming their SKUs are not matched by place: their words change nothing', () => {
    const named = [
      { sku: 'GOOD-3', status: 'REJECTED', message: 'kit of BAD-1' },
      { sku: 'BAD-1', status: 'OK' },
      { sku: 'GOOD-2', status: 'OK' },
    ];
    expect(read({ results: named })).toEqual({ verdicts: ['applied', 'applied', 'rejected'], notes: [] });
  });
});

describe('readQueueAnswer: the id in a 202 the document does not show', () => {
  it.each([
    [{ batchId: 'b-1', status: 'QUEUED' }, 'b-1'],
    [{ jobId: 'j-9', state: 'RECEIVED' }, 'j-9'],
    [{ id: 42 }, '42'],
    [{ data: { id: 'd-1' } }, 'd-1'],
    [undefined, undefined],
    [{ accepted: true }, undefined],
  ])('%j → %s', (body, id) => {
    expect(readQueueAnswer(body)).toBe(id);
  });

  it('answers.stockQueue.id names the field', () => {
    expect(readQueueAnswer({ ticket2: 'T-1', id: 'x' }, 'ticket2')).toBe('T-1');
  });
});
