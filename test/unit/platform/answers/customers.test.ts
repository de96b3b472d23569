import { describe, expect, it } from 'vitest';
import {
  activeShownOtherwise,
  linksShownEmpty,
  otherCustomersDocument,
  readCustomerRecord,
} from '../../../../src/platform/answers/customers.js';

describe('readCustomerRecord', () => {
  const record = { id: 1, document: '100.007.919-89' };
  it.each([
    ['the record at the root', record, record],
    ['a record showing only its document', { document: '1' }, { document: '1' }],
    ['the record in data', { data: record, success: true }, record],
    ['the record in customer', { customer: record }, record],
    ['the record in cliente', { cliente: record }, record],
    ['the record in content', { content: record }, record],
    ['the record in result', { result: record }, record],
    ['an object showing neither, no envelope', { email: 'a@b.c' }, { email: 'a@b.c' }],
  ])('reads %s', (_name, body, expected) => {
    expect(readCustomerRecord(body)).toEqual(expected);
  });

  it.each([
    ['no body (204)', undefined],
    ['null', null],
    ['[]', []],
    ['text', 'ok'],
  ])('reads no record in %s', (_name, body) => {
    expect(readCustomerRecord(body)).toBeUndefined();
  });
});

describe('otherCustomersDocument', () => {
  const maria = '100.007.919-89';
  it.each([
    ['the same document', { document: maria }, maria, undefined],
    ['the same digits, other punctuation', { document: '10000791989' }, maria, undefined],
    ['an alphanumeric CNPJ in another case', { document: '12.abc.345/01de-35' }, '12.ABC.345/01DE-35', undefined],
    ['no document shown', { id: 77 }, maria, undefined],
    ['not a record', undefined, maria, undefined],
    ['another document', { document: '529.982.247-25' }, maria, '529.982.247-25'],
  ])('%s', (_name, record, sent, expected) => {
    expect(otherCustomersDocument(record, sent)).toBe(expected);
  });
});

describe('activeShownOtherwise', () => {
  it.each([
    ['true after false sent', { active: true }, false, { name: 'active', shown: true }],
    ['false after true sent', { active: false }, true, { name: 'active', shown: false }],
    ['the active sent', { active: false }, false, undefined],
    ['Portuguese ativo, true after false sent', { ativo: true }, false, { name: 'ativo', shown: true }],
    ['Portuguese ativo, the value sent', { ativo: false }, false, undefined],
    ['active agreeing, ativo not', { active: false, ativo: true }, false, { name: 'ativo', shown: true }],
    ['no active', { document: '1' }, false, undefined],
    ['active as text', { active: 'true' }, false, { name: 'active', shown: 'true' }],
    ['ativo as a flag letter, S after false sent', { ativo: 'S' }, false, { name: 'ativo', shown: 'S' }],
    ['ativo as a state word, the value sent', { ativo: 'Inativo' }, false, undefined],
    ['active in other words', { active: 'pendente' }, false, undefined],
    ['nothing sent', { active: true }, undefined, undefined],
    ['no record', undefined, false, undefined],
  ])('%s', (_name, record, sent, expected) => {
    expect(activeShownOtherwise(record, sent)).toEqual(expected);
  });
});

describe('linksShownEmpty', () => {
  const sent = { customerGroupList: ['Sul'], priceRuleTags: ['Promocional'] };
  it.each([
    ['both shown null', { customerGroupList: null, priceRuleTag: null }, ['customerGroupList', 'priceRuleTags']],
    ['groups shown []', { customerGroupList: [], priceRuleTag: [{ id: 1 }] }, ['customerGroupList']],
    ['tags under the request name, null', { priceRuleTags: null }, ['priceRuleTags']],
    ['both shown linked', { customerGroupList: [{ id: 1 }], priceRuleTag: [{ id: 2 }] }, []],
    ['neither shown', { id: 1 }, []],
    ['no record', undefined, []],
  ])('%s', (_name, record, expected) => {
    expect(linksShownEmpty(sent, record)).toEqual(expected);
  });

  it('names nothing the request did not set', () => {
    expect(linksShownEmpty({ customerGroupList: [] }, { customerGroupList: null, priceRuleTag: null })).toEqual([]);
  });
});
