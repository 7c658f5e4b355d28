import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // HTTP suites in test/, unit tests of pure logic beside their code in shared/ and functions/.
    include: ['test/**/*.test.ts', 'shared/**/*.test.ts', 'functions/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Files share their worker process: modules load once per worker, not once per file (40%
    // of the suite's time); what a file changes process-wide is put back as it ends.
    isolate: false,
    setupFiles: ['test/support/file-state.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
