/**
 * The objects of NDJSON text (a command's `-o ndjson`, `--log-format json`, an errors file): one per line, the
 * trailing newline ignored. A line that is not JSON throws, so a test sees stray output rather than skipping it.
 */
export function ndjsonOf<T = unknown>(text: string): T[] {
  const trimmed = text.trimEnd();
  return trimmed === '' ? [] : trimmed.split('\n').map((line) => JSON.parse(line) as T);
}
