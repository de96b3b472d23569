import { describe, expect, it } from 'vitest';
import { fieldForHeader, fieldSpelledAs, headerCaution, proposeHeaderMap } from '../../../src/domain/header-aliases.js';
import { customerFieldPaths } from '../../../src/domain/customer-fields.js';

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

  it.each([
    ['Razão Social / Nome', 'name'],
    ['Razao social', 'name'],
    ['Nome/Razão Social', 'name'],
    ['RAZAO_SOCIAL', 'name'],
    ['Contribuinte ICMS', 'paysIcms'],
    ['Contribuinte do ICMS', 'paysIcms'],
    ['N Fantasia', 'tradingName'],
    ['Ins. Estad.', 'stateRegistration'],
    ['telefone1_numero', 'phone'],
  ])("the ERPs' %s → %s", (header, expected) => {
    expect(fieldForHeader(header, customerFieldPaths.create)).toBe(expected);
  });

  it('suggests only a field the input accepts', () => {
    expect(fieldForHeader('CNPJ', stockPaths)).toBeUndefined();
    expect(fieldForHeader('Qtde', customerPaths)).toBeUndefined();
  });

  it('knows nothing of a header whose meaning is not plain', () => {
    expect(fieldForHeader('Observações', customerPaths)).toBeUndefined();
  });
});

describe('the headers of a tax table and of a cart', () => {
  const tableFields = ['ncm', 'from', 'to', 'buyer', 'icmsRate', 'icmsBaseReduction', 'ipiRate', 'mva'].concat([
    'destinationRate',
    'fcpRate',
  ]);
  const cartFields = ['sku', 'ncm', 'quantity', 'unitPrice', 'discount', 'freight'];
  it.each([
    ['NCM/SH', 'ncm'],
    ['UF origem', 'from'],
    ['UF de destino', 'to'],
    ['Contribuinte', 'buyer'],
    ['Alíquota ICMS', 'icmsRate'],
    ['pICMS', 'icmsRate'],
    ['Redução BC', 'icmsBaseReduction'],
    ['pRedBC', 'icmsBaseReduction'],
    ['Alíquota IPI', 'ipiRate'],
    ['MVA original', 'mva'],
    ['Alíquota interna destino', 'destinationRate'],
    ['pICMSUFDest', 'destinationRate'],
    ['FCP', 'fcpRate'],
    ['pFCPUFDest', 'fcpRate'],
  ])('a tax table: %s → %s', (header, expected) => {
    expect(fieldForHeader(header, tableFields)).toBe(expected);
  });

  it.each([
    ['Código', 'sku'],
    ['Qtde', 'quantity'],
    ['Preço', 'unitPrice'],
    ['Valor unitário', 'unitPrice'],
    ['vUnCom', 'unitPrice'],
    ['Desconto', 'discount'],
    ['Frete', 'freight'],
  ])('a cart: %s → %s', (header, expected) => {
    expect(fieldForHeader(header, cartFields)).toBe(expected);
  });

  it("does not take an NF-e's pMVAST for the original MVA: it is the adjusted one between states", () => {
    expect(fieldForHeader('pMVAST', tableFields)).toBeUndefined();
  });

  // A user test: `MVA-ST` was read as the original MVA and adjusted a second time.
  it.each(['MVA-ST', 'MVA ST', '% MVA', 'MVA ST %'])(
    'does not take %s for the original MVA: ERPs label the MVA applied so',
    (header) => {
      expect(fieldForHeader(header, tableFields)).toBeUndefined();
      expect(fieldSpelledAs(header, tableFields)).toBeUndefined();
      expect(headerCaution(header, tableFields)?.field).toBe('mva');
    },
  );

  it('still reads a column named mva (the field itself) and MVA original as mva', () => {
    expect(fieldSpelledAs('mva', tableFields)).toBe('mva');
    expect(fieldSpelledAs('MVA', tableFields)).toBe('mva');
    expect(fieldForHeader('MVA original', tableFields)).toBe('mva');
  });

  it('keeps Contribuinte and Preço for a customer and a stock file', () => {
    expect(fieldForHeader('Contribuinte', customerFieldPaths.create)).toBe('paysIcms');
    expect(fieldForHeader('Preço', stockPaths)).toBe('price');
  });
});

describe('the ERP headers of a pt-BR customer export', () => {
  const customerFields = customerFieldPaths.create;
  const expected: [string, string][] = [
    ['CPF/CNPJ', 'document'],
    ['CNPJ/CPF', 'document'],
    ['Razão Social', 'name'],
    ['Nome', 'name'],
    ['Nome Fantasia', 'tradingName'],
    ['Contato', 'contactName'],
    ['E-mail', 'username'],
    ['Telefone', 'phone'],
    ['Celular', 'phone'],
    ['CEP', 'customerRegistrationAddress.zipcode'],
    ['Logradouro', 'customerRegistrationAddress.street'],
    ['Endereço', 'customerRegistrationAddress.street'],
    ['Número', 'customerRegistrationAddress.number'],
    ['Complemento', 'customerRegistrationAddress.complement'],
    ['Bairro', 'customerRegistrationAddress.quarter'],
    ['Cidade', 'customerRegistrationAddress.city'],
    ['Município', 'customerRegistrationAddress.city'],
    ['UF', 'customerRegistrationAddress.state'],
    ['Estado', 'customerRegistrationAddress.state'],
    ['Inscrição Estadual', 'stateRegistration'],
    ['Tipo Pessoa', 'documentType'],
  ];
  it.each(expected)('%s, with or without accents, in any case → %s', (header, field) => {
    const variants = [header, withoutAccents(header), header.toUpperCase(), withoutAccents(header).toLowerCase()];
    expect(variants.map((variant) => [variant, fieldForHeader(variant, customerFields)])).toEqual(
      variants.map((variant) => [variant, field]),
    );
  });

  it('proposes each field once, in column order, and names the headers it cannot map', () => {
    expect(proposeHeaderMap(['Telefone', 'Celular', 'Observações', 'CEP'], customerFields, ['document'])).toEqual({
      mapped: [
        ['Telefone', 'phone'],
        ['CEP', 'customerRegistrationAddress.zipcode'],
      ],
      unmapped: ['Celular', 'Observações'],
      taken: ['document'],
      // Celular would be the phone too: the column that took it is named.
      rivals: { Celular: ['Telefone', 'phone'] },
    });
    // A field another column already feeds is not proposed again.
    expect(proposeHeaderMap(['CPF'], customerFields, ['document'])).toEqual({
      mapped: [],
      unmapped: ['CPF'],
      taken: ['document'],
      rivals: {},
    });
  });
});

function withoutAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

describe('fieldSpelledAs: a field name in another case or spacing is that field', () => {
  it.each([
    ['SKU', stockPaths, 'sku'],
    ['Sku', stockPaths, 'sku'],
    [' sku ', stockPaths, 'sku'],
    ['Sale Price', stockPaths, 'salePrice'],
    ['CUSTOMERREGISTRATIONADDRESS.ZIPCODE', customerPaths, 'customerRegistrationAddress.zipcode'],
    ['Código', stockPaths, undefined],
    ['skus', stockPaths, undefined],
  ])('%s → %s', (header, paths, expected) => {
    expect(fieldSpelledAs(header, paths)).toBe(expected);
  });
});
