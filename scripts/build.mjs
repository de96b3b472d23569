// Bundles the CLI with esbuild into dist/, as CommonJS files split the way esbuild splits ES modules.
//
// Two passes, because esbuild splits code only in ESM output:
//  1. bundle src/cli/main.ts as ES modules with code splitting: the lazy `import()` of each command group and verb
//     keeps start-up to the few modules a command needs (see DESIGN.md §12 and bench/startup.mjs);
//  2. rewrite each of those files as CommonJS, one for one (imports become require(), `import()` a lazy require).
// Node 20 loads CommonJS faster than ES modules: no asynchronous resolve, link and evaluate per module, and no
// ESM facade over each built-in (the one over node:fs alone loads the whole stream stack). That is most of what
// `b2bctl sellers list --help` cost above bare `node -e 0`. dist/package.json says "commonjs" so the files keep
// their .js names, and the source maps of pass 1 are carried through pass 2 (--verbose stacks point into src/).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

const minified = {
  minifySyntax: true,
  minifyWhitespace: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

// Built beside dist/ and swapped in with two renames, so a CLI started during a rebuild (a test
// run in another terminal) finds either the old bundle or the new one, never half of one.
const dist = new URL('../dist', import.meta.url);
const modules = `dist-esm-${process.pid}`;
const next = new URL(`../dist-next-${process.pid}`, import.meta.url);
const old = new URL(`../dist-old-${process.pid}`, import.meta.url);
rmSync(new URL(`../${modules}`, import.meta.url), { recursive: true, force: true });
rmSync(next, { recursive: true, force: true });
try {
  const split = await build({
    ...minified,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: modules,
    bundle: true,
    splitting: true,
    format: 'esm',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    define: { B2BCTL_VERSION: JSON.stringify(packageJson.version) },
    plugins: [lazyChildProcessForCommander],
    // Native (better-sqlite3) and optional-native (pg) packages load from node_modules, as installed.
    external: ['better-sqlite3', 'pg'],
    metafile: true,
  });
  // Pass 1's files are ES modules esbuild wrote, not Node's: without this, esbuild would read them as Node reads a
  // "type": "module" package and give `import()` of a chunk the chunk's whole exports as its default.
  writeFileSync(new URL(`../${modules}/package.json`, import.meta.url), '{ "type": "commonjs" }\n');
  await build({
    ...minified,
    entryPoints: Object.keys(split.metafile.outputs).filter((file) => file.endsWith('.js')),
    outbase: modules,
    outdir: `dist-next-${process.pid}`,
    bundle: false,
    format: 'cjs',
    sourcemap: 'linked',
    // `import()` of a chunk becomes `Promise.resolve().then(() => require(chunk))`: still loaded only when reached.
    supported: { 'dynamic-import': false },
    // The one module that asks where it lives (sandbox/package-root.ts) gets its own file's URL, computed on use.
    define: { 'import.meta': '__b2bctlImportMeta' },
    banner: {
      js: '"use strict";var __b2bctlImportMeta={get url(){return require("node:url").pathToFileURL(__filename).href}};',
    },
  });
  writeFileSync(new URL('package.json', `${next.href}/`), '{ "type": "commonjs" }\n');
  writeCodeCache(fileURLToPath(next));
} finally {
  rmSync(new URL(`../${modules}`, import.meta.url), { recursive: true, force: true });
}
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });

/**
 * Writes the code cache of the files start-up loads (bin/code-cache.js): runs the new bundle on a few help command
 * lines, each writing the cache of every file it loaded, with the functions it ran. The last run to load a file
 * writes its cache, so the run for the most common path (a command's help: the entry, commander) comes last.
 * A run that fails fails the build: the bundle cannot start.
 */
function writeCodeCache(folder) {
  const runs = [
    ['--help'],
    ['customer', 'create', '--help'],
    ['stock', 'push', '--help'],
    ['sellers', 'list', '--help'],
  ];
  const codeCache = fileURLToPath(new URL('../bin/code-cache.js', import.meta.url));
  const run = `require(${JSON.stringify(codeCache)}).useCodeCache(${JSON.stringify(folder)}, { write: true });
process.argv.splice(1, 0, 'b2bctl');
require(${JSON.stringify(`${folder}/cli.js`)});`;
  for (const words of runs)
    execFileSync(process.execPath, ['-e', run, '--', ...words], { stdio: ['ignore', 'ignore', 'inherit'] });
}
