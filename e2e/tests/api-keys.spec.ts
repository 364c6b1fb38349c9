import { expect, test } from '@playwright/test';
import { BASE_URL, expectNoAxeViolations, labelled, signedInPage } from './support/fixtures.ts';

/*
 * Decision 136: a Super-Admin issues an API-Schlüssel on /api-keys, sees its token once, another
 * system uses it within its Berechtigungen, and "Widerrufen" ends it at once. Admins see neither
 * the link nor the page.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('API-Schlüssel', () => {
  test('a Super-Admin issues a key, copies its token once, and revokes it', async ({ browser, request }) => {
    const name = `Import Mitgliederverwaltung ${stamp()}`;
    const page = await signedInPage(browser, 'superAdmin');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await page.goto('/files');
    await page
      .getByRole('navigation', { name: 'Hauptnavigation' })
      .getByRole('link', { name: 'API-Schlüssel' })
      .click();
    await expect(page.getByRole('heading', { name: 'API-Schlüssel', level: 1 })).toBeVisible();

    const token = await test.step('"Neuer API-Schlüssel" shows the token once, with "Kopieren"', async () => {
      await page.getByRole('button', { name: 'Neuer API-Schlüssel' }).click();
      const form = page.getByRole('form', { name: 'Neuer API-Schlüssel' });
      await form.getByRole('button', { name: 'Schlüssel anlegen' }).click();
      await expect(form.getByText('Bitte mindestens eine Berechtigung wählen.')).toBeVisible();
      await form.getByRole('textbox', { name: labelled('Name') }).fill(name);
      await form.getByRole('checkbox', { name: 'Nutzer und Rollen lesen' }).check();
      await form.getByRole('textbox', { name: labelled('Gültigkeit in Tagen') }).fill('30');
      await form.getByRole('button', { name: 'Schlüssel anlegen' }).click();

      const box = page.getByRole('region', { name: `Neuer API-Schlüssel „${name}“` });
      await expect(box).toContainText('Der Schlüssel wird nur jetzt angezeigt. Bewahren Sie ihn sicher auf.');
      await expect(box.getByRole('heading')).toBeFocused();
      const value = await box.getByRole('textbox', { name: 'Schlüssel' }).inputValue();
      expect(value).toMatch(/^gpk_/);
      await box.getByRole('button', { name: 'Kopieren' }).click();
      await expect(box.getByText('Der Schlüssel ist in die Zwischenablage kopiert.')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
      await expect(page.getByRole('row').filter({ hasText: name })).toContainText('noch nie');
      await expectNoAxeViolations(page);

      await box.getByRole('button', { name: 'Ich habe den Schlüssel sicher aufbewahrt' }).click();
      await expect(box).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Schlüssel' })).toHaveCount(0);
      return value;
    });

    await test.step('another system reads the users with it, and nothing beyond its scope', async () => {
      const headers = { authorization: `Bearer ${token}` };
      expect((await request.get(`${BASE_URL}/api/v1/user`, { headers })).status()).toBe(200);
      expect((await request.get(`${BASE_URL}/api/v1/folders`, { headers })).status()).toBe(403);
      await page.reload();
      await expect(page.getByRole('row').filter({ hasText: name })).not.toContainText('noch nie');
    });

    await test.step('"Widerrufen" asks, naming the key, and ends it at once', async () => {
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByRole('button', { name: `API-Schlüssel „${name}“ widerrufen` }).click();
      const dialog = page.getByRole('dialog', { name: 'API-Schlüssel widerrufen' });
      await expect(dialog).toContainText(`Soll der API-Schlüssel „${name}“ wirklich widerrufen werden?`);
      await dialog.getByRole('button', { name: 'Widerrufen' }).click();
      await expect(page.getByText(`API-Schlüssel „${name}“ widerrufen.`)).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
      const after = await request.get(`${BASE_URL}/api/v1/user`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(after.status()).toBe(401);
    });
    await page.context().close();
  });

  test('an Admin has no link to the page and gets the 404 page at its address', async ({ browser }) => {
    const page = await signedInPage(browser, 'admin');
    await page.goto('/trash');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await expect(nav.getByRole('link', { name: 'Papierkorb' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'API-Schlüssel' })).toHaveCount(0);
    await page.goto('/api-keys');
    await expect(page.getByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeVisible();
    await page.context().close();
  });
});
