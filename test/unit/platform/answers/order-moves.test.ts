import { describe, expect, it } from 'vitest';
import { readMoveAnswer } from '../../../../src/platform/answers/order-moves.js';
import { parseStoreStatusWords, type StoreStatusWords } from '../../../../src/domain/store-status-words.js';

describe('readMoveAnswer', () => {
  it.each([
    ['an empty body (204)', undefined, { recognised: true, empty: true }],
    ['the order', { id: 1, status: 'SHIPPED' }, { recognised: true, status: 'SHIPPED' }],
    [
      'the order in data',
      { success: true, data: { id: '1', status: 'INVOICED' } },
      { recognised: true, status: 'INVOICED' },
    ],
    ['the order in order', { order: { status: 'CANCELED' } }, { recognised: true, status: 'CANCELED' }],
    ['an acknowledgement', { ok: true }, { recognised: true }],
  ])('recognises %s', (_name, body, expected) => {
    expect(readMoveAnswer(body)).toEqual(expected);
  });

  it.each([
    ['a request id only', { requestId: 'req-1', queued: 1 }],
    ['text', 'OK'],
    ['a list', [{ status: 'SHIPPED' }]],
  ])('does not recognise %s (the command accepts the 2xx and warns)', (_name, body) => {
    expect(readMoveAnswer(body)).toEqual({ recognised: false });
  });

  // A 200 that refuses the move was reported done, its refusing status even shown as the order's (a user test).
  it.each([
    ['success false', { success: false, message: 'Transition not allowed' }, { recognised: false }],
    ['a list of errors', { errors: [{ field: 'status', message: 'x' }] }, { recognised: false }],
    ['a refusing status', { status: 'ERROR', message: 'x' }, { recognised: true, status: 'ERROR' }],
  ])('reads the refusal in %s', (_name, body, expected) => {
    expect(readMoveAnswer(body, '1')).toEqual({ ...expected, refusal: JSON.stringify(body) });
  });

  it.each([
    ['canceled in lower case', { id: 1, status: 'canceled' }, 'CANCELED'],
    ['CANCELLED', { id: 1, status: 'CANCELLED' }, 'CANCELED'],
    ['an object', { id: 1, status: { code: 'SHIPPED', name: 'Enviado' } }, 'SHIPPED'],
  ])('reads the status %s as b2bctl compares it', (_name, body, status) => {
    expect(readMoveAnswer(body, '1')).toEqual({ recognised: true, status });
  });

  // The request's own result where the order's status would be was read as the order's ("the answer shows the order
  // OK"), and every move of a store that answers so and applies it a moment later was `unknown` (a user test).
  it.each([
    ['OK', { status: 'OK' }],
    ['SUCCESS', { status: 'SUCCESS' }],
    ['PROCESSING', { status: 'PROCESSING' }],
    ['ACCEPTED beside a protocol', { status: 'ACCEPTED', protocolo: 'x' }],
    ['QUEUED in a data envelope', { data: { status: 'QUEUED' } }],
    ['ok beside success true', { success: true, status: 'ok' }],
  ])("reads the status %s as the request's result, not the order's", (_name, body) => {
    const answer = readMoveAnswer(body, '1');
    expect(answer).toEqual({ recognised: false, requestResult: expect.any(String) });
    expect(answer.status).toBeUndefined();
  });

  it("still names another order's record whose status is the request's result", () => {
    expect(readMoveAnswer({ id: 999, status: 'OK' }, '226')).toMatchObject({ otherOrder: '999' });
  });

  it("names another order's record", () => {
    expect(readMoveAnswer({ id: 999, status: 'READY_TO_SHIP' }, '226')).toEqual({
      recognised: true,
      status: 'READY_TO_SHIP',
      otherOrder: '999',
    });
  });

  // Read by b2bctl's names alone, a store's record in its own shape was no order: a move it had not made `accepted`.
  describe("through the store's answer settings, as its detail is read", () => {
    const settings = {
      detail: 'pedido',
      status: 'situacao',
      id: 'codigo',
      statusWords: (
        parseStoreStatusWords('PRONTO_PARA_ENVIO=READY_TO_SHIP,AGUARDANDO_PAGAMENTO=AWAITING_PAYMENT') as {
          words: StoreStatusWords;
        }
      ).words,
    };
    it.each([
      [
        'in its envelope',
        { pedido: { codigo: 7, situacao: 'PRONTO_PARA_ENVIO' } },
        { recognised: true, status: 'READY_TO_SHIP' },
      ],
      [
        'at the root',
        { id: 90_007, codigo: 7, situacao: 'PRONTO_PARA_ENVIO', status: 'ATIVO' },
        { recognised: true, status: 'READY_TO_SHIP' },
      ],
      [
        'in its old status',
        { pedido: { codigo: 7, situacao: 'AGUARDANDO_PAGAMENTO' } },
        { recognised: true, status: 'AWAITING_PAYMENT' },
      ],
      [
        "another order's",
        { pedido: { codigo: 9, situacao: 'PRONTO_PARA_ENVIO' } },
        { recognised: true, status: 'READY_TO_SHIP', otherOrder: '9' },
      ],
      ['in no place the settings name', { data: { id: 7, status: 'READY_TO_SHIP' } }, { recognised: false }],
    ])('reads the order %s', (_name, body, expected) => {
      expect(readMoveAnswer(body, '7', settings)).toEqual(expected);
    });
  });
});
