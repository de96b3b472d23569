// Bundles the CLI with esbuild. Code splitting plus the lazy `import()` of each command keeps
// start-up to the few modules a command needs (see DESIGN.md §12 and bench/startup.mjs).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { B2BCTL_VERSION: JSON.stringify(packageJson.version) },
  // Bundled CommonJS dependencies call require(); ESM output has none, so give it one.
  banner: { js: "import { createRequire as __b2bctlCreateRequire } from 'node:module'; const require = __b2bctlCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
