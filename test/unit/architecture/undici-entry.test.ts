import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The HTTP client takes undici's Pool and request from their own modules: undici's entry executes all of undici
 * (fetch, WebSocket, caches, mocks) when required, RSS every bulk run would carry to its peak (issue 14). A value
 * import of the entry here would quietly bring it back; a type import costs nothing at run time.
 */
const httpClient = resolve(__dirname, '../../../src/platform/http-client.ts');

/** The `import ... from 'undici'` statements of a source file that import values (not `import type`). */
function valueImportsOfUndiciEntry(source: string): string[] {
  return [...source.matchAll(/(?:^|\n)\s*import\s+(?!type\s)[^;]*?from\s+['"]undici['"]/g)].map((match) =>
    match[0].trim(),
  );
}

describe('the HTTP client and undici', () => {
  it('imports no value from undici’s entry', () => {
    expect(valueImportsOfUndiciEntry(readFileSync(httpClient, 'utf8'))).toEqual([]);
  });

  it.each([
    ["import { Pool, type Dispatcher } from 'undici';", 1],
    ["import { request } from 'undici';", 1],
    ["import type { Dispatcher } from 'undici';", 0],
    ["import Pool from 'undici/lib/dispatcher/pool.js';", 0],
  ])('tells a value import from a type import: %s', (line, count) => {
    expect(valueImportsOfUndiciEntry(`// header\n${line}\n`)).toHaveLength(count);
  });
});
