import { defineConfig } from '@playwright/test';
import {
  BASE_URL,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  FIRST_PORT,
  HEADLESS_SHELL_PATH,
  WORKERS,
} from './tests/support/portal.ts';

/**
 * Journeys that check what the browser does with a document (saved, never opened in a tab) run in
 * the whole browser: the headless shell opens an empty tab for a download, which the browsers
 * members use do not; layout shifts are only measured where the browser paints.
 */
const WHOLE_BROWSER = /(hostile-uploads|layout-shift)\.spec\.ts$/;

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
  // A journey is a whole story of dozens of steps; on a slow 2-core machine the longer ones ran
  // past a minute beside the other worker (decision 161). The steps' own limit (expect) stays 10 s.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: `./.tmp/test-results-${FIRST_PORT}`,
  use: {
    baseURL: BASE_URL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // Checks (axe contrast, dialog names) must not catch a modal or toast halfway through a fade.
    contextOptions: { reducedMotion: 'reduce' },
    // CI keeps only the log, and recording a trace (a DOM snapshot at every action) costs CPU in
    // every journey, passed or not; on a developer's machine a failure keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'browser',
      testMatch: WHOLE_BROWSER,
      use: { launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
    {
      name: 'shell',
      testIgnore: WHOLE_BROWSER,
      use: { launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});
