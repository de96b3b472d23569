/**
 * The shape of one setting, in its own module so that the rooms declaring settings of their own (the answer
 * shapes in src/platform/answers/) and the settings table import it without importing each other.
 */

/**
 * A parsed value, or what is wrong with the text in words that follow the key ("must be a whole number"), and
 * where the text itself shows the fix, a sentence saying it ("It has no scheme: did you mean https://…?").
 */
export type ParsedSetting<Value> = { ok: true; value: Value } | { ok: false; problem: string; hint?: string };

/**
 * How a setting's text (from a flag, the environment or the profile) becomes its typed value. The same parser
 * checks `config set` and every read, so a value `config set` accepts is one every command can use.
 */
export interface SettingParser<Value> {
  /** What the value must look like, for help and the README: "whole number", "json, form or basic". */
  readonly expects: string;
  parse(text: string): ParsedSetting<Value>;
}

export interface SettingDefinition<Key extends string = string, Value = unknown> {
  key: Key;
  description: string;
  env?: string;
  /** Written as a person would type it, and read through the parser like any other value. */
  defaultValue?: string;
  /** Absent: free text, taken as written. */
  parser?: SettingParser<Value>;
  /** Never printed, never settable with `config set` (use `login`). */
  secret?: boolean;
  /** Written by `login`, shown by `config`, not set by hand. */
  managed?: boolean;
}
