// StrykerJS over the modules that keep data; scripts/mutation.mjs runs it one module at a time (docs/testing.md).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  // Two cores shared with other work: one test process.
  concurrency: 1,
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'json', 'progress'],
  // scripts/mutation.mjs names one report per module.
  jsonReporter: { fileName: process.env.STRYKER_JSON_REPORT ?? 'reports/mutation/mutation.json' },
  ignorePatterns: ['dist', 'bench/.out', 'reports', '.vitest-report.json', 'dist-*'],
  timeoutMS: 20_000,
  // No tsconfig rewriting: it needs the JavaScript API of TypeScript, which TypeScript 7 no longer ships, and
  // nothing here reads tsconfig paths (vitest transpiles each file on its own).
  tsconfigFile: 'tsconfig.stryker-absent.json',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
};
