import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm install -g` of another build (or an uninstall) replaces the package's dist/ under a running command: the chunks
 * it has not loaded yet are gone, their names carrying their content's hash, and its next `import()` of one (a
 * `--watch` stopped by SIGTERM, a failure's message) failed with ERR_MODULE_NOT_FOUND, which the launcher took for a
 * clone not built yet: "run npm run build there" (a user test). Told apart by what is missing: a module of b2bctl's
 * own, under the `dist/` (or, run from the sources, `src/`) folder of the module importing it. The line is the
 * module's path in the package, for "b2bctl was upgraded or removed while running (…)".
 */
export function goneModuleOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const gone = missingOwnModule(cause);
    if (gone !== undefined) return gone;
  }
  return undefined;
}

function missingOwnModule(error: Error): string | undefined {
  const { code, url } = error as Error & { code?: unknown; url?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof url !== 'string' || !url.startsWith('file:')) return undefined;
  const importer = / imported from (.+)$/.exec(error.message)?.[1];
  // The folder above the deepest dist/ or src/ holding the importer (dist/chunks/ included): the package's.
  const packageFolder = importer === undefined ? undefined : /^(.*[\\/])(?:dist|src)[\\/]/.exec(importer)?.[1];
  const missing = fileURLToPath(url);
  if (packageFolder === undefined || !missing.startsWith(packageFolder)) return undefined;
  return relative(packageFolder, missing);
}

/** The one line said for such a failure, exit 75 (EX_TEMPFAIL): a service manager restarts the command. */
export function bundleGoneLine(module: string): string {
  return `b2bctl was upgraded or removed while running (${module} is gone); restart it.`;
}
