import { InvalidArgumentError } from 'commander';

/** A flag value that must be a whole number, at least `minimum`; anything else is a usage error (exit 2). */
export function wholeNumber(minimum = 0): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < minimum) {
      throw new InvalidArgumentError(
        `expected a whole number${minimum > 0 ? ` of at least ${minimum}` : ' (0 or more)'}.`,
      );
    }
    return Number(value);
  };
}

/** A flag value that must be a share between 0 and 1, such as 0.05. */
export function fraction(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1, such as 0.05.');
  }
  return number;
}

/** A flag value that must be a positive number, such as a rate of 2.5 requests per second. */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError('expected a number above 0, such as 20 or 2.5.');
  }
  return number;
}

/** `--delimiter`: one character, or the words `tab`, `comma`, `semicolon`. */
export function delimiter(value: string): string {
  const named: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';' };
  const chosen = named[value.toLowerCase()] ?? value;
  if (chosen.length !== 1) throw new InvalidArgumentError('expected one character, or tab, comma or semicolon.');
  return chosen;
}

/** A flag value that must be an absolute http:// or https:// URL. */
export function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError('expected an http:// or https:// URL, such as http://127.0.0.1:8788.');
}
