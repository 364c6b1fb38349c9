import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ACCOUNTS, BASE_URL, portalState, type Account, type RoleKey } from './portal.ts';

export { ACCOUNTS, BASE_URL, portalState };
export type { Account, RoleKey };

/** Signs in through the login form, as a person would. */
export async function loginViaForm(page: Page, account: Account): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-Mail-Adresse').fill(account.email);
  await page.getByLabel(/^Passwort\s*\*?$/).fill(account.password);
  await page.getByRole('button', { name: 'Einloggen' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Signs in through the API and stores the session as the web app does (faster than the form). */
export async function loginAs(page: Page, role: RoleKey | Account): Promise<string> {
  const account = typeof role === 'string' ? ACCOUNTS[role] : role;
  const res = await page.request.post(`${BASE_URL}/api/v1/auth/login`, {
    data: { email: account.email, password: account.password },
  });
  expect(res.status(), `Anmeldung ${account.email}`).toBe(200);
  const body = (await res.json()) as { access_token: string; user: unknown };
  await page.goto('/login');
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('access_token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: body.access_token, user: body.user },
  );
  return body.access_token;
}

/** A bearer token for API calls from a test (e.g. to prepare data). */
export async function apiToken(request: APIRequestContext, role: RoleKey | Account): Promise<string> {
  const account = typeof role === 'string' ? ACCOUNTS[role] : role;
  const res = await request.post(`${BASE_URL}/api/v1/auth/login`, {
    data: { email: account.email, password: account.password },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Fails on any accessibility violation axe finds on the current page. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A settled page: an element fading out (the table's empty state when rows arrive) has its
  // colours mixed with the background for a moment, which axe would report as low contrast.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, 'axe-Verstöße').toEqual([]);
}

/**
 * The newest mail to `to` written after `since` (ms since epoch), waiting for the background
 * sender; returns the message with its quoted-printable body decoded. With `containing`, the
 * newest such mail that holds this text (other journeys mail the same accounts meanwhile).
 */
export async function waitForMail(
  to: string,
  since = 0,
  timeoutMs = 15_000,
  containing?: string,
): Promise<string> {
  const dir = join(portalState().dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
    } catch {
      // no mail yet
    }
    const candidates = names
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .filter((file) => file.mtime >= since)
      .sort((a, b) => b.mtime - a.mtime);
    for (const file of candidates) {
      const raw = readFileSync(file.path, 'utf8');
      if (!new RegExp(`^To: .*${escapeRegExp(to)}`, 'im').test(raw)) continue;
      const decoded = decodeQuotedPrintable(raw);
      if (containing === undefined || decoded.includes(containing)) return decoded;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Keine E-Mail an ${to} angekommen`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The first set-password link in a mail. */
export function linkFrom(mail: string): string {
  const match = /https?:\/\/[^\s"<>]+(?:reset-password|willkommen)\?[^\s"<>]+/.exec(mail);
  if (!match) throw new Error('Kein Link in der E-Mail');
  return match[0].replace(/&amp;/g, '&');
}

/** Uploads through the API, to prepare what a journey needs. */
export async function uploadViaApi(
  request: APIRequestContext,
  token: string,
  {
    title,
    folderId,
    role,
    name,
    content,
  }: { title: string; folderId: number; role: string; name: string; content: Buffer },
): Promise<{ id: number; external: string }> {
  const res = await request.post(`${BASE_URL}/api/v1/files`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      title,
      permissions: role,
      folder_id: String(folderId),
      file: { name, mimeType: name.endsWith('.pdf') ? 'application/pdf' : 'image/png', buffer: content },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { file: { id: number; external: string } }).file;
}

/** A fresh context per role, as axe needs it; German locale and the cooperative's time zone. */
export async function signedInPage(browser: Browser, role: RoleKey, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width, height: 900 },
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    acceptDownloads: true,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await loginAs(page, role);
  return page;
}

/** A form control by its label (Mantine adds a hidden " *" to required ones). */
export const labelled = (name: string) => new RegExp(`^${name}( \\*)?$`);

/** axe on the page as a phone (375 px) and then a desktop (1280 px) shows it, ending on the desktop. */
export async function expectNoAxeViolationsAtBothWidths(page: Page): Promise<void> {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
  }
}
