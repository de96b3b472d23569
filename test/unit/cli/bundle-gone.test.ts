/**
 * A module of b2bctl's own bundle missing when it is imported (src/cli/bundle-gone.ts): told apart from any other
 * module not found by where it was looked for, beside the module importing it.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleGoneLine, goneModuleOf } from '../../../src/cli/bundle-gone.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/**
 * What Node 22, 24 and 26 throw when `package/dist/chunks/poll-AAAA.js` imports `specifier`, a file that is not there:
 * its code, its URL and its message naming the importer. Made here: under vitest an import goes through vite's
 * resolver, which throws another shape (the built binary's own failure is test/e2e/install/upgraded-while-running).
 */
function failedImport(specifier: string): Error {
  const importer = join(temporaryFolder('b2bctl-gone-'), 'package', 'dist', 'chunks', 'poll-AAAA.js');
  const missing = fileURLToPath(new URL(specifier, pathToFileURL(importer)));
  return Object.assign(new Error(`Cannot find module '${missing}' imported from ${importer}`), {
    code: 'ERR_MODULE_NOT_FOUND',
    url: pathToFileURL(missing).href,
  });
}

describe('goneModuleOf', () => {
  it('names a chunk of the same dist/ that is gone, as the package holds it', () => {
    expect(goneModuleOf(failedImport('./errors-BBBB.js'))).toBe(join('dist', 'chunks', 'errors-BBBB.js'));
    expect(goneModuleOf(failedImport('../cli.js'))).toBe(join('dist', 'cli.js'));
  });

  it('finds it as the cause of an error that wraps it', () => {
    const wrapped = new Error('the command failed', { cause: failedImport('./errors-BBBB.js') });
    expect(goneModuleOf(wrapped)).toBe(join('dist', 'chunks', 'errors-BBBB.js'));
  });

  it('leaves out a module missing elsewhere, a package that is no file, and every other error', () => {
    expect(goneModuleOf(failedImport(pathToFileURL(join(temporaryFolder(), 'other.js')).href))).toBeUndefined();
    const packageNotFound = Object.assign(new Error("Cannot find package 'pg-native' imported from /x/dist/cli.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(goneModuleOf(packageNotFound)).toBeUndefined();
    expect(goneModuleOf(new Error('ECONNREFUSED'))).toBeUndefined();
    expect(goneModuleOf(undefined)).toBeUndefined();
  });

  it('is said in one line that says what to do', () => {
    expect(bundleGoneLine('dist/chunks/errors-BBBB.js')).toBe(
      'b2bctl was upgraded or removed while running (dist/chunks/errors-BBBB.js is gone); restart it.',
    );
  });
});
