import { type JsonSettingOrigin, readJsonSetting } from '../io/json-setting.js';
import { readTaxShape, type TaxShape } from './shape.js';

/** A shape its rules refuse: every problem found, in one message. */
export class TaxShapeError extends Error {}

/** The shape's rules as a JSON setting's `parse`: the shape, or a TaxShapeError naming every problem. */
function parseTaxShape(json: unknown): TaxShape {
  const read = readTaxShape(json);
  if ('problems' in read) throw new TaxShapeError(read.problems.join('; '));
  return read.shape;
}

/**
 * The tax shape (`tax serve --shape`, the tax.shape setting): a file path or inline JSON, read as the other JSON
 * settings (stock.schema, orders.routes) are, so the three take the same values and fail alike: one that cannot be
 * read is exit 66 (as a `--map` file), naming the setting it came from; one that is not JSON is a wrong shape as one
 * with a wrong part is, exit 2. `doctor` reads it the same way, so it fails there as `tax serve` would.
 */
export function loadTaxShape(source: string, origin: JsonSettingOrigin): TaxShape {
  return readJsonSetting(source, origin, {
    fileLabel: 'the shape file',
    unusable: (from) => `The tax shape from ${from} is not usable`,
    parse: parseTaxShape,
    ruleError: TaxShapeError,
  });
}
