import { describe, expect, it } from 'vitest';
import { statusTarget } from '../../../../src/commands/customer/status-target.js';

describe('statusTarget: what customer status TARGET [STATE] means', () => {
  it.each([
    ['12345678909', 'inactive', { document: '12345678909', active: false }],
    ['10.314.187/0001-51', 'ativo', { document: '10.314.187/0001-51', active: true }],
    ['12345678909', 'sim', { document: '12345678909', active: true }],
    ['12345678909', 'Bloqueado', { document: '12345678909', active: false }],
    ['12345678909', 'LIBERADO', { document: '12345678909', active: true }],
    ['s.csv', undefined, { file: 's.csv' }],
    ['-', undefined, { file: '-' }],
    // No extension and no such path, but no document's shape either: a file, whose reader says it is missing.
    ['2024-status', undefined, { file: '2024-status' }],
  ])('%s %s is %j', (target, state, expected) => {
    expect(statusTarget(target, state)).toEqual(expected);
  });

  it.each([
    [
      '12345678909',
      undefined,
      'customer status 12345678909: the state is missing; type b2bctl customer status 12345678909 active (or inactive).',
    ],
    [
      '10.314.187/0001-51',
      undefined,
      'customer status 10.314.187/0001-51: the state is missing; type b2bctl customer status 10.314.187/0001-51 active (or inactive).',
    ],
    [
      '12.ABC.345/01DE-35',
      undefined,
      'customer status 12.ABC.345/01DE-35: the state is missing; type b2bctl customer status 12.ABC.345/01DE-35 active (or inactive).',
    ],
    [
      '12345678909',
      'maybe',
      'The state must be active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0; not "maybe".',
    ],
    // A file with a state word the run would refuse: the word is refused first, not offered in a command line.
    [
      'clientes.csv',
      'maybe',
      'The state must be active or inactive, ativo or inativo, liberado or bloqueado, true or false, sim or não, 1 or 0; not "maybe".',
    ],
    [
      'clientes.csv',
      'inactive',
      `customer status clientes.csv inactive: a file gives each customer's state in its active column, not on the command line. If clientes.csv has that column, drop "inactive": b2bctl customer status clientes.csv; if not, add it (inactive on each row) and do the same; for a list of documents alone, one a line: sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inactive/' -e '$a\\' clientes.csv > clientes-inactive.csv && b2bctl customer status clientes-inactive.csv. For one customer, give the document: b2bctl customer status 529.982.247-25 inactive.`,
    ],
    [
      '-',
      'inativo',
      `customer status - inativo: a file gives each customer's state in its active column, not on the command line. If - has that column, drop "inativo": b2bctl customer status -; if not, add it (inativo on each row) and do the same; for a list of documents alone, one a line: ... | sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,inativo/' -e '$a\\' | b2bctl customer status -. For one customer, give the document: b2bctl customer status 529.982.247-25 inativo.`,
    ],
    // A workbook gets its column in the spreadsheet: no sed line.
    [
      'clientes.xlsx',
      'inactive',
      `customer status clientes.xlsx inactive: a file gives each customer's state in its active column, not on the command line. If clientes.xlsx has that column, drop "inactive": b2bctl customer status clientes.xlsx; if not, add it (inactive on each row) and do the same. For one customer, give the document: b2bctl customer status 529.982.247-25 inactive.`,
    ],
  ])('%s %s is refused: %s', (target, state, message) => {
    expect(() => statusTarget(target, state)).toThrow(message);
  });
});
