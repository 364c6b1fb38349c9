import { expect, test } from '@playwright/test';
import { expectNoAxeViolationsAtBothWidths } from './support/fixtures.ts';
import {
  OWN_PORTAL_ADMIN,
  ownPortalPasswordStep,
  startOwnPortal,
  type OwnPortal,
} from './support/own-portal.ts';

/*
 * Decision 126, passkeys in a real browser: Chromium's virtual authenticator (DevTools protocol
 * `WebAuthn`) stands in for Windows Hello, Touch ID or a security key. A Super-Admin who must set
 * up a second factor chooses a passkey, keeps the recovery codes, signs out and signs in with the
 * passkey alone after the password. The portal is opened at http://localhost: WebAuthn takes no IP
 * address as relying party.
 */

const admin = OWN_PORTAL_ADMIN;
const DESKTOP = { width: 1280, height: 800 };

let portal: OwnPortal;
test.beforeAll(async () => {
  portal = await startOwnPortal();
});
test.afterAll(async () => {
  await portal?.stop();
});

test('register a passkey as the required second factor, then sign in with it', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await ownPortalPasswordStep(page, portal);
  await expect(page).toHaveURL(/\/account#zwei-faktor$/);
  const section = page.getByRole('region', { name: 'Zwei-Faktor-Anmeldung' });
  await section.getByRole('button', { name: 'Passkey hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Passkey hinzufügen' });
  const name = dialog.getByLabel(/Name des Passkeys/);
  await expect(name).toHaveValue('Chrome unter Linux');
  await expectNoAxeViolationsAtBothWidths(page);
  await name.fill('Laptop im Büro');
  // The password comes before the device's prompt (decision 147).
  await dialog.getByLabel(/^Aktuelles Passwort/).fill(OWN_PORTAL_ADMIN.password);
  await dialog.getByRole('button', { name: 'Weiter' }).click();

  // The first second factor brings the recovery codes, shown once.
  const codes = page.getByRole('dialog', { name: 'Wiederherstellungscodes aufbewahren' });
  await expect(
    codes.getByRole('list', { name: 'Wiederherstellungscodes' }).getByRole('listitem'),
  ).toHaveCount(10);
  await expectNoAxeViolationsAtBothWidths(page);
  await codes.getByRole('button', { name: 'Ich habe die Codes sicher aufbewahrt' }).click();
  await expect(section.getByText('Eingeschaltet mit Passkey')).toBeVisible();
  const list = section.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByText('Laptop im Büro')).toBeVisible();
  await expect(list.getByText(/noch nicht verwendet/)).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.rpId).toBe('localhost');
  await expectNoAxeViolationsAtBothWidths(page);

  // The portal is open now.
  await page.goto(`${portal.baseUrl}/files`);
  await expect(page).toHaveURL(/\/files$/);

  await page.getByRole('button', { name: `Angemeldet als ${admin.firstname} ${admin.lastname}` }).click();
  await page.getByRole('menuitem', { name: 'Abmelden' }).click();
  await expect(
    page.getByRole('heading', { name: /^(Einloggen|Willkommen im Gremienportal)$/ }),
  ).toBeVisible();

  // Password, then the device's prompt at once. First the device signs wrongly: the server refuses.
  await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId, isBogusSignature: true });
  await ownPortalPasswordStep(page, portal);
  const step = page.getByRole('form', { name: 'Mit Passkey bestätigen' });
  await expect(
    step.getByText('Der Passkey konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.'),
  ).toBeVisible();
  await expect(step.getByRole('button', { name: 'Wiederherstellungscode verwenden' })).toBeVisible();
  await expectNoAxeViolationsAtBothWidths(page);
  // Then rightly, with the button the step offers after a failure.
  await cdp.send('WebAuthn.setResponseOverrideBits', { authenticatorId, isBogusSignature: false });
  await step.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
  await expect(page).not.toHaveURL(/\/(login|account)/);
  await expect(
    page.getByRole('button', { name: `Angemeldet als ${admin.firstname} ${admin.lastname}` }),
  ).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  // The account page shows when the passkey was last used; the step's screen passes axe too.
  await page.goto(`${portal.baseUrl}/account`);
  await expect(
    page.getByRole('list', { name: 'Passkeys' }).getByText(/zuletzt verwendet am \d\d\.\d\d\.\d{4}/),
  ).toBeVisible();
});
