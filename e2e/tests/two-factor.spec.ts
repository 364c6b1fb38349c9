import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { ACCOUNTS, expectNoAxeViolations } from './support/fixtures.ts';

/*
 * Decision 126, first part: a member sets up an authenticator app on /account, keeps the recovery
 * codes, then signs in with password and code, with a recovery code (trusting the device) and
 * finally with the password alone on the trusted device. The new screens are checked with axe
 * and for 44 px targets on a phone (375 px) and on a desktop (1280 px).
 */

const account = ACCOUNTS.twoFactorUser;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

/** The code the app would show `offsetSeconds` from now (each code is accepted once). */
const codeAt = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Controls in `scope` smaller than 44 × 44 px (a checkbox counts with its label). */
async function smallTargets(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const found: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>('button, input, a[href]')) {
      if (!el.checkVisibility()) continue;
      const target = el.matches('input[type="checkbox"]') ? (el.closest('.mantine-Checkbox-root') ?? el) : el;
      const rect = target.getBoundingClientRect();
      if (rect.width < 43.5 || rect.height < 43.5) {
        found.push(
          `${el.tagName} „${el.getAttribute('aria-label') ?? el.textContent?.trim()}“ ${rect.width}×${rect.height}`,
        );
      }
    }
    return found;
  });
}

/** axe and target sizes at both widths, ending on the desktop width; SCREENSHOT_DIR=<dir> keeps pictures. */
async function checkBothWidths(page: Page, scope: Locator, name: string): Promise<void> {
  // A phone is a touch screen: the portal's CSS enlarges controls for `pointer: coarse`.
  const cdp = await page.context().newCDPSession(page);
  for (const viewport of [PHONE, DESKTOP]) {
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: viewport === PHONE, maxTouchPoints: 5 });
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(viewport === PHONE);
    await expectNoAxeViolations(page);
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) await page.screenshot({ path: join(dir, `zwei-faktor-${name}-${viewport.width}.png`) });
    if (viewport === PHONE) expect(await smallTargets(scope), 'Ziele unter 44 px').toEqual([]);
  }
  await cdp.detach();
}

async function passwordStep(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-Mail-Adresse').fill(account.email);
  await page.getByLabel(/^Passwort\s*\*?$/).fill(account.password);
  await page.getByRole('button', { name: 'Einloggen' }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: `Angemeldet als ${account.firstname} ${account.lastname}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  // From /account to the login page, from the start page to the welcome page.
  await expect(
    page.getByRole('heading', { name: /^(Einloggen|Willkommen im Gremienportal)$/ }),
  ).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
}

test('set up an authenticator app, then sign in with a code, a recovery code and a trusted device', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await passwordStep(page);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Zwei-Faktor-Anmeldung' });
  await expect(section.getByText('Ausgeschaltet')).toBeVisible();
  await section.getByRole('button', { name: 'Authenticator-App einrichten' }).click();

  // Step 1: QR code and the secret in blocks of 4.
  const scan = page.getByRole('dialog', { name: /Schritt 1 von 3/ });
  await expect(scan.getByRole('img', { name: 'QR-Code zum Einrichten der Authenticator-App' })).toBeVisible();
  const grouped = (await scan.getByTestId('totp-secret').innerText()).trim();
  expect(grouped).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = grouped.replace(/\s+/g, '');
  await checkBothWidths(page, scan, '1-scannen');
  await scan.getByRole('button', { name: 'Weiter' }).click();

  // Step 2: a code from the app confirms.
  const confirm = page.getByRole('dialog', { name: /Schritt 2 von 3/ });
  await confirm.getByLabel(/^6-stelliger Code/).fill(await codeAt(secret));
  // The password is asked again before the factor is added (decision 147).
  await confirm.getByLabel(/^Aktuelles Passwort/).fill(account.password);
  await checkBothWidths(page, confirm, '2-code');
  await confirm.getByRole('button', { name: 'Bestätigen' }).click();

  // Step 3: ten recovery codes, shown once.
  const shown = page.getByRole('dialog', { name: /Schritt 3 von 3/ });
  const codeItems = shown.getByRole('list', { name: 'Wiederherstellungscodes' }).getByRole('listitem');
  await expect(codeItems).toHaveCount(10);
  const recoveryCodes = (await codeItems.allInnerTexts()).map((code) => code.trim());
  await checkBothWidths(page, shown, '3-codes');
  const download = page.waitForEvent('download');
  await shown.getByRole('button', { name: 'Als Textdatei herunterladen' }).click();
  expect((await download).suggestedFilename()).toMatch(/^gremienportal-wiederherstellungscodes-.*\.txt$/);
  await shown.getByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }).click();
  await expect(section.getByText('Eingeschaltet mit Authenticator-App')).toBeVisible();
  await expect(section.getByText('10 Wiederherstellungscodes von 10 übrig')).toBeVisible();
  await signOut(page);

  // Password, then the code of the next 30-second step (the one used to confirm is spent).
  await passwordStep(page);
  const secondStep = page.getByRole('form', { name: 'Bestätigungscode' });
  await expect(secondStep.getByLabel(/^6-stelliger Code/)).toBeFocused();
  await checkBothWidths(page, secondStep, 'anmeldung-code');
  await secondStep.getByLabel(/^6-stelliger Code/).fill('000000');
  await secondStep.getByRole('button', { name: 'Anmelden' }).click();
  await expect(
    secondStep.getByText('Der Bestätigungscode ist nicht korrekt. Bitte versuchen Sie es erneut.'),
  ).toBeVisible();
  await secondStep.getByLabel(/^6-stelliger Code/).fill(await codeAt(secret, 30));
  await secondStep.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await signOut(page);

  // A recovery code, and this device is trusted from now on.
  await passwordStep(page);
  await secondStep.getByRole('button', { name: 'Wiederherstellungscode verwenden' }).click();
  await secondStep.getByLabel(/^Wiederherstellungscode/).fill(recoveryCodes[0]!);
  await secondStep.getByText('Diesem Gerät 30 Tage vertrauen').click();
  await checkBothWidths(page, secondStep, 'anmeldung-wiederherstellung');
  await secondStep.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  expect(await page.evaluate((key) => localStorage.getItem(key), `gp.device.${account.email}`)).toBeTruthy();
  await page.goto('/account');
  await expect(section.getByText('9 Wiederherstellungscodes von 10 übrig')).toBeVisible();
  await expect(
    section.getByRole('list', { name: 'Vertrauenswürdige Geräte' }).getByRole('listitem'),
  ).toHaveCount(1);
  await checkBothWidths(page, section, 'konto');
  await signOut(page);

  // On the trusted device the password is enough.
  await passwordStep(page);
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Bestätigungscode' })).toHaveCount(0);
});
