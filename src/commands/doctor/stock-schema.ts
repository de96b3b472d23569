import type { Session } from '../../config/session.js';
import { B2bctlError, ExitCode } from '../../base/errors.js';
import { loadStockSchema } from '../../io/stock-schema.js';
import type { Finding } from './findings.js';

/**
 * The stock.schema setting read as `stock push` reads it: a schema that does not read (cut JSON, a file not there)
 * failed every nightly push while doctor called the settings fit. None when the setting is not given.
 */
export function stockSchemaFindings(session: Session): Finding[] {
  const source = session.setting('stock.schema');
  if (!source.value) return [];
  try {
    loadStockSchema(source.value, { kind: 'setting', described: session.origin('stock.schema') });
  } catch (error) {
    return [
      {
        check: 'stock schema',
        result: 'fail',
        detail: (error as Error).message,
        setting: 'stock.schema',
        exitCode: error instanceof B2bctlError ? error.exitCode : ExitCode.usage,
      },
    ];
  }
  return [
    {
      check: 'stock schema',
      result: 'ok',
      detail: `reads (from ${source.source === 'env' ? 'the environment' : `the ${source.source}`})`,
      setting: 'stock.schema',
    },
  ];
}
