import { defineConfig } from '@playwright/test';
import { BASE_URL, CHROMIUM_ARGS, CHROMIUM_PATH, FIRST_PORT, WORKERS } from './tests/support/portal.ts';

/**
 * Journeys in Debian's Chromium against the built portal, started fresh by the global setup: one
 * portal per worker (support/portal.ts). A file's journeys run in order on one worker.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './tests/support/global-setup.ts',
  globalTeardown: './tests/support/global-teardown.ts',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: `./.tmp/test-results-${FIRST_PORT}`,
  use: {
    baseURL: BASE_URL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // Checks (axe contrast, dialog names) must not catch a modal or toast halfway through a fade.
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
