// Writes the command reference from the command tree: docs/commands/*.md, docs/man/*.1, and package.json's `man`
// list (as gh's gen-docs does). The generator is TypeScript in src/cli/reference/, bundled here by esbuild to a
// temporary module and imported; stale pages of commands that no longer exist are removed.
// Usage: npm run docs:gen
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDefines } from './build-info.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageFile = join(root, 'package.json');
const packageJson = JSON.parse(readFileSync(packageFile, 'utf8'));

// Inside the repository, so the bundle's imports (commander…) resolve to its node_modules.
const folder = join(root, 'node_modules', '.cache', `b2bctl-gen-docs-${process.pid}`);
const bundle = join(folder, 'reference.mjs');
try {
  await build({
    entryPoints: [join(root, 'src/cli/reference/index.ts')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    // The reference names no commit: it must not change with each one.
    define: buildDefines(packageJson.version),
    logLevel: 'warning',
  });
  writeFileSync(join(folder, 'package.json'), '{"type":"module"}\n');
  const { commandReference, manPaths, referenceFolders } = await import(pathToFileURL(bundle).href);
  const files = await commandReference();
  for (const relative of Object.values(referenceFolders)) {
    mkdirSync(join(root, relative), { recursive: true });
    for (const name of readdirSync(join(root, relative)))
      if (!files.has(`${relative}/${name}`)) rmSync(join(root, relative, name));
  }
  let changed = 0;
  for (const [relative, content] of files) {
    const path = join(root, relative);
    let before;
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      before = undefined;
    }
    if (before !== content) {
      writeFileSync(path, content);
      changed++;
    }
  }
  packageJson.man = manPaths(files);
  writeFileSync(packageFile, `${JSON.stringify(packageJson, null, 2)}\n`);
  console.log(`docs:gen: ${files.size} files (${changed} changed) in ${Object.values(referenceFolders).join(' and ')}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
