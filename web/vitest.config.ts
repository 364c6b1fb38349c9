import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      css: false,
      testTimeout: 15_000,
      // Vitest's default leaves a core to its main process, which mostly waits: on two cores that
      // is one worker, and the suite took 3 min 14 s; with two, 1 min 49 s (decision 138).
      maxWorkers: Math.max(2, availableParallelism() - 1),
    },
  }),
);
