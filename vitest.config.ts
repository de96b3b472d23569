import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The layers in the order they start: the long e2e files first, the many short files last to fill the gaps. */
const layers = ['e2e', 'commands', 'unit'];
const layerRank = (file: TestSpecification) => layers.indexOf(file.project.name);

/**
 * vitest keeps a project's files together and orders the projects by name (commands, e2e, unit), so the longest
 * e2e files (the 1M-row push) waited for every commands file. Here e2e starts; within a project vitest's order
 * stays (the last run's slowest first, or the largest file when it has no record). The base sort is called
 * through the prototype because a lint rule reads `super.sort(…)` as an array's in-place sort.
 */
class SlowestLayerFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await BaseSequencer.prototype.sort.call(this, files);
    return byVitest.toSorted((a, b) => layerRank(a) - layerRank(b));
  }
}

/**
 * Three projects, one per test layer, picked up by folder (a new test file needs no entry here):
 *
 * - unit: pure rules and single modules; worker threads (cheaper to start than processes) with no per-file
 *   isolation, so src/ is loaded once per worker instead of once per file. Nothing in these tests changes the
 *   working folder, the environment or a module's state for the next file (fake timers are put back after each).
 * - commands: commands run in process. Child processes, because runCommandLine changes the working folder
 *   (process.chdir, not allowed in a worker thread); no per-file isolation either, for the same saving.
 * - e2e: the built binary, spawned, in child processes without per-file isolation too: the binary runs in a
 *   process of its own anyway, and what a file leaves in its worker (a closed sandbox, its temporary folders
 *   removed in afterAll) is nothing the next file can see. Saves the sandbox's and support's import per file.
 *
 * `npm test` runs them together on two workers: e2e first, then commands, then unit (SlowestLayerFirst), the
 * slowest files of each first, so the one-million-row push does not end the run alone.
 */
export default defineConfig({
  define: { B2BCTL_VERSION: JSON.stringify('0.0.0-test'), B2BCTL_VERSION_LINE: JSON.stringify('0.0.0-test') },
  test: {
    // Ceilings for a test that hangs, not bounds on how fast one runs: with two other CPU-bound processes on two
    // cores (npm run test:busy) a 10 s file takes 30 s or more. A test waits for events, never for a time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Every test file gets a TMPDIR of its own, emptied after it; what it left there fails it (the file says why).
    setupFiles: ['test/support/temporary-setup.ts'],
    globalSetup: ['test/support/temporary-run.ts'],
    // End-to-end tests spawn processes and servers; two cores run two files at a time well.
    maxWorkers: 2,
    // The JSON report gives .ci/run the "N passed, N failed" line CI reads.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
    sequence: { sequencer: SlowestLayerFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/cli/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'commands', include: ['test/commands/**/*.test.ts'], pool: 'forks', isolate: false },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], pool: 'forks', isolate: false } },
    ],
  },
});
