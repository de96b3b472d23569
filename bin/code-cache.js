// V8's code cache for the files of dist/ that every start-up loads (the entry, commander, the command groups'
// cli.ts). Compiling them, and each function the first time it runs, was a tenth of `b2bctl … --help`'s CPU time.
// Node 20 has no compile cache of its own (module.enableCompileCache() arrives in Node 22.1), so `npm run build`
// writes one: FILE.js.cache beside FILE.js, after running a few help command lines (scripts/build.mjs), so it holds
// the functions those runs compiled. At run time a file with a cache is compiled from it; V8 refuses a cache made by
// another V8 version or flags, or for a source of another length, and then compiles the source as usual.
'use strict';

const Module = require('node:module');
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
      cachedData = readFileSync(`${filename}.cache`);
    } catch {
      // No cache for this file (one no start-up loads): Node's own path.
      if (!write) return compileAsUsual.call(this, content, filename);
    }
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (write) compiled.push({ filename, script });
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
      for (const { filename, script } of compiled) writeFileSync(`${filename}.cache`, script.createCachedData());
    });
}

module.exports = { useCodeCache };
