#!/usr/bin/env node
// Tiny launcher: everything lives in the bundle that `npm run build` writes to dist/. CommonJS (bin/package.json),
// like the bundle: Node starts a CommonJS file without its ES module loader, and scripts that probe for b2bctl
// with `--version` pay for nothing else, as it is answered here.
'use strict';

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-V') && rest.length === 0) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // --verbose shows stack traces: make them point into src/*.ts through dist's source maps. Enabled before the
  // bundle loads (only files loaded afterwards are mapped), and only then, since parsing maps costs start-up.
  if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  // Node reads the source maps only on its own way of compiling: with them on, no code cache.
  else if (!process.sourceMapsEnabled)
    require('./code-cache.js').useCodeCache(require('node:path').join(__dirname, '..', 'dist'));
  require('../dist/cli.js');
}
