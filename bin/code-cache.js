// V8's code cache for the files of dist/ that every start-up loads (the entry, commander, the command groups'
// cli.ts). Compiling them, and each function the first time it runs, was a tenth of `b2bctl … --help`'s CPU time.
// Node 20 has no compile cache of its own (module.enableCompileCache() arrives in Node 22.1), so `npm run build`
// writes one: FILE.js.cache beside FILE.js, after running a few help command lines (scripts/build.mjs), so it holds
// the functions those runs compiled. At run time a file with a cache is compiled from it. V8 itself refuses only a
// cache made by another V8 version or flags, or for a source of another length: it does not checksum the bytes, and
// a damaged cache (a truncated copy, a flipped bit) crashed node with a segmentation fault. So each cache file starts
// with the SHA-256 of its source and its data, and a cache that does not match is ignored (the source is compiled
// as usual), as is a cache V8 refuses.
'use strict';

const Module = require('node:module');
const { createHash } = require('node:crypto');
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, sep } = require('node:path');
const { Script } = require('node:vm');

/**
 * From now on, compiles the CommonJS files under `folder` that have a FILE.js.cache from it. With `write` (the
 * build only), compiles every file under `folder` this way and writes each one's cache when the process exits.
 */
function useCodeCache(folder, { write = false } = {}) {
  const prefix = folder.endsWith(sep) ? folder : `${folder}${sep}`;
  const compileAsUsual = Module.prototype._compile;
  const compiled = [];
  Module.prototype._compile = function compileFromCache(content, filename) {
    if (!filename.startsWith(prefix)) return compileAsUsual.call(this, content, filename);
    let cachedData;
    try {
      const file = readFileSync(`${filename}.cache`);
      const data = file.subarray(digestLength);
      if (digestOf(content, data).equals(file.subarray(0, digestLength))) cachedData = data;
    } catch {
      // No cache for this file (one no start-up loads): Node's own path, below.
    }
    if (cachedData === undefined && !write) return compileAsUsual.call(this, content, filename);
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (write) compiled.push({ filename, content, script });
    const module = this;
    // What Node's own wrapper gives a module: the bundle's files ask only for other files of dist/ and built-ins.
    const requireFromModule = (id) => module.require(id);
    requireFromModule.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    requireFromModule.cache = Module._cache;
    requireFromModule.main = require.main;
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(module.exports, module.exports, requireFromModule, module, filename, dirname(filename));
  };
  if (write)
    process.on('exit', () => {
      for (const { filename, content, script } of compiled) {
        const data = script.createCachedData();
        writeFileSync(`${filename}.cache`, Buffer.concat([digestOf(content, data), data]));
      }
    });
}

const digestLength = 32;

/** What a cache file starts with: binds the cache to its bytes and to the source it was made from. */
function digestOf(content, data) {
  return createHash('sha256').update(content).update(data).digest();
}

module.exports = { useCodeCache };
