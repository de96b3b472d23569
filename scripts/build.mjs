// Bundles the CLI with esbuild. Code splitting plus the lazy `import()` of each command keeps
// start-up to the few modules a command needs (see DESIGN.md §12 and bench/startup.mjs).
import { build } from 'esbuild';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires node:child_process at load time for executable subcommands, which b2bctl never
// uses; that load is ~6 ms of every start-up. Its import alone is pointed at a lazy stand-in.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: new URL('./lazy-child-process.cjs', import.meta.url).pathname }
        : undefined,
    );
  },
};

// Built beside dist/ and swapped in with two renames, so a CLI started during a rebuild (a test
// run in another terminal) finds either the old bundle or the new one, never half of one.
const dist = new URL('../dist', import.meta.url);
const next = new URL(`../dist-next-${process.pid}`, import.meta.url);
const old = new URL(`../dist-old-${process.pid}`, import.meta.url);
rmSync(next, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: `dist-next-${process.pid}`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { B2BCTL_VERSION: JSON.stringify(packageJson.version) },
  plugins: [lazyChildProcessForCommander],
  // Bundled CommonJS dependencies call require(); ESM output has none, so give it one.
  banner: {
    js: "import { createRequire as __b2bctlCreateRequire } from 'node:module'; const require = __b2bctlCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
