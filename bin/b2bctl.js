#!/usr/bin/env node
// Tiny launcher: everything lives in the bundle that `npm run build` writes to dist/.
import '../dist/cli.js';
