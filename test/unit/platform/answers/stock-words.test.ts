/**
 * Every word, field and place the stock answers are recognised by, one row each: a word dropped from a list, or a
 * place no longer looked at, fails its row (mutation testing showed a list can lose an entry unseen).
 */
import { describe, expect, it } from 'vitest';
// The places are written out here, not taken from the module's lists: a place dropped from a list must fail a row.
import { readBatchAnswer, readQueueAnswer, readQueueRefusal } from '../../../../src/platform/answers/stock.js';

const skus = ['SKU-1', 'SKU-2'];

/** The verdict of a result whose status b2bctl knows as neither applied, refused nor pending. */
function unknownStatus(status: string, result: unknown) {
  return {
    verdict: 'unknown',
    message: `the platform answered "${status}" for this item, which b2bctl knows as neither applied, refused nor pending: ${JSON.stringify(result)}`,
  };
}

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

  it.each(['error', 'rejected', 'failed', 'failure', 'invalid', 'false', 'not_found', 'REJECTED'])(
    '"%s" is rejected',
    (word) => {
      expect(readBatchAnswer([{ status: 'ok' }, { status: word }], skus)).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected' },
      ]);
    },
  );

  it.each(['422', 400])('the bare code %j is rejected, the code its message (no empty line in the report)', (code) => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: code }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected', message: `the platform answered ${code} for this item` },
    ]);
  });

  it.each([200, 201, 207, 299, '204', ' 200 '])('the per-item HTTP code %j is applied', (code) => {
    expect(readBatchAnswer([{ status: code }, { status: 'error' }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected' },
    ]);
  });

  it.each([400, 404, 409, 422, 499, '404'])('the per-item HTTP code %j is rejected, with its message', (code) => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: code, message: 'sku not found' }], skus)).toEqual([
      { verdict: 'applied' },
      { verdict: 'rejected', message: 'sku not found' },
    ]);
  });

  it.each([500, 503, 599, '502', '500 Internal Server Error', 'SERVICE-UNAVAILABLE', 'bad_gateway'])(
    'the per-item server error %j is unknown (it may come after the item was stored), quoting the result',
    (code) => {
      const result = { status: code, message: 'm' };
      expect(readBatchAnswer([{ status: 'ok' }, result], skus)?.[1]).toEqual({
        verdict: 'unknown',
        message: `the platform answered "${String(code)}" for this item, a server error, which may come after it stored the item: ${JSON.stringify(result)}`,
      });
    },
  );

  it.each(['statusCode', 'status_code', 'httpStatus'])(
    'an HTTP code per item under "%s": 2xx applied, 4xx rejected, 5xx and others unknown',
    (field) => {
      const verdicts = readBatchAnswer(
        [200, 404, '422', 503, 302].map((code, place) => ({ sku: `S${place}`, [field]: code })),
        ['S0', 'S1', 'S2', 'S3', 'S4'],
      );
      expect(verdicts?.map((verdict) => verdict?.verdict)).toEqual([
        'applied',
        'rejected',
        'rejected',
        'unknown',
        'unknown',
      ]);
    },
  );

  it.each([
    ['an error text', { sku: 'SKU-2', status: 'APPLIED', error: 'Produto não encontrado' }],
    ['an HTTP code of refusal', { sku: 'SKU-2', status: 'OK', statusCode: 404 }],
    ['an errors list', { sku: 'SKU-2', success: true, errors: [{ message: 'preço inválido' }] }],
    ['a false flag', { sku: 'SKU-2', status: 'APPLIED', valid: false }],
  ])('a result that says applied beside %s is unknown, quoting it, whatever the words', (_name, result) => {
    expect(readBatchAnswer([{ sku: 'SKU-1', status: 'OK' }, result], skus)).toEqual([
      { verdict: 'applied' },
      {
        verdict: 'unknown',
        message: `the answer's result for this item both applies and refuses it: ${JSON.stringify(result)}`,
        disagrees: true,
      },
    ]);
  });

  it.each([
    { sku: 'SKU-2', status: 'APPLIED', error: null },
    { sku: 'SKU-2', status: 'APPLIED', error: '' },
    { sku: 'SKU-2', status: 'APPLIED', errors: [] },
    { sku: 'SKU-2', ok: true, erro: false },
  ])('%j: an empty error field refuses nothing, applied', (result) => {
    expect(readBatchAnswer([{ sku: 'SKU-1', status: 'OK' }, result], skus)?.[1]?.verdict).toBe('applied');
  });

  it.each(['400 Bad Request', '404: not found'])(
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

  it.each(['2000 items', '404abc', '4040'])('%j is no status line: unknown, quoting the result', (word) => {
    expect(readBatchAnswer([{ status: word }, { status: 'ok' }], skus)?.[0]).toEqual(
      unknownStatus(word, { status: word }),
    );
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

  it('a status object is quoted as its JSON, never [object Object]: pending when it says so, else unknown', () => {
    expect(readBatchAnswer([{ status: { code: 'PENDING', at: 3 } }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: '{"code":"PENDING","at":3}',
    });
    expect(readBatchAnswer([{ status: ['x'] }, { status: 'ok' }], skus)?.[0]).toEqual(
      unknownStatus('["x"]', { status: ['x'] }),
    );
  });

  it.each([100, 199, 302, 600, 2000, '20'])('the per-item code %j is unknown', (code) => {
    expect(readBatchAnswer([{ status: code }, { status: 'ok' }], skus)?.[0]).toEqual(
      unknownStatus(String(code), { status: code }),
    );
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

  it.each([
    'message',
    'reason',
    'error',
    'errorMessage',
    'error_message',
    'msg',
    'detail',
    'description',
    'mensagem',
    'erro',
    'motivo',
    'descricao',
    'detalhe',
  ])('the field "%s" holds the message', (field) => {
    const verdicts = readBatchAnswer([{ status: 'rejected', [field]: 'stock locked' }, { status: 'ok' }], skus);
    expect(verdicts?.[0]).toEqual({ verdict: 'rejected', message: 'stock locked' });
  });

  it('a blank message is no message; the first non-blank one is', () => {
    expect(readBatchAnswer([{ status: 'rejected', message: '  ', reason: 'why' }, true], skus)?.[0]).toEqual({
      verdict: 'rejected',
      message: 'why',
    });
  });

  it.each(['results', 'items', 'data', 'result', 'data.results', 'data.items', 'resultados', 'itens'])(
    'results under "%s"',
    (path) => {
      const body: Record<string, unknown> = {};
      let place = body;
      const parts = path.split('.');
      for (const part of parts.slice(0, -1)) place = (place[part] = {}) as Record<string, unknown>;
      place[parts.at(-1) as string] = [{ status: 'ok' }, { status: 'failed' }];
      expect(readBatchAnswer(body, skus)).toEqual([{ verdict: 'applied' }, { verdict: 'rejected' }]);
    },
  );

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

  it('fewer results than items: the item left out beside one shown applied is unknown; one naming none, no verdict', () => {
    expect(readBatchAnswer([{ sku: 'SKU-2', status: 'ok' }], skus)).toEqual([
      {
        verdict: 'unknown',
        message:
          'the answer showed other items of the batch applied and said nothing of this one: it may have dropped it',
      },
      { verdict: 'applied' },
    ]);
    // Only refusals named (an errors-style list): the other item is not refused, no verdict (accepted).
    expect(readBatchAnswer([{ sku: 'SKU-2', status: 'failed' }], skus)).toEqual([undefined, { verdict: 'rejected' }]);
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
    for (const body of [{}, { count: 2 }, [1, 2], null, 'ok']) expect(readBatchAnswer(body, skus)).toBeUndefined();
  });

  it('an object keyed by the SKUs sent that only echoes values is no result: it says nothing either way', () => {
    // `1` and `2` (the quantities sent back) say nothing of the items: the 2xx is the platform's, `accepted` with the
    // run's warning; a status word or a message under a SKU is a result (above).
    expect(readBatchAnswer({ 'SKU-1': 1, 'SKU-2': 2 }, skus)).toBeUndefined();
  });

  it('a count of the items applied: short of the batch, the items not itemised unknown; when or by whom, no count', () => {
    expect(readBatchAnswer({ processados: '1' }, skus)).toEqual([
      short('{"processados":"1"}'),
      short('{"processados":"1"}'),
    ]);
    expect(readBatchAnswer({ successCount: 1, falhas: '0' }, skus)).toEqual([
      short('{"successCount":1}'),
      short('{"successCount":1}'),
    ]);
    for (const body of [{ updatedBy: 1 }, { updatedAt: 1 }, { processed: 2 }])
      expect(readBatchAnswer(body, skus)).toBeUndefined();
  });

  it('a status field set to one the results do not have: no verdict from the others', () => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: 'ok' }], skus, { status: 'outcome' })).toBeUndefined();
  });
});

/** The verdict of an item whose result says nothing b2bctl reads, quoting it. */
function unread(result: unknown) {
  return {
    verdict: 'unknown',
    message: `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: ${JSON.stringify(result)}`,
  };
}

/** The verdict of an item an answer counts among fewer applied than sent, quoting the count. */
function short(shown: string) {
  return {
    verdict: 'unknown',
    message: `the answer counts 1 of the 2 items sent applied (${shown}) without saying which: this one may not be`,
  };
}

describe('readBatchAnswer, the words a refusal, a pending item or an unknown status is told by', () => {
  it.each([
    'ERRO',
    'Falha',
    'REJEITADO',
    'INVALIDO',
    'inválido',
    'NAO_ENCONTRADO',
    'NÃO ENCONTRADO',
    'INEXISTENTE',
    'recusado',
    'SKU_NOT_FOUND',
    'NOT FOUND',
    'PRODUCT_NOT_FOUND',
    'VALIDATION_ERROR',
    'FAILED_VALIDATION',
    'INVALID_PRICE',
    'REJECTED_BY_RULE',
    'produto_inexistente',
    'PRODUTO_NAO_ENCONTRADO',
    // The reason phrase of a 4xx or 5xx status refuses as its code does.
    'BAD_REQUEST',
    'Unprocessable Entity',
    'conflict',
  ])('"%s" is rejected', (word) => {
    expect(readBatchAnswer([{ status: 'ok' }, { status: word }], skus)?.[1]?.verdict).toBe('rejected');
  });

  it.each([
    'completed',
    'SUCESSO',
    'atualizado',
    'aplicado',
    'concluído',
    // A phrase of applied words (a fresh user test: each was unknown, exit 1, every night).
    'Atualizado com sucesso',
    'UPDATED_SUCCESSFULLY',
    'Estoque atualizado',
  ])('"%s" is applied', (word) => {
    expect(readBatchAnswer([{ status: word }, { status: 'error' }], skus)?.[0]).toEqual({ verdict: 'applied' });
  });

  it.each([
    'PENDING',
    'queued',
    'enqueued',
    'PROCESSING',
    'IN_PROGRESS',
    'in progress',
    'received',
    'accepted',
    'PENDENTE',
    'EM_PROCESSAMENTO',
    'em processamento',
    'recebido',
    'aceito',
  ])('"%s" is pending: accepted, quoting it', (word) => {
    expect(readBatchAnswer([{ status: word }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unsettled',
      status: word,
    });
  });

  it.each([
    'ignored',
    'SKIPPED',
    'unchanged',
    'WARNING',
    'yes',
    // A phrase with any word that is not an applied one or a joining one: `não atualizado`, `ok, but price ignored`.
    'não atualizado',
    'ok, but price ignored',
    'updated partially',
  ])('"%s" is unknown, never accepted', (word) => {
    expect(readBatchAnswer([{ sku: 'SKU-1', status: word }, { status: 'ok' }], skus)?.[0]).toEqual({
      verdict: 'unknown',
      message: `the platform answered "${word}" for this item, which b2bctl knows as neither applied, refused nor pending: {"sku":"SKU-1","status":"${word}"}`,
    });
  });

  it('a result given as a refusing sentence is rejected with it as its reason; a bare word has none', () => {
    expect(readBatchAnswer({ 'SKU-1': 'ERRO: produto inexistente', 'SKU-2': 'ERROR' }, skus)).toEqual([
      { verdict: 'rejected', message: 'ERRO: produto inexistente' },
      { verdict: 'rejected' },
    ]);
  });

  it('a blank "error" or "erro" is no refusal, nor says applied: its item unknown, quoting it', () => {
    expect(readBatchAnswer([{ status: 'ok' }, { error: '' }], skus)).toEqual([
      { verdict: 'applied' },
      unread({ error: '' }),
    ]);
    expect(readBatchAnswer([{ erro: ' ' }, { status: 'ok' }], skus)).toEqual([
      unread({ erro: ' ' }),
      { verdict: 'applied' },
    ]);
  });

  it('"erro" holds a refusal as "error" does: its text is the reason, false is applied', () => {
    expect(readBatchAnswer([{ erro: 'Produto inexistente' }, { erro: false }], skus)).toEqual([
      { verdict: 'rejected', message: 'Produto inexistente' },
      { verdict: 'applied' },
    ]);
  });

  it('a refusal whose reason is under no name b2bctl lists, or in its status alone, is quoted as its JSON', () => {
    const answer = [
      { sku: 'SKU-1', status: 'REJECTED', texto: 'sem estoque' },
      { sku: 'SKU-2', status: 'SKU_NOT_FOUND' },
    ];
    expect(readBatchAnswer(answer, skus)).toEqual(
      answer.map((result) => ({
        verdict: 'rejected',
        message: `the platform refused this item: ${JSON.stringify(result)}`,
      })),
    );
  });

  it('a boolean b2bctl does not list: false is unknown quoting the result, true under a name saying applied is applied', () => {
    const answer = [
      { sku: 'SKU-1', updated: true },
      { sku: 'SKU-2', updated: false, reason: 'Produto inexistente' },
    ];
    expect(readBatchAnswer(answer, skus)).toEqual([
      { verdict: 'applied', message: undefined },
      {
        verdict: 'unknown',
        message: `the answer gave this item "updated": false, which b2bctl cannot read as applied or refused: ${JSON.stringify(answer[1])}`,
      },
    ]);
    // `true` under a name that says nothing of the item is no verdict, and a result with no words is an echo: no
    // per-item results (the items `accepted` with the run's warning).
    expect(readBatchAnswer([{ sku: 'SKU-1', promo: true }], skus)).toBeUndefined();
  });

  it.each(['notFound', 'naoEncontrados', 'nao_encontrados', 'invalidSkus', 'ignored', 'skusInexistentes', 'erros'])(
    'a list "%s" of SKUs sent beside the results: those items rejected, quoting its name; one naming none, a sign',
    (field) => {
      const verdicts = readBatchAnswer({ results: [{ sku: 'SKU-1', status: 'ok' }], [field]: ['sku-2'] }, skus);
      expect(verdicts).toEqual([
        { verdict: 'applied' },
        { verdict: 'rejected', message: `the platform listed this SKU under ${field}` },
      ]);
      const stranger = readBatchAnswer({ results: [{ sku: 'SKU-1', status: 'ok' }], [field]: ['SKU-9'] }, skus);
      expect(stranger?.map((verdict) => verdict?.verdict)).toEqual(['applied', 'unknown']);
    },
  );

  it.each(['found', 'notFoundCount', 'ignoredCount', 'noErrors'])('"%s" empty, zero or negated is no sign', (field) => {
    const results = skus.map((sku) => ({ sku, status: 'ok' }));
    const body = { results, [field]: field === 'found' ? ['SKU-2'] : 0 };
    expect(readBatchAnswer(body, skus)).toEqual([{ verdict: 'applied' }, { verdict: 'applied' }]);
  });
});

describe('readQueueRefusal: the queue route\u2019s 2xx read for the signs the batch route\u2019s is', () => {
  it.each([
    { success: false, status: 'REJECTED', message: 'Lote rejeitado' },
    { status: 'FAILED' },
    { id: 'Q-1', status: 'QUEUED', errors: ['SKU-2: produto inexistente'] },
    { erro: 'Lote inválido' },
    { jobId: 'J-1', rejected: 2 },
    { sucesso: false, mensagem: 'Lote inválido' },
    { situacao: 'REJEITADO' },
    { accepted: false, reason: 'queue full' },
    { status: 'UNPROCESSABLE_ENTITY' },
    { code: 503 },
  ])('%j: every item unknown, quoting it', (body) => {
    const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${JSON.stringify(body)}`;
    expect(readQueueRefusal(body, skus)).toEqual([
      { verdict: 'unknown', message },
      { verdict: 'unknown', message },
    ]);
  });

  it('per-item results: the refused item rejected, the one shown applied not judged (it stays queued)', () => {
    const body = { batchId: 'B-1', results: [{ sku: 'SKU-2', status: 'REJECTED', message: 'inativo' }] };
    expect(readQueueRefusal(body, skus)).toEqual([undefined, { verdict: 'rejected', message: 'inativo' }]);
  });

  it.each([
    { batchId: 'B-1', status: 'QUEUED', items: 2 },
    { jobId: 'J-1', state: 'RECEIVED' },
    { id: 'B-1' },
    {
      batchId: 'B-1',
      results: [
        { sku: 'SKU-1', status: 'PENDING' },
        { sku: 'SKU-2', status: 'ACCEPTED' },
      ],
    },
    { id: 'B-1', errors: [], failed: 0 },
    { batchId: 'B-1', aceito: true, situacao: 'RECEBIDO' },
    { batchId: 'B-1', accepted: 2 },
    null,
    '',
  ])('%j: no sign of refusal', (body) => {
    expect(readQueueRefusal(body, skus)).toBeUndefined();
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

  it('a result that is no object (null) is not read as a verdict: its item unknown, quoting it', () => {
    expect(readBatchAnswer([null, { status: 'ok' }], skus)).toEqual([
      {
        verdict: 'unknown',
        message: "the answer's result for this item says nothing b2bctl reads as applied, refused or pending: null",
      },
      { verdict: 'applied' },
    ]);
  });

  it('an object keyed by SKU whose one value is a count: the others read, that one unknown (never all accepted)', () => {
    expect(readBatchAnswer({ 'SKU-1': 'ok', 'SKU-2': 5 }, skus)).toEqual([
      { verdict: 'applied' },
      unread({ 'SKU-2': 5 }),
    ]);
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
