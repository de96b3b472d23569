import { existsSync } from 'node:fs';
import { join } from 'node:path';
// A namespace: getAssetKeys is newer than Node 22.13 and only called in the single file, built on a Node that has it.
import * as sea from 'node:sea';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { packageRoot } from './package-root.js';

/**
 * Where a thread's module is, in each form b2bctl runs in: the npm package has it built beside the CLI
 * (scripts/build.mjs: dist/<name>.js), the single file carries it as an asset (scripts/build-binary.mjs:
 * <name>.mjs), and the sources, as the tests run them, have its TypeScript module, which Node runs as it is
 * (thread-from-sources.ts). One module per thread, type-checked and linted as the rest (decisions 0022, 0024, 0025).
 */

/** The threads b2bctl starts, by the name their module is built under. */
export type ThreadModuleName = 'validate-thread' | 'forward-thread' | 'sqlite-writer';

/** This module's own form: a TypeScript file in the sources (the tests), or a part of a bundle. */
const runningFromSources = import.meta.url.endsWith('.ts');

const builtModules = new Map<ThreadModuleName, string | URL | undefined>();

/**
 * The built module of thread `name`: in the single file, its asset started from a data: URL (the file has no file
 * beside it to start a thread from); else dist/<name>.js beside the CLI; undefined where it is not built. Not
 * exported: from the sources, a dist/ left by an earlier build may be older than the sources under test, so a thread
 * is started by startThread only, which never looks there then.
 */
function builtThreadModule(name: ThreadModuleName): string | URL | undefined {
  if (!builtModules.has(name)) builtModules.set(name, findBuiltModule(name));
  return builtModules.get(name);
}

function findBuiltModule(name: ThreadModuleName): string | URL | undefined {
  if (sea.isSea()) {
    const asset = `${name}.mjs`;
    return sea.getAssetKeys().includes(asset)
      ? new URL(`data:text/javascript;base64,${Buffer.from(sea.getAsset(asset)).toString('base64')}`)
      : undefined;
  }
  const entry = join(packageRoot(), 'dist', `${name}.js`);
  return existsSync(entry) ? entry : undefined;
}

/** Whether thread `name` can be started: always from the sources (its TypeScript module), else when it is built. */
export function threadAvailable(name: ThreadModuleName): boolean {
  return runningFromSources || builtThreadModule(name) !== undefined;
}

/**
 * Starts thread `name`: its built module, or running from the sources its TypeScript module `source` (never a
 * dist/ built earlier, which may be older than the sources under test).
 */
export function startThread(name: ThreadModuleName, source: URL, options: WorkerOptions): Worker {
  if (runningFromSources)
    return new Worker(new URL('./thread-from-sources.ts', import.meta.url), { ...options, argv: [source.href] });
  const built = builtThreadModule(name);
  if (built === undefined) throw new Error(`the ${name} module is not built beside b2bctl (npm run build)`);
  return new Worker(built, options);
}
