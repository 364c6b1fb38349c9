import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Test files that must not share a process with others (decision 138): those that replace a module
 * of the portal with `vi.mock`, and those that test what a process keeps for all its apps (the
 * extraction worker, which outlives a test file by its idle minute).
 */
const ISOLATED = 'test/**/*.isolated.test.ts';

/** What both projects share; the global setup stays with the root, so it runs once. */
const project = (test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration => ({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    environment: 'node',
    setupFiles: ['test/support/record-tokens.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...test,
  },
});

export default defineConfig({
  test: {
    // The whole suite's log is searched for every issued token after the last test (issue 22).
    globalSetup: ['test/support/log-capture.global.ts'],
    // argon2 hashing is CPU-bound; two workers match the two cores of the CI machine.
    maxWorkers: 2,
    // Vitest runs the projects' files in the order of their names: the isolated ones, among them
    // the long extraction tests, first, so that they do not end the run on one worker alone.
    projects: [
      // A worker loads the portal's modules once for all its files instead of once per file: the
      // suite took 115 s instead of 183 s. Every file builds its own app, database and data
      // folder; a `vi.mock` would reach the files after it, so those files run isolated, as do the
      // files that test the process-wide extraction worker.
      project({ name: 'shared', include: ['test/**/*.test.ts'], exclude: [ISOLATED], isolate: false }),
      project({ name: 'isolated', include: [ISOLATED] }),
    ],
  },
});
