// Bundles the CLI with esbuild into dist/ as ES modules, split so that the lazy `import()` of each command group
// and verb keeps start-up to the few modules a command needs (bench/startup.mjs measures it).
import { build } from 'esbuild';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDefines, packageJson, versionLine } from './build-info.mjs';
import { bundledLicenses } from './bundled-licenses.mjs';

const line = versionLine();
// Said, not silent: two builds of one version from a tree git cannot name printed the same --version (a user test).
if (!line.includes('(commit '))
  console.warn(
    'build: no git commit found (not a clone of b2bctl, or no git): b2bctl --version will print the version alone.',
  );

// Built beside dist/ and swapped in with two renames, so a CLI started during a rebuild (a test
// run in another terminal) finds either the old bundle or the new one, never half of one.
const dist = new URL('../dist', import.meta.url);
const next = new URL(`../dist-next-${process.pid}`, import.meta.url);
const old = new URL(`../dist-old-${process.pid}`, import.meta.url);
rmSync(next, { recursive: true, force: true });
const { metafile } = await build({
  // The validation thread of a large workbook is a module of its own (src/bulk/validate-thread.ts), and so is the
  // end of a run whose stdout failed, which the launcher loads after a failed `--version` (src/cli/failed-stdout.ts).
  entryPoints: {
    cli: 'src/cli/main.ts',
    'validate-thread': 'src/cli/validate-thread-main.ts',
    // So are the inbox's writer thread (src/webhook/store/sqlite-writer.ts) and a --forward-to hand-off's thread
    // (src/webhook/forward-thread.ts); src/base/thread-module.ts starts each thread from its dist/<name>.js.
    'sqlite-writer': 'src/webhook/store/sqlite-writer-main.ts',
    'forward-thread': 'src/webhook/forward-thread-main.ts',
    'failed-stdout': 'src/cli/failed-stdout.ts',
  },
  outdir: `dist-next-${process.pid}`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  minifySyntax: true,
  minifyWhitespace: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: buildDefines(line),
  // Every dependency is bundled, pg too (loaded only with a PostgreSQL store): the package installs none. pg's native
  // binding is optional and never installed (pg runs in JavaScript without it); node:sqlite is Node's own.
  external: ['pg-native'],
  metafile: true,
  // Bundled CommonJS dependencies (commander, iconv-lite) call require(); ES modules have none, so give them one.
  banner: {
    js: "import { createRequire as __b2bctlCreateRequire } from 'node:module'; const require = __b2bctlCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// The licences of what the bundle holds, shipped beside it (the package installs nothing else).
writeFileSync(
  new URL('licenses.md', `${next.href}/`),
  bundledLicenses(metafile, fileURLToPath(new URL('..', import.meta.url))),
);
// The launcher answers `--version` alone from this file, without loading the bundle.
writeFileSync(new URL('version.json', `${next.href}/`), `${JSON.stringify({ version: packageJson.version, line })}\n`);
// The single executable (npm run build:binary) is built from the sources, not from this bundle: it stays.
const binaries = new URL('bin', `${dist.href}/`);
if (existsSync(binaries)) renameSync(binaries, new URL('bin', `${next.href}/`));
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
