import { describe, expect, it } from 'vitest';
import { fieldForHeader } from '../../../src/domain/header-aliases.js';

const customerPaths = ['document', 'username', 'phone', 'name', 'customerRegistrationAddress.zipcode'];
const stockPaths = ['sku', 'quantity', 'price', 'salePrice', 'warehouse'];

describe('fieldForHeader', () => {
  it.each([
    ['CNPJ', customerPaths, 'document'],
    ['CPF', customerPaths, 'document'],
    ['CPF/CNPJ', customerPaths, 'document'],
    ['E-mail', customerPaths, 'username'],
    ['cep', customerPaths, 'customerRegistrationAddress.zipcode'],
    [' Telefone ', customerPaths, 'phone'],
    ['Razão Social', customerPaths, 'name'],
    ['Código', stockPaths, 'sku'],
    ['Qtde', stockPaths, 'quantity'],
    ['Preço', stockPaths, 'price'],
  ])('%s → %s', (header, paths, expected) => {
    expect(fieldForHeader(header, paths)).toBe(expected);
  });

  it('suggests only a field the input accepts', () => {
    expect(fieldForHeader('CNPJ', stockPaths)).toBeUndefined();
    expect(fieldForHeader('Qtde', customerPaths)).toBeUndefined();
  });

  it('knows nothing of a header whose meaning is not plain', () => {
    expect(fieldForHeader('Observações', customerPaths)).toBeUndefined();
  });
});
