import { readdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Under the tests, b2bctl's threads run its TypeScript sources as Node runs them: by stripping the types
 * (src/base/thread-from-sources.ts), with Node's own parser, not tsc's. A source tsc takes and that parser does not
 * (a parameter's default holding `in` after a type annotation: `x: T | undefined = a in b ? …`) failed every test
 * that ran a thread reaching it, with the parser's bare "Expected ',', got 'in'", and only once an unrelated change
 * brought the module into a thread's imports. Every source is held to the stripper here, where the failure names the
 * file. Node lines without `module.stripTypeScriptTypes` skip, saying why.
 */
const root = resolve(__dirname, '../../..');
const strip = (nodeModule as { stripTypeScriptTypes?: (source: string) => string }).stripTypeScriptTypes;

function sources(): string[] {
  return readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .toSorted();
}

describe('every source runs as Node strips it', () => {
  it.skipIf(strip === undefined)(
    'module.stripTypeScriptTypes takes every file of src/ (skipped where this Node line has none)',
    () => {
      const refused: string[] = [];
      const originalEmit = process.emitWarning;
      // The stripper is experimental on some lines and says so once per process: not this test's concern.
      process.emitWarning = () => {};
      try {
        for (const file of sources()) {
          try {
            strip?.(readFileSync(join(root, file), 'utf8'));
          } catch (error) {
            refused.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      } finally {
        process.emitWarning = originalEmit;
      }
      expect(refused).toEqual([]);
    },
  );
});
