import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  apiToken,
  BASE_URL,
  expectNoAxeViolationsAtBothWidths,
  loginAs,
  signedInPage,
  uploadViaApi,
} from './support/fixtures.ts';

/*
 * Opening a document opens it (decision 183): the name in the explorer leads to the document page,
 * as a real link; the file dialog "Datei ausgewählt" sits behind the row's ⋮, and focus comes back
 * to the ⋮ when it closes. After a page change focus is on the new page's heading. axe at 375 and
 * 1280 px.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

const grid = (page: Page) => page.getByRole('table', { name: /^Inhalt von/ });

async function prepare(request: APIRequestContext) {
  const id = stamp();
  const token = await apiToken(request, 'admin');
  const folderTitle = `Sitzung ${id}`;
  const res = await request.post(`${BASE_URL}/api/v1/folders`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: folderTitle, parent_id: 4, roles: ['Vertreter'] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const folderId = ((await res.json()) as { folder: { id: number } }).folder.id;
  const title = `Einladung ${id}`;
  const file = await uploadViaApi(request, token, {
    title,
    folderId,
    role: 'Vertreter',
    name: 'einladung.pdf',
    content: PDF,
  });
  return { folderId, folderTitle, title, fileId: file.id };
}

/** A member's phone: touch, 375 px. */
async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await loginAs(page, 'vertreter');
  return page;
}

test('a member taps a document’s name on a phone and lands on its page; its folder leads back', async ({
  browser,
  request,
}) => {
  const { folderId, folderTitle, title, fileId } = await prepare(request);
  const page = await phonePage(browser);
  await page.goto(`/files?folder=${folderId}`);
  const name = grid(page).getByRole('link', { name: title, exact: true });
  await expect(name).toHaveAttribute('href', `/files/show/${fileId}`);
  await name.tap();

  await expect(page).toHaveURL(new RegExp(`/files/show/${fileId}$`));
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const heading = page.getByRole('heading', { name: title, level: 1 });
  await expect(heading).toBeFocused();
  await expectNoAxeViolationsAtBothWidths(page);

  // The folder opens the explorer at that folder, not the bare list.
  await page.setViewportSize({ width: 375, height: 812 });
  // The path may break after each slash (<wbr>); on a phone the name then holds a space there.
  const folderLink = page.getByRole('link', { name: new RegExp(`^/ ?Allgemein/ ?${folderTitle}$`) });
  await expect(folderLink).toHaveAttribute('href', `/files?folder=${folderId}`);
  await folderLink.tap();
  await expect(page).toHaveURL(new RegExp(`/files\\?folder=${folderId}$`));
  await expect(
    page.getByRole('navigation', { name: 'Aktueller Pfad' }).getByText(folderTitle, { exact: true }),
  ).toHaveAttribute('aria-current', 'location');
  await expect(page.getByRole('heading', { name: 'Dateien', level: 1 })).toBeFocused();
  await expect(grid(page).getByRole('link', { name: title, exact: true })).toBeVisible();
  await page.context().close();
});

test('on a desktop the name opens with the keyboard and in a new tab; the ⋮ opens the dialog and gets focus back', async ({
  browser,
  request,
}) => {
  const { folderId, title, fileId } = await prepare(request);
  const page = await signedInPage(browser, 'vertreter');
  await page.goto(`/files?folder=${folderId}`);
  const name = grid(page).getByRole('link', { name: title, exact: true });

  // A real link: Ctrl+click opens the document page in a new tab.
  const opened = page.context().waitForEvent('page');
  await name.click({ modifiers: ['Control'] });
  const tab = await opened;
  await expect(tab).toHaveURL(new RegExp(`/files/show/${fileId}$`));
  await tab.close();
  await expect(page).toHaveURL(new RegExp(`/files\\?folder=${folderId}$`));

  await name.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/files/show/${fileId}$`));
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeFocused();

  await page.goBack();
  const trigger = grid(page).getByRole('button', { name: `Aktionen für „${title}“` });
  await expect(trigger).toHaveAttribute('aria-haspopup', 'dialog');
  await trigger.click();
  const dialog = page.getByRole('dialog', { name: 'Datei ausgewählt' });
  await expect(dialog).toContainText('Eine der folgenden Funktionen auswählen.');
  await expect(dialog.getByRole('button', { name: 'Ansehen' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Herunterladen' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Details anzeigen' })).toHaveAttribute(
    'href',
    `/files/show/${fileId}`,
  );
  await expectNoAxeViolationsAtBothWidths(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();

  // The same with the keyboard alone.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  await expectNoAxeViolationsAtBothWidths(page);
  await page.context().close();
});
