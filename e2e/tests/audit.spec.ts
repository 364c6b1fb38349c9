import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  uploadViaApi,
  signedInPage,
} from './support/fixtures.ts';

test.describe('Aktivitäten', () => {
  const attempted = `unbekannt-${Date.now()}@example.org`;

  test.beforeAll(async ({ request }) => {
    // A failed sign-in to find again in the log.
    const res = await request.post(`${BASE_URL}/api/v1/auth/login`, {
      data: { email: attempted, password: 'falsches-passwort' },
    });
    expect(res.status()).toBe(401);
  });

  test('an admin opens the log, filters by action and exports the CSV', async ({ browser }) => {
    const page = await signedInPage(browser, 'admin');
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const token = await page.evaluate(() => localStorage.getItem('access_token'));

    await page.goto('/files');
    await page.getByRole('navigation').first().getByRole('link', { name: 'Aktivitäten' }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole('heading', { name: 'Aktivitäten', level: 1 })).toBeVisible();
    const table = page.getByRole('table');
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(table.getByText('Anmeldung', { exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('combobox', { name: 'Aktion' }).click();
    await page.getByRole('option', { name: 'Anmeldung fehlgeschlagen' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/action=auth\.login_failed/);
    await expect(table.getByText(attempted)).toBeVisible();
    // The unfiltered page may list the attempt too: wait until the filtered answer has replaced it.
    await expect
      .poll(async () => {
        const actions = await table.locator('tbody tr td:nth-child(3)').allInnerTexts();
        return actions.length > 0 && actions.every((text) => text.trim() === 'Anmeldung fehlgeschlagen');
      })
      .toBe(true);
    await expectNoAxeViolations(page);

    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV exportieren' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^aktivitaeten-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    // Every cell is quoted (formula guard for either separator), a quote inside doubled.
    const cells = (line: string) =>
      (line.match(/"(?:[^"]|"")*"/g) ?? []).map((cell) => cell.slice(1, -1).replaceAll('""', '"'));
    expect(lines.every((line) => (line.match(/"(?:[^"]|"")*"/g) ?? []).join(';') === line)).toBe(true);
    expect(cells(lines[0]!)).toEqual([
      'Zeitpunkt (Europe/Berlin)',
      'Person',
      'Aktion',
      'Objekttyp',
      'Objekt-ID',
      'Objekt',
      'Details',
      'Adresse',
    ]);
    expect(lines.length).toBeGreaterThan(1);
    expect(
      lines.slice(1).every((line) => /^Anmeldung fehlgeschlagen( \(\d+×\))?$/.test(cells(line)[2] ?? '')),
    ).toBe(true);
    expect(lines.some((line) => line.includes(attempted))).toBe(true);

    // The bearer token travels in a header, never in an address.
    expect(requests.some((url) => url.includes('/api/v1/audit.csv'))).toBe(true);
    expect(requests.filter((url) => token && url.includes(token))).toEqual([]);
    await page.context().close();
  });

  test('filters by person and by time range, and the filters survive a reload', async ({ browser }) => {
    const page = await signedInPage(browser, 'superAdmin');
    await page.goto('/audit');
    await page.getByRole('textbox', { name: 'Person' }).fill(ACCOUNTS.superAdmin.firstname);
    await expect(page).toHaveURL(/q=Portal/);
    const table = page.getByRole('table');
    const people = table.locator('tbody tr td:nth-child(2)');
    // The text filter applies after a short pause in typing.
    await expect
      .poll(async () => {
        const texts = await people.allInnerTexts();
        return texts.length > 0 && texts.every((text) => text.includes(ACCOUNTS.superAdmin.email));
      })
      .toBe(true);

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Person' })).toHaveValue(ACCOUNTS.superAdmin.firstname);

    // A day long past: nothing matches, and the table says so.
    await page.goto('/audit?from=2001-01-01&to=2001-01-02');
    await expect(page.getByText('Kein Eintrag passt zu deinen Filtern!')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Von' })).toHaveValue('01.01.2001');
    await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.context().close();
  });

  test('works on a small screen without accessibility violations', async ({ browser }) => {
    const page = await signedInPage(browser, 'admin', 375);
    await page.goto('/audit');
    await expect(page.getByRole('heading', { name: 'Aktivitäten', level: 1 })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Eintrag' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  test("an admin sees a Vertreter's download in the file's Zugriffe list", async ({ browser, request }) => {
    const adminToken = await apiToken(request, 'admin');
    const title = `Zugriffsprobe ${Date.now()}`;
    const file = await uploadViaApi(request, adminToken, {
      title,
      folderId: 3,
      role: 'Vertreter',
      name: 'probe.pdf',
      content: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    const vertreterToken = await apiToken(request, 'vertreter');
    const download = await request.get(`${BASE_URL}/api/v1/download/${file.external}`, {
      headers: { Authorization: `Bearer ${vertreterToken}` },
    });
    expect(download.status()).toBe(200);

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/files/show/${file.id}`);
    // Decision 124: the access tables are folded away on the file page.
    await page.getByRole('button', { name: /Wer das Dokument sehen kann/ }).click();
    const accesses = page.getByRole('region', { name: 'Zugriffe' });
    await expect(accesses).toBeVisible();
    const vertreter = ACCOUNTS.vertreter;
    await expect(accesses.getByText(`${vertreter.firstname} ${vertreter.lastname}`).first()).toBeVisible();
    await expect(accesses.getByText('Datei heruntergeladen').first()).toBeVisible();
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  test('members neither see nor open the log', async ({ browser }) => {
    const page = await signedInPage(browser, 'vertreter');
    await page.goto('/files');
    await expect(page.getByRole('link', { name: 'Aktivitäten' })).toHaveCount(0);
    await page.goto('/audit');
    await expect(page.getByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.context().close();
  });
});
