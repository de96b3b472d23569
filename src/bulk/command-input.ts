import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { InputError } from '../errors.js';
import { type FieldCatalogue } from '../io/input/record-shape.js';
import { openInput, parseHeaderMap, type OpenedInput } from '../io/input/open-input.js';
import type { InputFlags } from './flags.js';

/** Opens a command's input with its reading flags; `--map` is loaded here so every command reads it alike. */
export async function openCommandInput(
  context: Context,
  path: string,
  flags: InputFlags,
  catalogue: FieldCatalogue,
  options: { quietWarnings?: boolean } = {},
): Promise<OpenedInput> {
  let headerMap: Record<string, string> | undefined;
  if (flags.map) {
    let text: string;
    try {
      text = await readFile(flags.map, 'utf8');
    } catch (error) {
      throw new InputError(
        `${flags.map}: cannot read the --map file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: flags.map, missing: true },
      );
    }
    try {
      headerMap = parseHeaderMap(JSON.parse(text), flags.map);
    } catch (error) {
      if (error instanceof SyntaxError)
        throw new InputError(`${flags.map}: the --map file is not valid JSON (${error.message}).`, { file: flags.map });
      throw error;
    }
  }
  return openInput({
    path,
    stdin: context.io.stdin,
    catalogue,
    encoding: flags.encoding,
    delimiter: flags.delimiter,
    decimal: flags.decimal,
    headerMap,
    strict: flags.strict,
    warn: options.quietWarnings ? () => {} : (message) => context.log.warn(message),
  });
}
