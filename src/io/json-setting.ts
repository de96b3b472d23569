import { InputError, UsageError } from '../base/errors.js';
import { jsonFileText } from '../lib/json-file-text.js';
import { readFileOrPipeSync } from '../lib/named-file.js';
import { printable } from '../lib/printable.js';

/** How one JSON setting names itself in errors, and how its rules read and reject it. */
export interface JsonSettingKind<T> {
  /** Names the file in a read error: "the stock schema". */
  fileLabel: string;
  /** Starts the error of a value its rules reject, before ": reason": "The stock schema from X is not usable". */
  unusable: (from: string) => string;
  parse: (value: unknown) => T;
  /** The error `parse` throws for a value its rules reject. */
  ruleError: abstract new (...args: never[]) => Error;
}

/**
 * Where a JSON setting's value came from, for its errors: a flag on the command line (`--schema FILE`), or a setting,
 * in the words Session.origin gives it (`the stock.schema setting (from B2BCTL_STOCK_SCHEMA)`). A flag's file needs
 * no more naming than the path the user just typed; a setting's file is named by the setting, which the user may not
 * remember setting.
 */
export type JsonSettingOrigin = { kind: 'flag'; flag: string; value: string } | { kind: 'setting'; described: string };

/** The origin in a message: `--schema stock.json`, or the setting's own words. */
function originInWords(origin: JsonSettingOrigin): string {
  return origin.kind === 'flag' ? `${origin.flag} ${origin.value}` : origin.described;
}

/**
 * A setting given as a file path or inline JSON (text starting with `{`), read and parsed by its rules.
 * `origin` says where it came from (a flag or a setting) for the errors of a file not read and of an unusable value.
 */
export function readJsonSetting<T>(source: string, origin: JsonSettingOrigin, kind: JsonSettingKind<T>): T {
  let text = source;
  if (!source.trim().startsWith('{')) {
    try {
      text = jsonFileText(readFileOrPipeSync(source));
    } catch (error) {
      throw new InputError(
        `${printable(source)}: cannot read ${kind.fileLabel}${origin.kind === 'flag' ? '' : `, named by ${origin.described}`} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: source, missing: true },
      );
    }
  }
  try {
    return kind.parse(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof kind.ruleError)
      throw new UsageError(`${kind.unusable(originInWords(origin))}: ${printable((error as Error).message)}`);
    throw error;
  }
}
