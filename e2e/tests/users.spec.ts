import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  expectNoAxeViolationsAtBothWidths,
  linkFrom,
  loginAs,
  waitForMail,
} from './support/fixtures.ts';

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A form control by its exact label (Mantine adds a hidden " *" to required ones). */
const control = (page: Page, role: 'textbox' | 'combobox', name: string) =>
  page.getByRole(role, { name: new RegExp(`^${name}( \\*)?$`) });

async function choose(page: Page, box: string, option: string) {
  await control(page, 'combobox', box).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Creates users through the API (faster than the form) and returns their ids. */
async function createUsers(
  request: APIRequestContext,
  users: { title?: string; firstname: string; lastname: string; email: string; roles?: string[] }[],
): Promise<number[]> {
  const token = await apiToken(request, 'admin');
  const ids: number[] = [];
  for (const user of users) {
    const res = await request.post(`${BASE_URL}/api/v1/user`, {
      headers: { authorization: `Bearer ${token}` },
      data: { title: 'Frau', roles: ['Vertreter'], ...user },
    });
    expect(res.status(), await res.text()).toBe(201);
    ids.push(((await res.json()) as { user: { id: number } }).user.id);
  }
  return ids;
}

const table = (page: Page) => page.getByRole('table');
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const rowOf = (page: Page, text: string): Locator => bodyRows(page).filter({ hasText: text });

test.describe('Nutzerverwaltung', () => {
  test('an admin invites a Vertreter, who sets the password from the mail and sees only Vertreter content', async ({
    page,
  }) => {
    const id = stamp();
    const account = {
      email: `vertreter-${id}@example.org`,
      password: 'Einladung-Angenommen-5',
      firstname: 'Ina',
      lastname: `Neumann${id}`,
    };
    await loginAs(page, 'admin');
    await page.goto('/user');
    // The table comes first; "Nutzer anlegen" opens the form in a drawer.
    await expect(page.getByRole('heading', { name: 'Übersicht Benutzerkonten' })).toBeVisible();
    await expect(bodyRows(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Nutzer anlegen' }).click();
    await expect(page.getByRole('heading', { name: 'Nutzer anlegen' })).toBeVisible();
    await expect(control(page, 'combobox', 'Anrede')).toBeVisible();
    await expectNoAxeViolations(page);

    const since = Date.now() - 1000;
    await choose(page, 'Anrede', 'Frau');
    await control(page, 'textbox', 'Vorname').fill(account.firstname);
    await control(page, 'textbox', 'Nachname').fill(account.lastname);
    await control(page, 'textbox', 'E-Mail').fill(account.email.toUpperCase());
    await choose(page, 'Rollen', 'Vertreter');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Anlegen', exact: true }).click();

    await expect(page.getByText('Nutzer wurde erfolgreich angelegt.', { exact: false })).toBeVisible();
    // The drawer closes onto the table with the new user at the top; opened again, the form and
    // its selects are empty.
    await expect(page.getByRole('form', { name: 'Nutzer anlegen' })).toBeHidden();
    await expect(bodyRows(page).first()).toContainText(account.lastname);
    await expect(bodyRows(page).first()).toContainText(account.email);
    await expect(bodyRows(page).first()).toContainText('eingeladen');
    await page.getByRole('button', { name: 'Nutzer anlegen' }).click();
    await expect(control(page, 'textbox', 'Vorname')).toHaveValue('');
    await expect(control(page, 'combobox', 'Anrede')).toHaveValue('');
    await page
      .getByRole('dialog', { name: 'Nutzer anlegen' })
      .getByRole('button', { name: 'Schließen' })
      .click();

    const mail = await waitForMail(account.email, since);
    expect(mail).toContain('Sehr geehrte Frau');
    expect(mail).toContain('7 Tage');
    const link = new URL(linkFrom(mail));

    const invited = await page.context().browser()!.newContext();
    const invitedPage = await invited.newPage();
    // The invitation opens a welcome, not a reset, and signs the new member in (decision 176).
    expect(link.pathname).toBe('/willkommen');
    await invitedPage.goto(`${BASE_URL}${link.pathname}${link.search}`);
    await expect(
      invitedPage.getByRole('heading', { name: 'Willkommen im Gremienportal – Passwort festlegen' }),
    ).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(invitedPage);
    // The first visit happens on a phone.
    await invitedPage.setViewportSize({ width: 375, height: 812 });
    // Labels carry a hidden required marker, hence the patterns.
    await invitedPage.getByLabel(/^Passwort( \*)?$/).fill(account.password);
    await invitedPage.getByLabel(/^Passwort bestätigen/).fill(account.password);
    await invitedPage.getByRole('button', { name: 'Passwort festlegen' }).click();
    await expect(invitedPage).not.toHaveURL(/\/willkommen|\/login/);
    await expect(invitedPage.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(invitedPage.getByRole('link', { name: 'Nutzerverwaltung' })).toHaveCount(0);
    await invitedPage.goto(`${BASE_URL}/user`);
    await expect(invitedPage.getByText('Seite wurde nicht gefunden')).toBeVisible();

    // What the new account may see: the Vertreter folders, never the Aufsichtsrat's.
    const token = await invitedPage.evaluate(() => localStorage.getItem('access_token'));
    const headers = { authorization: `Bearer ${token}` };
    const tree = await invitedPage.request.get(`${BASE_URL}/api/v1/tree`, { headers });
    expect(tree.status()).toBe(200);
    const treeText = await tree.text();
    expect(treeText).toContain('/Mitgliedervertreter');
    expect(treeText).not.toContain('/Aufsichtsrat');
    const aufsichtsrat = await invitedPage.request.get(`${BASE_URL}/api/v1/folders/2`, { headers });
    expect(aufsichtsrat.status()).toBe(404);
    const users = await invitedPage.request.get(`${BASE_URL}/api/v1/user`, { headers });
    expect(users.status()).toBe(403);
    await invited.close();

    // The table now shows the account as active.
    await page.reload();
    await page.getByLabel('E-Mail enthält').fill(account.email);
    await expect(rowOf(page, account.email)).toHaveCount(1);
    await expect(rowOf(page, account.email)).not.toContainText('eingeladen');
  });

  test('an admin views, edits and deletes a user', async ({ page, request }) => {
    const id = stamp();
    const lastname = `Bearbeiter${id}`;
    const [userId] = await createUsers(request, [
      { firstname: 'Otto', lastname, email: `bearbeiten-${id}@example.org`, title: 'Herr' },
    ]);
    await loginAs(page, 'admin');
    await page.goto('/user');
    await page.getByLabel('Nachname enthält').fill(lastname);
    await expect(bodyRows(page)).toHaveCount(1);

    await rowOf(page, lastname)
      .getByRole('link', { name: `Otto ${lastname} anzeigen` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/user/show/${userId}$`));
    await expect(page.getByRole('heading', { name: `Otto ${lastname}` })).toBeVisible();
    for (const label of ['Anrede', 'Vorname', 'Nachname', 'E-Mail', 'Rollen']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('Vertreter', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('link', { name: 'Bearbeiten' }).click();
    await expect(page).toHaveURL(new RegExp(`/user/update/${userId}$`));
    await expect(control(page, 'textbox', 'Vorname')).toHaveValue('Otto');
    await expectNoAxeViolations(page);
    await control(page, 'textbox', 'Nachname').fill(`${lastname}-Neu`);
    await choose(page, 'Direkt vergebene Rollen', 'Aufsichtsrat');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText('Nutzer erfolgreich aktualisiert')).toBeVisible();

    await page.getByLabel('Nachname enthält').fill(`${lastname}-Neu`);
    const row = rowOf(page, `${lastname}-Neu`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Aufsichtsrat, Vertreter');

    await row.getByRole('button', { name: `Otto ${lastname}-Neu löschen` }).click();
    const dialog = page.getByRole('dialog', { name: 'Nutzer löschen' });
    await expect(dialog).toContainText(`Otto ${lastname}-Neu`);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByText('Nutzer wurde erfolgreich gelöscht')).toBeVisible();
    await expect(page.getByText('Keine Nutzer passt zu deinen Filtern!')).toBeVisible();

    const token = await apiToken(request, 'admin');
    const gone = await request.get(`${BASE_URL}/api/v1/user/${userId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.status()).toBe(404);
  });

  test('filters, sorting and the pager of the table', async ({ page, request }) => {
    const marker = `Pager${stamp()}`;
    const firstnames = [
      'Ada',
      'Bea',
      'Cem',
      'Dora',
      'Emil',
      'Fritz',
      'Gina',
      'Hugo',
      'Ilse',
      'Jan',
      'Kai',
      'Lea',
    ];
    await createUsers(
      request,
      firstnames.map((firstname, index) => ({
        firstname,
        lastname: `${marker}${String.fromCharCode(109 - index)}`,
        email: `${firstname.toLowerCase()}-${marker.toLowerCase()}@example.org`,
        roles: index % 3 === 0 ? ['Aufsichtsrat'] : ['Vertreter'],
      })),
    );
    await loginAs(page, 'admin');
    await page.goto('/user');
    await page.getByLabel('Nachname enthält').fill(marker);

    // Initially sorted by last name: the names were given in falling order, so Lea comes first.
    await expect(bodyRows(page)).toHaveCount(10);
    await expect(bodyRows(page).first()).toContainText('Lea');
    await expect(page.getByText('1–10 von 12')).toBeVisible();

    await page.getByRole('button', { name: 'Ende', exact: true }).click();
    await expect(bodyRows(page)).toHaveCount(2);
    await expect(page.getByText('11–12 von 12')).toBeVisible();
    await page.getByRole('button', { name: 'Beginn', exact: true }).click();
    await expect(page.getByText('1–10 von 12')).toBeVisible();

    // "Einträge pro Seite": the button shows the current size and opens a menu of sizes.
    await page.getByRole('button', { name: '10', exact: true }).click();
    await page.getByRole('menuitem', { name: '25' }).click();
    await expect(bodyRows(page)).toHaveCount(12);

    // Sort by first name: ascending, then descending.
    const firstnameHeader = table(page).getByRole('button', { name: /^Vorname/ });
    await firstnameHeader.click();
    await expect(firstnameHeader).toHaveAccessibleName('Vorname (aufsteigend sortiert)');
    await expect(bodyRows(page).first()).toContainText('Ada');
    await firstnameHeader.click();
    await expect(firstnameHeader).toHaveAccessibleName('Vorname (absteigend sortiert)');
    await expect(bodyRows(page).first()).toContainText('Lea');
    await expect(bodyRows(page).last()).toContainText('Ada');

    // Filters combine: the Aufsichtsrat among them (indexes 0, 3, 6, 9).
    await page.getByLabel('Rollen enthalten').fill('aufsicht');
    await expect(bodyRows(page)).toHaveCount(4);
    await page.getByLabel('Vorname enthält').fill('niemand');
    await expect(page.getByText('Keine Nutzer passt zu deinen Filtern!')).toBeVisible();
    await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
    const token = await apiToken(request, 'admin');
    const all = await request.get(`${BASE_URL}/api/v1/user`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const total = ((await all.json()) as { data: unknown[] }).data.length;
    await expect(bodyRows(page)).toHaveCount(Math.min(25, total));
    await expect(page.getByText(`1–${Math.min(25, total)} von ${total}`)).toBeVisible();
  });

  test('only a Super-Admin grants admin roles or changes admins', async ({ page, request }) => {
    const id = stamp();
    await createUsers(request, [
      { firstname: 'Rita', lastname: `Rollen${id}`, email: `rollen-${id}@example.org` },
    ]);
    await loginAs(page, 'admin');
    await page.goto('/user');
    await page.getByRole('button', { name: 'Nutzer anlegen' }).click();
    await expect(
      page.getByText('Die Rollen Admin und Super-Admin kann nur ein Super-Admin vergeben.'),
    ).toBeVisible();
    await control(page, 'combobox', 'Rollen').click();
    await expect(page.getByRole('option', { name: 'Admin', exact: true })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await expect(page.getByRole('option', { name: 'Super-Admin', exact: true })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog', { name: 'Nutzer anlegen' })
      .getByRole('button', { name: 'Schließen' })
      .click();
    // The Super-Admin's row offers a plain Admin no edit or delete.
    await page.getByLabel('E-Mail enthält').fill(ACCOUNTS.superAdmin.email);
    const superRow = rowOf(page, ACCOUNTS.superAdmin.email);
    await expect(superRow.getByRole('link', { name: /anzeigen/ })).toBeVisible();
    await expect(superRow.getByRole('link', { name: /bearbeiten/ })).toHaveCount(0);
    await expect(superRow.getByRole('button', { name: /löschen/ })).toHaveCount(0);

    await loginAs(page, 'superAdmin');
    await page.goto('/user');
    await page.getByRole('button', { name: 'Nutzer anlegen' }).click();
    await expect(control(page, 'combobox', 'Anrede')).toBeVisible();
    await expect(
      page.getByText('Die Rollen Admin und Super-Admin kann nur ein Super-Admin vergeben.'),
    ).toHaveCount(0);
    await page
      .getByRole('dialog', { name: 'Nutzer anlegen' })
      .getByRole('button', { name: 'Schließen' })
      .click();
    await page.getByLabel('E-Mail enthält').fill(`rollen-${id}@`);
    await rowOf(page, `rollen-${id}@`)
      .getByRole('link', { name: /bearbeiten/ })
      .click();
    await choose(page, 'Direkt vergebene Rollen', 'Admin');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(page).toHaveURL(/\/user$/);
    await page.getByLabel('E-Mail enthält').fill(`rollen-${id}@`);
    await expect(rowOf(page, `rollen-${id}@`)).toContainText('Admin, Vertreter');
    // Nobody deletes their own account: no delete icon in one's own row.
    await page.getByLabel('E-Mail enthält').fill(ACCOUNTS.superAdmin.email);
    await expect(rowOf(page, ACCOUNTS.superAdmin.email).getByRole('button', { name: /löschen/ })).toHaveCount(
      0,
    );
  });
});
