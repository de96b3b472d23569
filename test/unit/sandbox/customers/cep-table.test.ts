import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCepTable } from '../../../../src/sandbox/customers/cep-table.js';
import { isFederativeUnit } from '../../../../src/domain/brazil-codes.js';
import { temporaryFolder } from '../../../support/temporary.js';

const seedDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'samples');
const folder = temporaryFolder('b2bctl-ceps-');

describe('the CEP table shipped in samples/', () => {
  const table = loadCepTable(seedDirectory);

  it('holds at least 30 CEPs, the ten of docs/brazil.md among them', () => {
    expect(table.size).toBeGreaterThanOrEqual(30);
    const documented = [
      '01001-000',
      '01310-100',
      '22041-001',
      '70100-000',
      '80010-010',
      '40140-650',
      '50030-320',
      '30130-100',
      '90619-900',
      '69020-060',
    ];
    expect(documented.filter((cep) => !table.has(cep))).toEqual([]);
    expect(table.get('01001-000')).toEqual({
      cep: '01001-000',
      street: 'Praça da Sé',
      quarter: 'Sé',
      city: 'São Paulo',
      state: 'SP',
    });
  });

  it('has single-CEP towns with city and state but no street or quarter, for the fallback rules', () => {
    const towns = [...table.values()].filter((entry) => entry.street === '' && entry.quarter === '');
    expect(towns.length).toBeGreaterThanOrEqual(3);
    expect(towns.filter((town) => town.city === '' || !isFederativeUnit(town.state))).toEqual([]);
  });

  it('gives every entry a UF and, but for towns, a street and quarter', () => {
    const incomplete = [...table.values()].filter(
      (entry) =>
        !isFederativeUnit(entry.state) || entry.city === '' || (entry.street === '') !== (entry.quarter === ''),
    );
    expect(incomplete).toEqual([]);
  });
});

describe('loadCepTable', () => {
  it('is empty for a folder without ceps.json', () => {
    expect(loadCepTable(folder).size).toBe(0);
  });

  it('accepts 8-digit CEPs and names a bad one', () => {
    const good = mkdtempSync(join(folder, 'good-'));
    writeFileSync(
      join(good, 'ceps.json'),
      JSON.stringify([{ cep: '01001000', street: 'Praça da Sé', quarter: 'Sé', city: 'São Paulo', state: 'SP' }]),
    );
    expect([...loadCepTable(good).keys()]).toEqual(['01001-000']);
    const bad = mkdtempSync(join(folder, 'bad-'));
    writeFileSync(join(bad, 'ceps.json'), JSON.stringify([{ cep: '1001000' }]));
    expect(() => loadCepTable(bad)).toThrow('CEP 1001000: 7 digits');
  });
});
