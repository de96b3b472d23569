/**
 * bin/code-cache.js: a CommonJS file compiled from its V8 code cache behaves as Node's own loading makes it behave
 * (its exports, require of a sibling, __filename and __dirname, `this`, strict mode), a file without a cache is left
 * to Node, and a cache V8 refuses (made under other flags) or that does not match its checksum (damaged) only costs
 * the compile it would have saved.
 * Each case runs in a child `node`: the cache replaces Module.prototype._compile for the whole process.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

const codeCache = new URL('../../../bin/code-cache.js', import.meta.url).pathname;

/** A folder of CommonJS files: the entry reports what its module sees, and requires a sibling. */
function bundleFolder(): string {
  const folder = join(temporaryFolder('b2bctl-code-cache-'), 'dist');
  mkdirSync(join(folder, 'chunks'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{ "type": "commonjs" }\n');
  writeFileSync(join(folder, 'chunks', 'sibling.js'), '"use strict";\nexports.twice = (n) => n * 2;\n');
  writeFileSync(
    join(folder, 'entry.js'),
    `"use strict";
const { twice } = require('./chunks/sibling.js');
let strict = false;
try { undeclared = 1; } catch { strict = true; }
module.exports = {
  twice: twice(21),
  filename: __filename,
  dirname: __dirname,
  thisIsExports: this === module.exports,
  strict,
  builtIn: typeof require('node:os').cpus,
  cached: require.cache[__filename] === module,
  resolved: require.resolve('./chunks/sibling.js'),
};
`,
  );
  return folder;
}

/** Loads FOLDER/entry.js in a child node, with the code cache (`write` or not) or without it; returns what it saw. */
function load(folder: string, cache: 'none' | 'read' | 'write', nodeFlags: string[] = []): unknown {
  const use =
    cache === 'none'
      ? ''
      : `require(${JSON.stringify(codeCache)}).useCodeCache(${JSON.stringify(folder)}, { write: ${cache === 'write'} });`;
  const script = `${use}
const seen = require(${JSON.stringify(join(folder, 'entry.js'))});
process.stdout.write(JSON.stringify(seen));`;
  return JSON.parse(execFileSync(process.execPath, [...nodeFlags, '-e', script], { encoding: 'utf8' }));
}

describe('the code cache', () => {
  it('is written for each file a run loaded, and a module compiled from it sees what Node would show it', () => {
    const folder = bundleFolder();
    const asNodeLoadsIt = load(folder, 'none');
    expect(asNodeLoadsIt).toMatchObject({ twice: 42, thisIsExports: true, strict: true, cached: true });

    expect(load(folder, 'write')).toEqual(asNodeLoadsIt);
    expect(existsSync(join(folder, 'entry.js.cache'))).toBe(true);
    expect(existsSync(join(folder, 'chunks', 'sibling.js.cache'))).toBe(true);
    expect(load(folder, 'read')).toEqual(asNodeLoadsIt);
  });

  it('a cache V8 refuses (other flags) is compiled from the source instead, with the same result', () => {
    const folder = bundleFolder();
    const asNodeLoadsIt = load(folder, 'none');
    load(folder, 'write');
    expect(load(folder, 'read', ['--max-semi-space-size=32'])).toEqual(asNodeLoadsIt);
  });

  it('a damaged cache (bytes flipped, or cut short) is ignored and the source compiled: V8 does not checksum it', () => {
    const folder = bundleFolder();
    const asNodeLoadsIt = load(folder, 'none');
    load(folder, 'write');
    const cache = join(folder, 'entry.js.cache');
    const written = readFileSync(cache);
    const flipped = Buffer.from(written);
    for (let at = 40; at < flipped.length; at += 13) flipped[at] = (flipped[at] as number) ^ 0x5a;
    writeFileSync(cache, flipped);
    expect(load(folder, 'read')).toEqual(asNodeLoadsIt);
    writeFileSync(cache, written.subarray(0, Math.floor(written.length / 2)));
    expect(load(folder, 'read')).toEqual(asNodeLoadsIt);
  });

  it('a file without a cache is left to Node (which also gives it import())', () => {
    const folder = bundleFolder();
    writeFileSync(
      join(folder, 'entry.js'),
      '"use strict";\nmodule.exports = { importIsAFunction: typeof import("node:os").then === "function" };\n',
    );
    expect(load(folder, 'read')).toEqual({ importIsAFunction: true });
    expect(existsSync(join(folder, 'entry.js.cache'))).toBe(false);
  });
});
