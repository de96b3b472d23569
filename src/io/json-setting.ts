import { InputError, UsageError } from '../base/errors.js';
import { readFileOrPipeSync } from '../lib/named-file.js';
import { printable } from '../lib/printable.js';

/** How one JSON setting names itself in errors, and how its rules read and reject it. */
export interface JsonSettingKind<T> {
  /** Names the file in a read error: "the stock schema". */
  fileLabel: string;
  /** Starts the error of a value its rules reject, before ": reason": "The stock schema from X is not usable". */
  unusable: (origin: string) => string;
  parse: (value: unknown) => T;
  /** The error `parse` throws for a value its rules reject. */
  ruleError: abstract new (...args: never[]) => Error;
}

/**
 * A setting given as a file path or inline JSON (text starting with `{`), read and parsed by its rules.
 * `origin` says where it came from (a flag or a setting) for the error of an unusable value.
 */
export function readJsonSetting<T>(source: string, origin: string, kind: JsonSettingKind<T>): T {
  let text = source;
  if (!source.trim().startsWith('{')) {
    try {
      text = readFileOrPipeSync(source).toString('utf8');
    } catch (error) {
      throw new InputError(
        `${printable(source)}: cannot read ${kind.fileLabel}${origin.startsWith('--') ? '' : `, named by ${origin}`} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: source, missing: true },
      );
    }
  }
  try {
    return kind.parse(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof kind.ruleError)
      throw new UsageError(`${kind.unusable(origin)}: ${(error as Error).message}`);
    throw error;
  }
}
