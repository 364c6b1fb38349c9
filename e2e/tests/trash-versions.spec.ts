import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  loginAs,
  signedInPage,
  uploadViaApi,
} from './support/fixtures.ts';

/*
 * Decision 125: replacing a document keeps the old content as a version an admin can restore, and
 * deleting moves things to the Papierkorb, from where an admin brings them back.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const pdf = (text: string) =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
      `% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );

const grid = (page: Page) => page.getByRole('table', { name: /^Inhalt von/ });
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });
const versionRows = (page: Page) => page.getByRole('region', { name: 'Versionen' }).locator('tbody tr');

/** A folder under /Allgemein, made through the API. */
async function createFolder(request: APIRequestContext, token: string, title: string): Promise<number> {
  const res = await request.post(`${BASE_URL}/api/v1/folders`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { title, parent_id: 4, roles: ['Vertreter', 'Aufsichtsrat'] },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { folder: { id: number } }).folder.id;
}

test.describe('Versionen und Papierkorb', () => {
  test('an admin replaces a document, restores its first version and brings a deleted folder back', async ({
    browser,
    request,
  }) => {
    const id = stamp();
    const token = await apiToken(request, 'admin');
    const original = pdf(`erste Fassung ${id}`);
    const folderId = await createFolder(request, token, `Versionen ${id}`);
    const file = await uploadViaApi(request, token, {
      title: `Satzung ${id}`,
      folderId,
      role: 'Vertreter',
      name: 'satzung.pdf',
      content: original,
    });
    const page = await signedInPage(browser, 'admin');

    await test.step('replaces the content through "Datei bearbeiten"', async () => {
      await page.goto(`/files?folder=${folderId}`);
      await grid(page)
        .getByRole('button', { name: `Aktionen für „Satzung ${id}“` })
        .click();
      await page
        .getByRole('dialog', { name: 'Datei ausgewählt' })
        .getByRole('button', { name: 'Bearbeiten' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Datei bearbeiten' });
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'satzung-neu.pdf',
        mimeType: 'application/pdf',
        buffer: pdf(`zweite, etwas längere Fassung ${id}`),
      });
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, 'Datei erfolgreich aktualisiert').first()).toBeVisible();
    });

    await test.step('sees two versions on the file page and restores version 1', async () => {
      await page.goto(`/files/show/${file.id}`);
      await expect(versionRows(page)).toHaveCount(2);
      await expect(versionRows(page).first()).toContainText('Version 2');
      await expect(versionRows(page).first()).toContainText('aktuell');
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Diese Version wiederherstellen: Version 1' }).click();
      const confirm = page.getByRole('dialog', { name: 'Version 1 wiederherstellen' });
      await expect(confirm).toContainText('Die bisherige aktuelle Version 2 bleibt erhalten.');
      await confirm.getByRole('button', { name: 'Wiederherstellen' }).click();
      await expect(toast(page, 'Version wurde wiederhergestellt').first()).toBeVisible();
      await expect(versionRows(page)).toHaveCount(3);
      await expect(versionRows(page).first()).toContainText('Version 3');
      await expect(versionRows(page).first()).toContainText('wiederhergestellt aus Version 1');
      await expectNoAxeViolations(page);
    });

    await test.step('the current content is the original again', async () => {
      const downloadPromise = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Herunterladen', exact: true }).click();
      const download = await downloadPromise;
      expect(readFileSync((await download.path())!).equals(original)).toBe(true);

      const older = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Version 2 herunterladen' }).click();
      expect(readFileSync((await (await older).path())!).toString('utf8')).toContain('zweite');
    });

    const trashFolder = `Altakten ${id}`;
    const trashFolderId = await createFolder(request, token, trashFolder);
    await uploadViaApi(request, token, {
      title: `Protokoll ${id}`,
      folderId: trashFolderId,
      role: 'Vertreter',
      name: 'protokoll.pdf',
      content: pdf(`Protokoll ${id}`),
    });

    await test.step('deletes a folder with a document: it goes to the Papierkorb', async () => {
      await page.goto(`/files?folder=${trashFolderId}`);
      await expect(grid(page).getByRole('link', { name: `Protokoll ${id}`, exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
      await page.getByRole('menuitem', { name: 'Ordner löschen' }).click();
      const confirm = page.getByRole('dialog', { name: 'Ordner löschen' });
      await expect(confirm).toContainText('Alles wird in den Papierkorb verschoben.');
      await confirm.getByRole('button', { name: 'Löschen' }).click();
      await expect(toast(page, 'Ordner wurde in den Papierkorb verschoben').first()).toBeVisible();
    });

    await test.step('finds it in the Papierkorb and restores it', async () => {
      await page.getByRole('button', { name: 'Weitere Aktionen' }).click();
      await page.getByRole('menuitem', { name: 'Papierkorb' }).click();
      await expect(page).toHaveURL(/\/trash$/);
      await expect(page.getByRole('heading', { name: 'Papierkorb', level: 1 })).toBeVisible();
      const row = page.getByRole('row').filter({ hasText: trashFolder });
      await expect(row).toContainText(`/Allgemein/${trashFolder}`);
      await expect(row).toContainText('1 Datei');
      await expect(row).toContainText('Gesa Schäfer');
      // Admins restore; only a Super-Admin removes for good.
      await expect(page.getByRole('button', { name: 'Papierkorb leeren' })).toHaveCount(0);
      await expectNoAxeViolations(page);

      await row.getByRole('button', { name: `„${trashFolder}“ wiederherstellen` }).click();
      await expect(toast(page, `Der Ordner „${trashFolder}“ wurde wiederhergestellt.`).first()).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: trashFolder })).toHaveCount(0);
    });

    await test.step('the folder and its document are back in the explorer', async () => {
      await page.getByRole('link', { name: 'Im Explorer öffnen' }).click();
      await expect(page).toHaveURL(new RegExp(`/files\\?folder=${trashFolderId}$`));
      await expect(grid(page).getByRole('link', { name: `Protokoll ${id}`, exact: true })).toBeVisible();
    });
    await page.context().close();
  });

  test('a document whose folder is gone is restored into a folder the admin chooses', async ({
    browser,
    request,
  }) => {
    const id = stamp();
    const token = await apiToken(request, 'admin');
    const headers = { Authorization: `Bearer ${token}` };
    const goneId = await createFolder(request, token, `Weg ${id}`);
    const targetTitle = `Ziel ${id}`;
    const targetId = await createFolder(request, token, targetTitle);
    const file = await uploadViaApi(request, token, {
      title: `Anlage ${id}`,
      folderId: goneId,
      role: 'Vertreter',
      name: 'anlage.pdf',
      content: pdf(`Anlage ${id}`),
    });
    // The document first, then its folder: the document's former folder is in the Papierkorb.
    expect((await request.delete(`${BASE_URL}/api/v1/files/${file.id}`, { headers })).status()).toBe(204);
    expect((await request.delete(`${BASE_URL}/api/v1/folders/${goneId}`, { headers })).status()).toBe(204);

    const page = await signedInPage(browser, 'admin');
    await page.goto('/trash?type=file');
    const row = page.getByRole('row').filter({ hasText: `Anlage ${id}.pdf` });
    await row.getByRole('button', { name: `„Anlage ${id}.pdf“ wiederherstellen` }).click();
    const dialog = page.getByRole('dialog', { name: 'Zielordner wählen' });
    await expect(dialog).toContainText('Der frühere Ordner ist nicht mehr vorhanden.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('combobox', { name: /Wiederherstellen in/ }).click();
    await page.getByRole('option', { name: `/Allgemein/${targetTitle}`, exact: true }).click();
    await dialog.getByRole('button', { name: 'Wiederherstellen' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, `Die Datei „Anlage ${id}“ wurde wiederhergestellt.`).first()).toBeVisible();
    await page.getByRole('link', { name: 'Im Explorer öffnen' }).click();
    await expect(page).toHaveURL(new RegExp(`/files\\?folder=${targetId}$`));
    await expect(grid(page).getByRole('link', { name: `Anlage ${id}`, exact: true })).toBeVisible();
    await page.context().close();
  });

  test('a Super-Admin removes an entry for good; others get no such page', async ({
    browser,
    page,
    request,
  }) => {
    const id = stamp();
    const token = await apiToken(request, 'superAdmin');
    const folderId = await createFolder(request, token, `Entwürfe ${id}`);
    const file = await uploadViaApi(request, token, {
      title: `Entwurf ${id}`,
      folderId,
      role: 'Vertreter',
      name: 'entwurf.pdf',
      content: pdf(`Entwurf ${id}`),
    });
    const deleted = await request.delete(`${BASE_URL}/api/v1/files/${file.id}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(deleted.status()).toBe(204);

    const superAdmin = await signedInPage(browser, 'superAdmin');
    await superAdmin.goto('/trash');
    await expect(superAdmin.getByRole('heading', { name: 'Papierkorb', level: 1 })).toBeVisible();
    await expect(superAdmin.getByRole('button', { name: 'Papierkorb leeren' })).toBeVisible();
    const row = superAdmin.getByRole('row').filter({ hasText: `Entwurf ${id}.pdf` });
    await row.getByRole('button', { name: `„Entwurf ${id}.pdf“ endgültig löschen` }).click();
    const confirm = superAdmin.getByRole('dialog', { name: 'Endgültig löschen' });
    await expect(confirm).toContainText('Das lässt sich nicht rückgängig machen.');
    await confirm.getByRole('button', { name: 'Endgültig löschen' }).click();
    await expect(toast(superAdmin, `Endgültig gelöscht: „Entwurf ${id}.pdf“`).first()).toBeVisible();
    await expect(superAdmin.getByRole('row').filter({ hasText: `Entwurf ${id}.pdf` })).toHaveCount(0);
    await superAdmin.context().close();

    await page.goto('/trash');
    await expect(page).toHaveURL(/\/login$/);
    await loginAs(page, 'vertreter');
    await page.goto('/trash');
    await expect(page.getByText('Seite wurde nicht gefunden')).toBeVisible();
  });
});
