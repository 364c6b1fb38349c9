import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // The whole suite's log is searched for every issued token after the last test (issue 22).
    globalSetup: ['test/support/log-capture.global.ts'],
    setupFiles: ['test/support/record-tokens.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // argon2 hashing is CPU-bound; two workers match the two cores of the CI machine.
    maxWorkers: 2,
  },
});
