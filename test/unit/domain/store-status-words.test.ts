import { describe, expect, it } from 'vitest';
import { orderStatusOf } from '../../../src/domain/order-stages.js';
import { parseStoreStatusWords } from '../../../src/domain/store-status-words.js';

function wordsOf(text: string) {
  const read = parseStoreStatusWords(text);
  if ('problem' in read) throw new Error(read.problem);
  return read.words;
}

describe('parseStoreStatusWords', () => {
  it('reads THEIRS=OURS entries whatever their case and spacing, CANCELLED as CANCELED', () => {
    expect([...wordsOf(' pronto para envio = ready-to-ship , Cancelado=cancelled,ENVIADO=SHIPPED ').entries()]).toEqual(
      [
        ['PRONTO_PARA_ENVIO', 'READY_TO_SHIP'],
        ['CANCELADO', 'CANCELED'],
        ['ENVIADO', 'SHIPPED'],
      ],
    );
  });
  it('takes a word given twice for one stage, and a word of b2bctl mapped to its own stage', () => {
    expect(wordsOf('CANCELADO=CANCELED,cancelado=CANCELED,SHIPPED=SHIPPED').size).toBe(2);
  });
  it.each([
    [
      'CANCELADO=GONE',
      /^maps CANCELADO to "GONE", which is no stage of b2bctl's: each entry is THEIRS=OURS, OURS one of AWAITING_PAYMENT, READY_TO_SHIP, INVOICED, SHIPPED, DELIVERED, CANCELED$/,
    ],
    ['', /^has an empty entry/],
    ['A=CANCELED,', /^has an empty entry/],
    ['CANCELADO', /^has the entry "CANCELADO"/],
    ['=CANCELED', /names no word of the store's/],
    ['A=B=C', /^has the entry "A=B=C"/],
    ['X=CANCELED,x=SHIPPED', /^maps X twice, to CANCELED and to SHIPPED/],
    ['CANCELLED=SHIPPED', /^maps CANCELLED, a word b2bctl reads as CANCELED already, to SHIPPED$/],
  ])('refuses %j', (text, problem) => {
    const read = parseStoreStatusWords(text);
    expect('problem' in read && read.problem).toMatch(problem);
  });
});

describe('orderStatusOf with a store’s words', () => {
  const words = wordsOf('CANCELADO=CANCELED,PRONTO_PARA_ENVIO=READY_TO_SHIP');
  it.each([
    ['CANCELADO', 'CANCELED'],
    ['cancelado', 'CANCELED'],
    ['pronto-para-envio', 'READY_TO_SHIP'],
    [{ code: 'CANCELADO', name: 'Cancelado' }, 'CANCELED'],
    ['SHIPPED', 'SHIPPED'],
    ['FATURADO', 'FATURADO'],
  ])('%j is %j', (value, status) => {
    expect(orderStatusOf(value, words)).toBe(status);
  });
  it('without them, a store’s word stays as written', () => {
    expect(orderStatusOf('CANCELADO')).toBe('CANCELADO');
  });
});
