/**
 * The shape of one setting, in its own module so that the rooms declaring settings of their own (the answer
 * shapes in src/platform/answers/) and the settings table import it without importing each other.
 */
export interface SettingDefinition {
  key: string;
  description: string;
  env?: string;
  defaultValue?: string;
  /** Never printed, never settable with `config set` (use `login`). */
  secret?: boolean;
  /** Written by `login`, shown by `config`, not set by hand. */
  managed?: boolean;
  allowed?: readonly string[];
  /** Checks a value given with `config set`; returns a problem or undefined. */
  check?: (value: string) => string | undefined;
}
