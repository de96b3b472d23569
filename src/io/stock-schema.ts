import { readFileSync } from 'node:fs';
import { defaultStockSchema, parseStockSchema, StockSchemaError, type StockSchema } from '../domain/stock.js';
import { InputError, UsageError } from '../errors.js';

/**
 * The wire field names: `--schema FILE`, else the `stock.schema` setting (a file path or inline JSON), else our defaults.
 * Lives in io/ because both `stock push` and the sandbox command read a schema, and neither may import the other.
 */
export function loadStockSchema(source: string | undefined, origin: string): StockSchema {
  if (!source) return defaultStockSchema;
  let text = source;
  if (!source.trim().startsWith('{')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      throw new InputError(
        `${source}: cannot read the stock schema (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: source, missing: true },
      );
    }
  }
  try {
    return parseStockSchema(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof StockSchemaError)
      throw new UsageError(`The stock schema from ${origin} is not usable: ${error.message}`);
    throw error;
  }
}
