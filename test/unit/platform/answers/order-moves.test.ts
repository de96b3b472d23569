import { describe, expect, it } from 'vitest';
import { readMoveAnswer } from '../../../../src/platform/answers/order-moves.js';

describe('readMoveAnswer', () => {
  it.each([
    ['an empty body (204)', undefined, { recognised: true }],
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
    ['success false', { success: false }],
  ])('does not recognise %s (the command accepts the 2xx and warns)', (_name, body) => {
    expect(readMoveAnswer(body)).toEqual({ recognised: false });
  });
});
