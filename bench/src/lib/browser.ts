import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/tests/support/portal.ts';

/** Debian's chromium, as the end-to-end tests use it (CHROME_PATH to use another). */
export const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;

/** Headless Debian chromium with the end-to-end tests' switches (scenarios lighthouse, interactions). */
export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({ executablePath: CHROME_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** Signs in through the portal's own form in a new page of `context`; answers that page. */
export async function signIn(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
  // A session still stored in this profile: signed in, /login sends the browser on to the start
  // page. Sign that session out first.
  if (new URL(page.url()).pathname !== '/login') {
    await page.evaluate('localStorage.clear()');
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
  }
  await page.waitForSelector('input[type="email"]');
  await page.type('input[type="email"]', email);
  await page.type('input[type="password"]', password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0' }),
    page.click('button[type="submit"]'),
  ]);
  if (new URL(page.url()).pathname === '/login') throw new Error('Anmeldung im Browser scheiterte');
  return page;
}
