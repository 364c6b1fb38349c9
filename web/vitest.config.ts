import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * Test files that replace a module with `vi.mock` (decision 138): a mock would reach the files
 * after it in a shared worker, or be ignored because an earlier file had loaded the module.
 */
const ISOLATED = 'src/**/*.isolated.test.{ts,tsx}';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Both projects below inherit these (`extends: true`).
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup.ts'],
      css: false,
      testTimeout: 15_000,
      // Vitest's default leaves a core to its main process, which mostly waits: on two cores that
      // is one worker, and the suite took 3 min 14 s; with two, 1 min 49 s (decision 138).
      maxWorkers: Math.max(2, availableParallelism() - 1),
      // A worker loads the app's modules once for all its files instead of once per file: 96 s
      // instead of 228 s on two cores. The setup file empties what the app keeps in modules (the
      // query cache, toasts, local storage) after every test.
      projects: [
        { extends: true, test: { name: 'isolated', include: [ISOLATED] } },
        {
          extends: true,
          test: { name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: [ISOLATED], isolate: false },
        },
      ],
    },
  }),
);
