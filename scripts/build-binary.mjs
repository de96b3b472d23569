// Builds dist/bin/b2bctl-linux-x64: b2bctl as one executable file that needs no Node (Node's single executable
// applications). The CLI is bundled by esbuild into one ES module (no chunks: the file cannot load others), with the
// samples the sandbox seeds from as assets, then Node 26's `--build-sea` copies its own binary with both inside.
// On Node 22 or 24, which lack --build-sea, Node 26 is taken from the cache folder .ci/run uses (installed there from
// the npm registry's `node` package if missing), or from B2BCTL_SEA_NODE. docs/decisions/0018-single-executable.md says why this route.
// Usage: npm run build:binary
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildDefines } from './build-info.mjs';
import { bundledLicenses } from './bundled-licenses.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The bundle and the configuration are inputs of one build only: a temporary folder, removed at the end.
const work = mkdtempSync(join(tmpdir(), 'b2bctl-sea-'));
const output = join(
  root,
  'dist',
  'bin',
  `b2bctl-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`,
);

/** A Node that has --build-sea (25.5 and later): this one, B2BCTL_SEA_NODE, or Node 26 from the cache folder. */
function seaNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 25 || (major === 25 && minor >= 5)) return process.execPath;
  if (process.env.B2BCTL_SEA_NODE) return process.env.B2BCTL_SEA_NODE;
  const cache =
    process.env.B2BCTL_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'b2bctl-node');
  const node = join(cache, 'node-26', 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node)) {
    console.error(`build:binary: Node ${process.versions.node} has no --build-sea; installing Node 26 into ${cache}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', join(cache, 'node-26'), 'node@26'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return node;
}

/**
 * The folders the package ships beside its code, as SEA assets named by their path (samples/stock.csv,
 * docs/man/b2bctl.1); src/base/package-root.ts's shippedFolder unpacks them.
 */
function shippedAssets() {
  const assets = {};
  for (const name of ['samples', 'docs/man']) {
    for (const entry of readdirSync(join(root, name), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      assets[relative(root, path).split('\\').join('/')] = path;
    }
  }
  return assets;
}

mkdirSync(join(root, 'dist', 'bin'), { recursive: true });
const main = join(work, 'b2bctl.mjs');
/**
 * What both bundles of the single file share: one ES module each, everything it imports inside, for Node 26, and a
 * require() for the bundled CommonJS dependencies rooted at `requireFrom`. pg's native binding is optional and never
 * installed: pg falls back to JavaScript without it.
 */
const bundleOf = (requireFrom) => ({
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node26',
  minifySyntax: true,
  minifyWhitespace: true,
  define: buildDefines(),
  external: ['pg-native'],
  banner: {
    js: `import { createRequire as __b2bctlCreateRequire } from 'node:module'; const require = __b2bctlCreateRequire(${requireFrom});`,
  },
  logLevel: 'warning',
  // What each bundle holds, for the licence notices that go beside the file (dist/bin/licenses.md).
  metafile: true,
});
/** The inputs of the four bundles the file carries: the packages whose notices go beside it. */
const metafiles = [];
/**
 * The thread only reads a workbook: it never reaches the platform, but one file cannot leave the lazily imported
 * HTTP client out, and undici was a third of the thread's module (973 KB of 2.8 MB), ~100 ms of every thread's
 * start spent parsing it. Here its names throw if ever called, so a thread that did reach the network would say so.
 */
const noNetworkOnTheThread = {
  name: 'no-network-on-the-thread',
  setup(bundler) {
    bundler.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'no-network' }));
    bundler.onLoad({ filter: /.*/, namespace: 'no-network' }, () => ({
      loader: 'js',
      contents: [
        "const unreachable = () => { throw new Error('the validation thread reaches no network (undici is left out of it)'); };",
        'export class Agent { constructor() { unreachable(); } }',
        'export class Pool { constructor() { unreachable(); } }',
        'export class ProxyAgent { constructor() { unreachable(); } }',
        'export const request = unreachable;',
      ].join('\n'),
    }));
  },
};
const launcher = await build({
  // The launcher, as the npm package starts: its Node check, its one V8 flag (set at run time, not at start, which
  // would cost Node its own code cache: docs/decisions/0018-single-executable.md), its warning filter. Its import of the bundle is
  // pointed at the sources, bundled into the same file.
  ...bundleOf('import.meta.url'),
  entryPoints: [join(root, 'bin', 'b2bctl.js')],
  outfile: main,
  plugins: [
    {
      name: 'bundle-instead-of-dist',
      setup(bundler) {
        bundler.onResolve({ filter: /\/dist\/cli\.js$/ }, () => ({ path: join(root, 'src', 'cli', 'main.ts') }));
        bundler.onResolve({ filter: /\/dist\/failed-stdout\.js$/ }, () => ({
          path: join(root, 'src', 'cli', 'failed-stdout.ts'),
        }));
      },
    },
  ],
});
// The validation thread of a large workbook (src/bulk/validate-thread.ts) as an asset of its own, started from a
// data: URL (the single file has no file beside it to start a thread from), whose import.meta.url is no path: its
// require() is rooted at the executable, enough for the dependencies, which require only Node's modules.
metafiles.push(launcher.metafile);
const thread = join(work, 'validate-thread.mjs');
const validation = await build({
  ...bundleOf('process.execPath'),
  entryPoints: [join(root, 'src', 'cli', 'validate-thread-main.ts')],
  outfile: thread,
  plugins: [noNetworkOnTheThread],
});
metafiles.push(validation.metafile);
// The inbox's writer thread (src/webhook/store/sqlite-writer.ts) and a --forward-to hand-off's thread
// (src/webhook/forward-thread.ts), assets started the same way (src/base/thread-module.ts).
const webhookThreads = {
  'sqlite-writer.mjs': join(root, 'src', 'webhook', 'store', 'sqlite-writer-main.ts'),
  'forward-thread.mjs': join(root, 'src', 'webhook', 'forward-thread-main.ts'),
};
for (const [asset, entry] of Object.entries(webhookThreads)) {
  const bundled = await build({ ...bundleOf('process.execPath'), entryPoints: [entry], outfile: join(work, asset) });
  metafiles.push(bundled.metafile);
}
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  `${JSON.stringify(
    {
      main,
      mainFormat: 'module',
      output,
      disableExperimentalSEAWarning: true,
      // V8's compiled code of the bundle, made at build time: the start-up compiles nothing of it.
      useCodeCache: true,
      assets: {
        ...shippedAssets(),
        'validate-thread.mjs': thread,
        ...Object.fromEntries(Object.keys(webhookThreads).map((asset) => [asset, join(work, asset)])),
      },
    },
    null,
    2,
  )}\n`,
);
rmSync(output, { force: true });
const node = seaNode();
try {
  execFileSync(node, ['--build-sea', config], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
} finally {
  if (!process.env.B2BCTL_SEA_KEEP) rmSync(work, { recursive: true, force: true });
}
// The licences of the packages the file holds, and of the Node it is made of, to ship beside it (as the npm package
// ships dist/licenses.md): the release attaches both files.
writeFileSync(
  join(dirname(output), 'licenses.md'),
  bundledLicenses(metafiles, root, {
    holder: `the single executable ${basename(output)}`,
    node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(),
  }),
);
console.log(
  `build:binary: ${relative(root, output)}, ${(statSync(output).size / 1e6).toFixed(1)} MB, and its notices ${relative(root, join(dirname(output), 'licenses.md'))}`,
);
