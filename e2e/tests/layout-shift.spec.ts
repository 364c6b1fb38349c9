import { expect, test } from '@playwright/test';
import { loginAs } from './support/fixtures.ts';

/*
 * Decision 184: a signed-in page keeps its place while its answers arrive. In the whole browser
 * (playwright.config.ts): the headless shell paints nothing and so reports no layout shifts.
 */
test('signed-in pages do not move while their answers arrive, in whatever order (CLS < 0.05)', async ({
  page,
}) => {
  await loginAs(page, 'vertreter');
  // Each answer waits a different time, so sections fill in one after the other.
  let delay = 0;
  await page.route('**/api/v1/**', async (route) => {
    delay = (delay + 170) % 700;
    await new Promise((resolve) => setTimeout(resolve, delay));
    await route.continue();
  });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[])
        if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.setViewportSize({ width: 412, height: 823 });
  for (const [path, ready] of [
    ['/account', page.getByRole('heading', { name: 'Letzte Anmeldungen' })],
    ['/search?q=Protokoll', page.getByRole('heading', { name: 'Suche', level: 1 })],
    ['/files', page.getByRole('table')],
  ] as const) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    await page.waitForLoadState('networkidle');
    const total = await page.evaluate(() =>
      (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0),
    );
    expect(total, path).toBeLessThan(0.05);
  }
});
