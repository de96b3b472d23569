import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeCep } from '../../domain/cep.js';

/** What the postal-code lookup knows of a CEP; empty strings where it has no data (single-CEP towns). */
export interface CepEntry {
  cep: string;
  street: string;
  quarter: string;
  city: string;
  state: string;
}

/** The sandbox's stand-in for the external lookup service, keyed by `NNNNN-NNN`. */
export type CepTable = ReadonlyMap<string, CepEntry>;

/** `ceps.json` of the seed folder (an array of entries); an empty table when the folder has none. */
export function loadCepTable(seedDirectory: string): CepTable {
  const file = join(seedDirectory, 'ceps.json');
  if (!existsSync(file)) return new Map();
  const entries = JSON.parse(readFileSync(file, 'utf8')) as Partial<CepEntry>[];
  const table = new Map<string, CepEntry>();
  for (const entry of entries) {
    const check = normalizeCep(String(entry.cep ?? ''));
    if (!check.ok) throw new Error(`${file}: CEP ${String(entry.cep)}: ${check.reason}`);
    table.set(check.cep, {
      cep: check.cep,
      street: entry.street ?? '',
      quarter: entry.quarter ?? '',
      city: entry.city ?? '',
      state: entry.state ?? '',
    });
  }
  return table;
}
