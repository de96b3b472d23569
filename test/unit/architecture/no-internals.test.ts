import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Speed is bought with public interfaces only: nothing in src/ or bin/ patches Node's module compiler
 * (`Module.prototype._compile`) or sets V8 flags from a running program (`setFlagsFromString`, which Node warns
 * may crash once the process runs); the launcher alone may, at start, with the benchmark that shows its worth.
 * Private package paths are public-imports.test.ts's.
 */
const root = resolve(__dirname, '../../..');

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:[cm]?js|ts)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** What a source does that only Node's internals allow, as `file: finding` lines. */
function internalsUsedBy(file: string, source: string): string[] {
  const found: string[] = [];
  if (/\b_compile\b/.test(source)) found.push(`${file}: _compile`);
  if (/\bsetFlagsFromString\b/.test(source) && !file.startsWith('bin/')) found.push(`${file}: setFlagsFromString`);
  return found;
}

describe('no Node internals', () => {
  it('nothing in src/ or bin/ patches _compile, or sets V8 flags outside the launcher', () => {
    const found = [...filesUnder('src'), ...filesUnder('bin')].flatMap((file) =>
      internalsUsedBy(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ['Module.prototype._compile = function () {};', 'src/x.ts', ['src/x.ts: _compile']],
    ["import { setFlagsFromString } from 'node:v8';", 'src/x.ts', ['src/x.ts: setFlagsFromString']],
    ["setFlagsFromString('--heap-growing-percent=50');", 'src/bulk/x.ts', ['src/bulk/x.ts: setFlagsFromString']],
    ["import { setFlagsFromString } from 'node:v8';", 'bin/b2bctl.js', []],
    ["import module from 'node:module';\nmodule.enableCompileCache?.();", 'bin/b2bctl.js', []],
  ])('finds what leans on internals: %s in %s', (source, file, expected) => {
    expect(internalsUsedBy(file, source)).toEqual(expected);
  });
});
