import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Speed and memory are bought with public interfaces only: no module of src/ or bin/ imports a package's private
 * path (`undici/lib/…`), patches Node's module compiler (`Module.prototype._compile`), or sets V8 flags
 * (`setFlagsFromString`, which Node warns may crash once the process runs; the launcher alone may, at start).
 */
const root = resolve(__dirname, '../../..');

/**
 * Findings in rooms being rewritten on another branch (the HTTP client's undici imports and V8 flag): each listed
 * one may go, none may be added. Empty this list once that branch is merged.
 */
const notYetRemoved = new Set([
  'src/platform/http-client.ts: private path undici/lib/dispatcher/pool.js',
  'src/platform/http-client.ts: private path undici/lib/api/api-request.js',
  'src/platform/http-client.ts: setFlagsFromString',
  'src/platform/undici-pool.d.ts: private path undici/lib/dispatcher/pool.js',
  'src/platform/undici-pool.d.ts: private path undici/lib/api/api-request.js',
]);

function filesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:[cm]?js|ts)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Every module specifier of a source: imports, exports, import(), require() and `declare module`. */
function specifiersOf(source: string): string[] {
  const pattern =
    /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bdeclare\s+module\s+|^\s*import\s+)(['"])([^'"\n]+)\1/gm;
  return [...source.matchAll(pattern)].map((match) => match[2] as string);
}

/** A package's subpath that is not its public interface: outside its `exports`, or under lib/, dist/, src/, build/. */
function isPrivatePath(specifier: string): boolean {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) return false;
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const subpath = parts.slice(nameLength).join('/');
  if (subpath === '') return false;
  let exportsField: unknown;
  try {
    const packageJson = JSON.parse(
      readFileSync(join(root, 'node_modules', ...parts.slice(0, nameLength), 'package.json'), 'utf8'),
    ) as { exports?: unknown };
    exportsField = packageJson.exports;
  } catch {
    exportsField = undefined;
  }
  if (
    exportsField !== null &&
    typeof exportsField === 'object' &&
    Object.keys(exportsField).some((key) => key.startsWith('.'))
  )
    return !Object.keys(exportsField).some((key) => {
      if (!key.includes('*')) return key === `./${subpath}`;
      const [before, after] = key.split('*') as [string, string];
      return `./${subpath}`.startsWith(before) && `./${subpath}`.endsWith(after);
    });
  return /^(?:lib|dist|src|build|internal)(?:\/|$)/.test(subpath);
}

/** What a source does that only internals allow, as `file: finding` lines. */
function internalsUsedBy(file: string, source: string): string[] {
  const found = specifiersOf(source)
    .filter(isPrivatePath)
    .map((specifier) => `${file}: private path ${specifier}`);
  if (/\b_compile\b/.test(source)) found.push(`${file}: _compile`);
  if (/\bsetFlagsFromString\b/.test(source) && !file.startsWith('bin/')) found.push(`${file}: setFlagsFromString`);
  return found;
}

describe('public APIs only', () => {
  it('nothing in src/ or bin/ imports a private path, patches _compile, or sets V8 flags outside the launcher', () => {
    const found = [...filesUnder('src'), ...filesUnder('bin')].flatMap((file) =>
      internalsUsedBy(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(found.filter((finding) => !notYetRemoved.has(finding))).toEqual([]);
  });

  it.each([
    ["import Pool from 'undici/lib/dispatcher/pool.js';", ['x.ts: private path undici/lib/dispatcher/pool.js']],
    ["declare module 'undici/lib/api/api-request.js' {}", ['x.ts: private path undici/lib/api/api-request.js']],
    ["const parse = require('csv-parse/lib/sync');", ['x.ts: private path csv-parse/lib/sync']],
    ["const { z } = await import('zod/lib/index.js');", ['x.ts: private path zod/lib/index.js']],
    ["import { parse } from 'csv-parse/sync';", []],
    ["import { Pool, request } from 'undici';", []],
    ["import { readFile } from 'node:fs/promises';", []],
    ["import { x } from './lib/json-text.js';", []],
    ['Module.prototype._compile = function () {};', ['x.ts: _compile']],
    ["import { setFlagsFromString } from 'node:v8';", ['x.ts: setFlagsFromString']],
  ])('finds what leans on internals: %s', (source, expected) => {
    expect(internalsUsedBy('x.ts', source)).toEqual(expected);
  });

  it('lets the launcher set a V8 flag at start', () => {
    expect(internalsUsedBy('bin/b2bctl.js', "import { setFlagsFromString } from 'node:v8';")).toEqual([]);
  });
});
