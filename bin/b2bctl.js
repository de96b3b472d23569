#!/usr/bin/env node
// Tiny launcher: everything lives in the bundle that `npm run build` writes to dist/.
// `--version` alone is answered here, so scripts that probe for b2bctl pay for nothing else.
import { readFileSync } from 'node:fs';

const [flag, ...rest] = process.argv.slice(2);
if ((flag === '--version' || flag === '-V') && rest.length === 0) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  await import('../dist/cli.js');
}
