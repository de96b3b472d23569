/** The validate command a bulk run names when it prints only its first problems (src/bulk/problem-lines.ts). */
import { describe, expect, it } from 'vitest';
import { FailureReasons } from '../../../src/bulk/failure-reasons.js';
import { listingCommandLine } from '../../../src/bulk/problem-lines.js';

const noFlags = { strict: false };

describe('listingCommandLine', () => {
  it('names the verb, the file and the flags that change the verdicts', () => {
    expect(listingCommandLine({ verb: 'stock validate', flags: ['--allow-zero-price'] }, 'estoque.csv', noFlags)).toBe(
      'b2bctl stock validate estoque.csv --allow-zero-price -o csv > problems.csv',
    );
  });

  it('reads the file as the run did: its map, delimiter (a tab by name), encoding, decimal, sheet and columns', () => {
    const flags = {
      map: 'erp map.json',
      delimiter: '\t',
      encoding: 'windows-1252' as const,
      decimal: ',' as const,
      sheet: 'Plan1',
      strict: true,
      ignoreColumns: ['Obs', 'Custo'],
    };
    expect(listingCommandLine({ verb: 'customer validate', flags: ['--update'] }, 'clientes.xlsx', flags)).toBe(
      "b2bctl customer validate clientes.xlsx --map 'erp map.json' --delimiter tab --encoding windows-1252 --decimal , --sheet Plan1 --strict --ignore-column Obs --ignore-column Custo --update -o csv > problems.csv",
    );
  });

  it('of stdin: the same input piped again', () => {
    expect(listingCommandLine({ verb: 'stock validate' }, '-', noFlags)).toBe(
      'b2bctl stock validate - -o csv > problems.csv, with the same input piped into it again',
    );
  });
});

describe('FailureReasons.closingLines with a lead and a place for the rest', () => {
  it('sums up problems as it sums up failures', () => {
    const reasons = new FailureReasons();
    for (const [line, message] of [
      [102, 'price 0 refused'],
      [103, 'price 0 refused'],
      [104, 'sku missing'],
      [105, 'a'],
      [106, 'b'],
      [107, 'c'],
    ] as const)
      reasons.add({ line, outcome: 'invalid', message });
    expect(
      reasons.closingLines('problems', { toTerminal: false, lead: 'f.csv: ', listedIn: 'in the errors file' }),
    ).toEqual([
      'f.csv: 2 problems (first at line 102): price 0 refused',
      'f.csv: 1 problem (line 104): sku missing',
      'f.csv: 1 problem (line 105): a',
      'f.csv: 2 other problems: 2 other reasons, in the errors file',
    ]);
  });
});
