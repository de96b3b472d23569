import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Command tests that run b2bctl in another working folder (runCommandLine's `cwd`, a process.chdir): StrykerJS runs
 * the tests in worker threads, where process.chdir is not allowed, so they are left out of the mutation run.
 */
function testsThatChangeFolder(): string[] {
  return readdirSync('test/commands', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join('test/commands', file))
    .filter((file) => /\bcwd\b/.test(readFileSync(file, 'utf8')));
}

/**
 * The tests StrykerJS runs against each mutant (`npm run test:mutation`, docs/testing.md): the unit and in-process
 * command layers, which load src/ itself. The e2e layer runs the built binary, which holds no mutant.
 */
export default defineConfig({
  define: { B2BCTL_VERSION: JSON.stringify('0.0.0-test'), B2BCTL_VERSION_LINE: JSON.stringify('0.0.0-test') },
  test: {
    // scripts/mutation.mjs narrows a module whose related tests are too slow under Stryker (docs/testing.md).
    include: process.env.MUTATION_TESTS?.split(',') ?? [
      'test/unit/**/*.test.ts',
      'test/cli/**/*.test.ts',
      'test/commands/**/*.test.ts',
    ],
    exclude: testsThatChangeFolder(),
    // Isolated, unlike `npm test`: a module loaded once per worker keeps the mutant its constants were built with,
    // so mutants of module-level tables (word lists, units) would survive unseen.
    isolate: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
