/**
 * A JSON setting's errors name where its value came from: a flag by itself and its value, a setting in its own words.
 * A file a flag names is not named again ("named by"); one a setting names is, the user may not remember setting it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrderRoutes } from '../../../src/io/order-routes-file.js';
import { loadStockSchema } from '../../../src/io/stock-schema.js';
import { freshWorkDir } from '../../support/cli.js';

const fromEnvironment = 'the stock.schema setting (from B2BCTL_STOCK_SCHEMA)';

describe('readJsonSetting: the origin in its errors', () => {
  it('a file not read: a flag\u2019s is named by its path alone, a setting\u2019s by the setting too', () => {
    const missing = join(freshWorkDir(), 'schema.json');
    expect(() => loadStockSchema(missing, { kind: 'flag', flag: '--schema', value: missing })).toThrow(
      `${missing}: cannot read the stock schema (ENOENT).`,
    );
    expect(() => loadStockSchema(missing, { kind: 'setting', described: fromEnvironment })).toThrow(
      `${missing}: cannot read the stock schema, named by ${fromEnvironment} (ENOENT).`,
    );
  });

  it('a value its rules reject: "from" the flag and its value, or from the setting in its words', () => {
    expect(() => loadStockSchema('{bad', { kind: 'flag', flag: '--schema', value: '{bad' })).toThrow(
      /^The stock schema from --schema \{bad is not usable: /,
    );
    expect(() => loadStockSchema('{bad', { kind: 'setting', described: fromEnvironment })).toThrow(
      /^The stock schema from the stock\.schema setting \(from B2BCTL_STOCK_SCHEMA\) is not usable: /,
    );
    expect(() => loadOrderRoutes('{"ship": 1}', { kind: 'flag', flag: '--routes', value: 'rotas.json' })).toThrow(
      /^The order routes from --routes rotas\.json are not usable: /,
    );
  });
});

describe('readJsonSetting: a file saved by Notepad', () => {
  it.each([
    ['UTF-16 LE with a BOM ("Unicode")', Buffer.from('\ufeff{ }', 'utf16le')],
    ['UTF-16 BE with a BOM', Buffer.from('\ufeff{ }', 'utf16le').swap16()],
    ['UTF-8 with a BOM', Buffer.from('\ufeff{ }', 'utf8')],
  ])('an order routes file in %s reads as the UTF-8 one', (_, bytes) => {
    const file = join(freshWorkDir(), 'rotas.json');
    writeFileSync(file, bytes);
    const origin = { kind: 'flag', flag: '--routes', value: file } as const;
    expect(() => loadOrderRoutes(file, origin)).not.toThrow();
    writeFileSync(file, Buffer.from('{ }'));
    const plain = loadOrderRoutes(file, origin);
    writeFileSync(file, bytes);
    expect(loadOrderRoutes(file, origin)).toEqual(plain);
  });
});
