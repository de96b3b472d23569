import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Packages are used through their public entries only: a private path (`undici/lib/...`) is not part of the
 * package's contract and moves between patch releases.
 */
const roots = ['src', 'bin', 'scripts'].map((folder) => resolve(__dirname, '../../..', folder));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The package specifiers a file imports that reach inside a package's folders (`pkg/lib/x`, `@scope/pkg/dist/y`). */
export function privatePackagePaths(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*|declare module\s+)['"]([^'".][^'"]*)['"]/g),
  ].map((match) => match[1] ?? '');
  return specifiers.filter((specifier) => {
    if (specifier.startsWith('node:')) return false;
    const parts = specifier.split('/');
    const inside = specifier.startsWith('@') ? parts.slice(2) : parts.slice(1);
    return inside.some((part) => ['lib', 'dist', 'src', 'build', 'internal'].includes(part));
  });
}

describe('public package entries only', () => {
  it('no file in src, bin or scripts imports a private package path', () => {
    const found = roots.flatMap((root) =>
      sourceFiles(root).flatMap((file) =>
        privatePackagePaths(readFileSync(file, 'utf8')).map((path) => `${relative(root, file)}: ${path}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ["import Pool from 'undici/lib/dispatcher/pool.js';", ['undici/lib/dispatcher/pool.js']],
    ["declare module 'undici/lib/api/api-request.js' {", ['undici/lib/api/api-request.js']],
    ["const x = await import('@scope/pkg/dist/x.js');", ['@scope/pkg/dist/x.js']],
    ["import { Pool } from 'undici';", []],
    ["import { readFile } from 'node:fs/promises';", []],
    ["import { x } from './lib/json-text.js';", []],
    ["import * as oauth from 'oauth4webapi';", []],
  ])('%s', (line, expected) => {
    expect(privatePackagePaths(line)).toEqual(expected);
  });
});
