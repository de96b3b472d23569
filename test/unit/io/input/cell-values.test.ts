import { describe, expect, it } from 'vitest';
import {
  type DecimalSeparator,
  isSpreadsheetError,
  parseActiveState,
  parseBoolean,
  parseDecimal,
  parseList,
  parseWholeNumber,
} from '../../../../src/io/input/cell-values.js';

describe('parseBoolean', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['1', true],
    ['sim', true],
    ['SIM', true],
    ['Sim', true],
    ['yes', true],
    ['YES', true],
    [' true ', true],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['não', false],
    ['NÃO', false],
    ['Não', false],
    ['nao', false],
    ['NAO', false],
    ['no', false],
    ['No', false],
    ['\tfalse\t', false],
  ])('%j is %s', (text, expected) => {
    expect(parseBoolean(text)).toBe(expected);
  });

  it.each(['', ' ', 'maybe', '2', '-1', 'talvez', 'truee', 'ativo', '1.0', 'null'])('%j is no boolean', (text) => {
    expect(parseBoolean(text)).toBeUndefined();
  });
});

describe('parseActiveState', () => {
  it.each([
    ['Ativo', true],
    ['ATIVA', true],
    ['ativado', true],
    ['Liberado', true],
    ['desbloqueada', true],
    ['active', true],
    ['sim', true],
    ['Inativo', false],
    ['desativado', false],
    ['Bloqueado', false],
    ['BLOQUEADA', false],
    ['inactive', false],
    ['0', false],
  ])('%j is %s', (text, expected) => {
    expect(parseActiveState(text)).toBe(expected);
  });

  it.each(['', 'talvez', 'pendente', 'suspenso'])('%j is no state', (text) => {
    expect(parseActiveState(text)).toBeUndefined();
  });
});

describe('isSpreadsheetError', () => {
  // Excel's in English and pt-BR, LibreOffice's Err:NNN, as their CSV exports write them.
  it.each([
    '#NAME?',
    '#NOME?',
    '#N/A',
    '#N/D',
    '#VALUE!',
    '#VALOR!',
    '#REF!',
    '#DIV/0!',
    '#NÚM!',
    'Err:509',
    ' #nome? ',
  ])('%j is one', (text) => {
    expect(isSpreadsheetError(text)).toBe(true);
  });

  it.each(['', 'Ana', '#1', '#PV-2026', 'Err:5', 'Erro: sem estoque', 'N/D', '#NOME? e mais', 'E'])(
    '%j is none',
    (text) => {
      expect(isSpreadsheetError(text)).toBe(false);
    },
  );
});

describe('parseDecimal', () => {
  it.each<[string, DecimalSeparator, number | undefined]>([
    // Decimal comma: pt-BR Excel.
    ['1.234,56', ',', 1234.56],
    ['1234,56', ',', 1234.56],
    ['12,5', ',', 12.5],
    ['0,99', ',', 0.99],
    ['-3', ',', -3],
    ['+4', ',', 4],
    ['-1.234,5', ',', -1234.5],
    ['1.234', ',', 1234],
    ['1.234.567', ',', 1234567],
    ['1.234.567,89', ',', 1234567.89],
    ['  7,25  ', ',', 7.25],
    ['0', ',', 0],
    ['12.5', ',', undefined],
    ['1.23', ',', undefined],
    ['1234.567', ',', undefined],
    ['1,234.56', ',', undefined],
    ['1.2345,6', ',', undefined],
    ['12,', ',', undefined],
    [',5', ',', undefined],
    ['1,2,3', ',', undefined],
    // Decimal point: en-US.
    ['12.5', '.', 12.5],
    ['-3', '.', -3],
    ['+4', '.', 4],
    ['1234.56', '.', 1234.56],
    ['0.5', '.', 0.5],
    [' 42 ', '.', 42],
    ['1.234,56', '.', undefined],
    ['12,5', '.', undefined],
    ['1,234', '.', undefined],
    ['1.2.3', '.', undefined],
    ['.5', '.', undefined],
    ['5.', '.', undefined],
    // Not numbers with either separator.
    ['', ',', undefined],
    ['', '.', undefined],
    ['abc', ',', undefined],
    ['abc', '.', undefined],
    ['1e3', '.', undefined],
    ['0x10', '.', undefined],
    ['R$ 10', ',', undefined],
    ['Infinity', '.', undefined],
    ['NaN', '.', undefined],
    ['- 3', '.', undefined],
  ])('%j with %j → %s', (text, decimal, expected) => {
    expect(parseDecimal(text, decimal)).toBe(expected);
  });
});

describe('parseWholeNumber', () => {
  it.each<[string, DecimalSeparator, number | undefined]>([
    ['42', '.', 42],
    ['42', ',', 42],
    ['-7', '.', -7],
    ['+7', ',', 7],
    ['1.234', ',', 1234],
    ['1.234.567', ',', 1234567],
    ['10,0', ',', 10],
    ['10.0', '.', 10],
    ['1.234', '.', undefined],
    ['12,5', ',', undefined],
    ['12.5', '.', undefined],
    ['1,234', '.', undefined],
    ['', ',', undefined],
    ['dez', ',', undefined],
  ])('%j with %j → %s', (text, decimal, expected) => {
    expect(parseWholeNumber(text, decimal)).toBe(expected);
  });
});

describe('parseList', () => {
  it.each<[string, string[]]>([
    ['Atacado|Sul', ['Atacado', 'Sul']],
    ['Atacado', ['Atacado']],
    [' Atacado | Sul ', ['Atacado', 'Sul']],
    ['Atacado||Sul|', ['Atacado', 'Sul']],
    ['|', []],
    ['', []],
    ['  ', []],
    ['a,b|c;d', ['a,b', 'c;d']],
    ['Região Sul|São Paulo', ['Região Sul', 'São Paulo']],
  ])('%j → %j', (text, expected) => {
    expect(parseList(text)).toEqual(expected);
  });
});

describe('parseDecimal refuses numbers a double cannot hold as written', () => {
  it.each<[string, DecimalSeparator]>([
    ['99999999999999999999.99', '.'],
    ['9007199254740993', '.'],
    ['1.234.567.890.123.456,78', ','],
  ])('%s', (text, decimal) => {
    expect(parseDecimal(text, decimal)).toBeUndefined();
  });

  it.each<[string, DecimalSeparator, number]>([
    ['999999999999999', '.', 999999999999999],
    ['0.000000000000000001', '.', 1e-18],
    ['1.234.567,89', ',', 1234567.89],
  ])('%s is still a number', (text, decimal, expected) => {
    expect(parseDecimal(text, decimal)).toBe(expected);
  });
});
