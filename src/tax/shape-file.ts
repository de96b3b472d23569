import { readRegularFile } from '../lib/named-file.js';
import { InputError, UsageError } from '../base/errors.js';
import { jsonFileText } from '../lib/json-file-text.js';
import { printable } from '../lib/printable.js';
import { readTaxShape, type TaxShape } from './shape.js';

/**
 * A tax shape file (`tax serve --shape`, the tax.shape setting): one that cannot be read is exit 66 (as a `--map`
 * file); one that is not JSON is a wrong shape as one with a wrong part is, exit 2, so a bad shape file has one exit
 * code (it was 65 when its JSON was cut). `doctor` reads it the same way, so it fails there as `tax serve` would.
 */
export async function readShapeFile(path: string): Promise<TaxShape> {
  let text: string;
  try {
    text = jsonFileText(await readRegularFile(path));
  } catch (error) {
    throw new InputError(
      `${printable(path)}: cannot read the shape file (${(error as NodeJS.ErrnoException).code ?? printable((error as Error).message)}).`,
      { file: path, missing: true },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${printable(path)}: the shape file is not JSON (${(error as Error).message}).`);
  }
  const read = readTaxShape(json);
  if ('problems' in read) throw new UsageError(`${printable(path)}: ${read.problems.join('; ')}.`);
  return read.shape;
}
