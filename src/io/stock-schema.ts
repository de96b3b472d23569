import { defaultStockSchema, parseStockSchema, StockSchemaError, type StockSchema } from '../domain/stock.js';
import { type JsonSettingOrigin, readJsonSetting } from './json-setting.js';

/**
 * The wire field names: `--schema FILE`, else the `stock.schema` setting (a file path or inline JSON), else our defaults.
 * Lives in io/ because both `stock push` and the sandbox command read a schema, and neither may import the other.
 */
export function loadStockSchema(source: string | undefined, origin: JsonSettingOrigin): StockSchema {
  if (!source) return defaultStockSchema;
  return readJsonSetting(source, origin, {
    fileLabel: 'the stock schema',
    unusable: (from) => `The stock schema from ${from} is not usable`,
    parse: parseStockSchema,
    ruleError: StockSchemaError,
  });
}
