import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { B2BCTL_VERSION: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn processes and servers; two cores run two files at a time well.
    maxWorkers: 2,
    // The JSON report gives .ci/run the "N passed, N failed" line CI reads.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
});
