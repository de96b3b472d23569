import { UsageError } from '../../base/errors.js';
import { shortText } from './header-messages.js';
import type { HeaderMap } from './record-shape.js';

/* `--map FILE`: the ERP's headers (or JSON keys) to field paths, `null` for a column left out on purpose. */

/** Parses a `--map` file's JSON: an object from the ERP's header to our field path. */
export function parseHeaderMap(json: unknown, file: string): HeaderMap {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new UsageError(`${file}: a --map file holds one JSON object such as {"CNPJ":"document"}.`);
  // No inherited members: a header named "constructor" must not find Object's constructor here.
  const map = Object.create(null) as HeaderMap;
  for (const [key, value] of Object.entries(json)) {
    if (value !== null && (typeof value !== 'string' || value === ''))
      throw new UsageError(
        `${file}: the mapping of "${shortText(key)}" must be a field name such as "document", or null to leave the column out.`,
      );
    map[key] = value;
  }
  return map;
}
