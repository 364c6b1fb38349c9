import { expect, test } from '@playwright/test';
import {
  ACCOUNTS,
  expectNoAxeViolations,
  expectNoAxeViolationsAtBothWidths,
  linkFrom,
  loginAs,
  loginViaForm,
  waitForMail,
} from './support/fixtures.ts';

test.describe('Anmeldung und Konto', () => {
  test('by keyboard alone: the e-mail field has focus, every field shows the 2 px ring, on a phone and a desktop', async ({
    page,
  }) => {
    for (const viewport of [
      { width: 375, height: 812 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/login');
      const email = page.getByLabel('E-Mail-Adresse');
      await expect(email).toBeFocused();
      await page.keyboard.type(ACCOUNTS.vertreter.email);
      await page.keyboard.press('Tab');
      const password = page.getByRole('textbox', { name: 'Passwort' });
      await expect(password).toBeFocused();
      // The same ring as buttons get (decision 179): 2 px in the primary colour, not the browser's.
      for (const field of [password, email]) {
        await field.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        const ring = await field.evaluate((el) => {
          // A password's ring sits on the wrapper that also holds its "anzeigen" button.
          const style = getComputedStyle(el.closest('.mantine-Input-input') ?? el);
          return { width: style.outlineWidth, style: style.outlineStyle };
        });
        expect(ring).toEqual({ width: '2px', style: 'solid' });
      }
      await expectNoAxeViolations(page);
    }
  });

  test('sign in, see the shell, sign out', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Einloggen' })).toBeVisible();
    await expectNoAxeViolations(page);
    await loginViaForm(page, ACCOUNTS.vertreter);
    await expect(page).toHaveURL(/\/$|\/files$/);
    const nav = page.getByRole('navigation').first();
    await expect(nav.getByRole('link', { name: 'Dateien' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Events' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Nutzerverwaltung' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Impressum' })).toBeVisible();
    // The desktop header names who is signed in; the name opens Abmelden (decision 124).
    await page.getByRole('button', { name: 'Angemeldet als Vera Treter' }).click();
    await page.getByRole('menuitem', { name: 'Abmelden' }).click();
    // Signed out, the start page is the welcome page with the way to sign in again.
    await expect(page.getByRole('heading', { name: 'Willkommen im Gremienportal' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await page.goto('/files');
    await expect(page).toHaveURL(/\/login/);
    // Impressum and Datenschutz on the signed-out pages too (§ 5 DDG, Art. 13 DSGVO; decision 124).
    await expect(page.getByRole('link', { name: 'Impressum' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Datenschutz' })).toBeVisible();
  });

  test('a wrong password shows the German message, keeps the e-mail and clears the password', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByLabel('E-Mail-Adresse').fill(ACCOUNTS.aufsichtsrat.email);
    await page.getByLabel(/^Passwort\s*\*?$/).fill('falsches-passwort');
    await page.getByRole('button', { name: 'Einloggen' }).click();
    await expect(
      page.getByText('Die eingegebenen Zugangsdaten sind nicht korrekt. Bitte versuchen Sie es erneut!'),
    ).toBeVisible();
    await expect(page.getByLabel('E-Mail-Adresse')).toHaveValue(ACCOUNTS.aufsichtsrat.email);
    await expect(page.getByLabel(/^Passwort\s*\*?$/)).toHaveValue('');
    await expect(page).toHaveURL(/\/login/);
  });

  test('validation messages appear on blur and on submit', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-Mail-Adresse').fill('kein-mail');
    await page.getByLabel(/^Passwort\s*\*?$/).focus();
    await expect(page.getByText('Bitte eine gültige E-Mail-Adresse eingeben.')).toBeVisible();
  });

  test('a signed-out visit is sent to login and returns to the remembered page', async ({ page }) => {
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login/);
    await loginViaForm(page, ACCOUNTS.aufsichtsrat);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Anton Aufsicht' })).toBeVisible();
    // Signed in, the login page sends the user away.
    await page.goto('/login');
    await expect(page).not.toHaveURL(/\/login/);
  });

  test('forgot password, reset link from the mail file, new password works and the old does not', async ({
    page,
  }) => {
    const account = ACCOUNTS.resetUser;
    const since = Date.now() - 1000;
    await page.goto('/forgot-password');
    await expect(page.getByRole('heading', { name: 'Passwort zurücksetzen' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('E-Mail-Adresse').fill(account.email);
    await page.getByRole('button', { name: 'abschicken' }).click();
    await expect(
      page.getByText('Ein Link zum Zurücksetzen deines Passworts wurde dir gesendet.'),
    ).toBeVisible();

    const link = new URL(linkFrom(await waitForMail(account.email, since)));
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'Passwort zurücksetzen' })).toBeVisible();
    await expectNoAxeViolations(page);
    const newPassword = 'Ganz-Neues-Passwort-7';
    await page.getByLabel(/^Neues Passwort\s*\*?$/).fill(newPassword);
    await page.getByLabel('Neues Passwort bestätigen').fill(newPassword);
    await page.getByRole('button', { name: 'speichern' }).click();
    await expect(page.getByText('Ihr Passwort wurde zurückgesetzt!')).toBeVisible();

    // The link works once only.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel(/^Neues Passwort\s*\*?$/).fill('Noch-Ein-Passwort-8');
    await page.getByLabel('Neues Passwort bestätigen').fill('Noch-Ein-Passwort-8');
    await page.getByRole('button', { name: 'speichern' }).click();
    await expect(page.getByRole('alert')).toContainText('ungültig oder abgelaufen');

    const oldLogin = await page.request.post('/api/v1/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(oldLogin.status()).toBe(401);
    await loginViaForm(page, { ...account, password: newPassword });
  });

  test('account: a member changes the password but sees no name fields', async ({ page }) => {
    const account = ACCOUNTS.passwordUser;
    await loginAs(page, account);
    await page.goto('/account');
    await expect(
      page.getByRole('heading', { name: `${account.firstname} ${account.lastname}` }),
    ).toBeVisible();
    await expect(page.getByLabel('Vorname')).toHaveCount(0);
    // The member's own recent sign-ins, so a sign-in that was not theirs stands out.
    await expect(page.getByRole('heading', { name: 'Letzte Anmeldungen' })).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(page);
    // The password is changed on a phone, as a Vertreterin would.
    await page.setViewportSize({ width: 375, height: 812 });
    const newPassword = 'Frisches-Passwort-99';
    // The current password is asked first (decision 147); a wrong one keeps what was typed.
    await page.getByLabel(/^Aktuelles Passwort\s*\*?$/).fill('Falsch-geraten-1');
    await page.getByLabel(/^Neues Passwort\s*\*?$/).fill(newPassword);
    await page.getByLabel('Neues Passwort bestätigen').fill(newPassword);
    await page.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(page.getByText('Das aktuelle Passwort ist nicht korrekt.')).toBeVisible();
    await expect(page.getByLabel(/^Neues Passwort\s*\*?$/)).toHaveValue(newPassword);
    await page.getByLabel(/^Aktuelles Passwort\s*\*?$/).fill(account.password);
    await page.getByLabel(/^Neues Passwort\s*\*?$/).fill(newPassword);
    await page.getByLabel('Neues Passwort bestätigen').fill(newPassword);
    await page.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(page.getByText('Account erfolgreich aktualisiert')).toBeVisible();
    const res = await page.request.post('/api/v1/auth/login', {
      data: { email: account.email, password: newPassword },
    });
    expect(res.status()).toBe(200);
  });

  test('an admin sees the name fields on the account page', async ({ page }) => {
    await loginAs(page, 'admin');
    await page.goto('/account');
    await expect(page.getByLabel('Vorname')).toHaveValue(ACCOUNTS.admin.firstname);
    await expect(page.getByLabel('Nachname')).toHaveValue(ACCOUNTS.admin.lastname);
  });

  test('unknown pages show the 404 text', async ({ page }) => {
    await loginAs(page, 'vertreter');
    await page.goto('/gibt-es-nicht');
    await expect(page.getByText('Seite wurde nicht gefunden')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto('/user');
    await expect(page.getByText('Seite wurde nicht gefunden')).toBeVisible();
  });
});
