import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Speed is bought with public interfaces only: nothing in src/ or bin/ patches Node's module compiler
 * (`Module.prototype._compile`) or sets V8 flags from a running program (`setFlagsFromString`, which Node warns
 * may crash once the process runs); the launcher alone may, at start, with the benchmark that shows its worth.
 * Libraries are used through their public API: nothing reaches a private field of a library object (cli-progress's
 * `terminal`, a cast to a shape with a `_field`) or replaces one of its methods (a bar's `render`, a stream's `write`).
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

/** Where a source reaches into a library object or replaces its methods, as `file: what` lines. */
function libraryPatchesIn(file: string, source: string): string[] {
  const patterns = [
    // cli-progress's terminal handle is private.
    /\.terminal\b/g,
    // A double cast to an inline shape naming a private field.
    /\bas unknown as \{[^}]*\b(?:terminal|_\w+)\??:/g,
    // A method of someone else's object replaced.
    /\.(?:render|write|cursorSave|cursorRestore)\s*=(?![=>])/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => `${file}: ${match[0]}`));
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

describe('no patched libraries', () => {
  it('nothing in src/ or bin/ reaches a private field of a library object or replaces one of its methods', () => {
    const found = [...filesUnder('src'), ...filesUnder('bin')].flatMap((file) =>
      libraryPatchesIn(file, readFileSync(join(root, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it.each([
    [
      'const terminal = (bar as unknown as { terminal: Terminal }).terminal;',
      ['.terminal', 'as unknown as { terminal:'],
    ],
    ['const { terminal } = bar as unknown as { terminal: Terminal };', ['as unknown as { terminal:']],
    ['const core = (term as unknown as { _core?: Core })._core;', ['as unknown as { _core?:']],
    ['bar.render = (...rest) => render(...rest);', ['.render =']],
    ['stream.write = function (...args) {};', ['.write =']],
    ['process.stderr.write=() => true;', ['.write=']],
    ['terminal.cursorRestore = () => {};', ['.cursorRestore =']],
    ['if (stream.write === write) stream.write(text);', []],
    ['const started = bar.start(total, 0, payload);', []],
    ['const value = options as unknown as string[];', []],
    ['const ok = (body as unknown as { value: number }).value;', []],
  ])('finds what patches a library: %s', (source, expected) => {
    expect(libraryPatchesIn('src/x.ts', source)).toEqual(expected.map((what) => `src/x.ts: ${what}`));
  });
});
