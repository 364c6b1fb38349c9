import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  BASE_URL,
  expectNoAxeViolationsAtBothWidths,
  labelled,
  portalState,
  signedInPage,
} from './support/fixtures.ts';
import { REPO_ROOT } from './support/portal.ts';

/*
 * Decision 134: an admin uploads a document that asks for a Kenntnisnahme and notifies the Vertreter;
 * the Vertreter sees it as new (explorer and "Neu für Sie"), opens and confirms it; the admin sees
 * the confirmation counted; the Vertreter chooses the daily digest and gets exactly one the next
 * morning (the server CLI `digests --at`, on the portal's own data folder).
 */

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

const grid = (page: Page) => page.getByRole('table', { name: /^Inhalt von/ });

/** "YYYY-MM-DD" of a moment in Berlin. */
const berlinDay = (date: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', dateStyle: 'short' }).format(date);

/** The moment "07:05 in Berlin" on the day after `now`, as ISO 8601 UTC. */
function nextMorningInBerlin(now: Date): string {
  const tomorrow = berlinDay(new Date(now.getTime() + 24 * 3_600_000));
  for (const offset of ['+01:00', '+02:00']) {
    const candidate = new Date(`${tomorrow}T07:05:00${offset}`);
    const hour = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(candidate);
    if (hour === '07:05') return candidate.toISOString();
  }
  throw new Error('Kein 07:05 in Berlin gefunden');
}

/** The digest mails to `to` written since `since` (ms), bodies decoded enough to read the links. */
function digestMailsTo(to: string, since: number): string[] {
  const dir = join(portalState().dataDir, 'mail');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.eml'));
  } catch {
    // No mail yet.
    return [];
  }
  return names
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= since)
    .map((path) => readFileSync(path, 'utf8'))
    .filter((raw) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(raw))
    .map((raw) => raw.replace(/=\r?\n/g, ''))
    .filter((raw) => /Zusammenfassung/.test(raw));
}

test('Neu für Sie, Kenntnisnahme und die tägliche Zusammenfassung', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const title = `Einladung Vertreterversammlung ${Date.now().toString(36)}`;
  const vertreterToken = await apiToken(request, 'vertreter');
  // Documents are in the daily digest by default; the Vertreter starts on weekly, so that the
  // journey's switch to "täglich" is what brings the digest the next morning.
  const start = await request.put(`${BASE_URL}/api/v1/account/notifications`, {
    headers: { Authorization: `Bearer ${vertreterToken}` },
    data: { files: 'woechentlich', events: 'sofort' },
  });
  expect(start.status(), await start.text()).toBe(200);

  const admin = await signedInPage(browser, 'admin');
  let fileId = 0;
  await test.step('the admin uploads with "Kenntnisnahme erforderlich" and notifies the Vertreter', async () => {
    await admin.goto('/files?folder=3');
    await admin.getByRole('button', { name: 'Datei hochladen' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Datei hochladen' });
    await dialog.getByRole('textbox', { name: labelled('Titel') }).fill(title);
    await expect(dialog.locator('.mantine-Pill-label')).toHaveText(['Vertreter']);
    await dialog.getByRole('combobox', { name: labelled('Benachrichtigung an') }).click({ force: true });
    await admin.getByRole('option', { name: 'Vertreter', exact: true }).click();
    await admin.keyboard.press('Escape');
    await dialog.getByRole('checkbox', { name: 'Kenntnisnahme erforderlich' }).check();
    await dialog.getByLabel('bis').fill('2031-12-01');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'einladung.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await dialog.getByRole('button', { name: 'Hochladen' }).click();
    await expect(dialog).toBeHidden();
    await grid(admin)
      .getByRole('button', { name: `Aktionen für „${title}“` })
      .click();
    const fileDialog = admin.getByRole('dialog', { name: 'Datei ausgewählt' });
    await fileDialog.getByRole('link', { name: 'Details anzeigen' }).click();
    await expect(admin).toHaveURL(/\/files\/show\/\d+$/);
    fileId = Number(/(\d+)$/.exec(admin.url())![1]);
    await expect(admin.getByText(/^0 von \d+ bestätigt \(0 %\)$/)).toBeVisible();
  });

  const vertreter = await signedInPage(browser, 'vertreter');
  await test.step('the Vertreter sees it in "Neu für Sie" and with the Neu badge', async () => {
    await vertreter.goto('/');
    const news = vertreter.getByRole('region', { name: 'Neu für Sie' });
    await expect(news).toBeVisible();
    await expect(news.getByRole('region', { name: /neue(s)? Dokument/ })).toContainText(`${title}.pdf`);
    const waiting = news.getByRole('region', { name: 'Warten auf Ihre Kenntnisnahme' });
    await expect(waiting).toContainText(`${title}.pdf`);
    await expect(waiting).toContainText('bis 01.12.2031');
    await expectNoAxeViolationsAtBothWidths(vertreter);

    await vertreter.goto('/files?folder=3');
    const row = grid(vertreter).getByRole('row', { name: new RegExp(title) });
    await expect(row.getByText('Neu', { exact: true })).toBeVisible();
    await expect(
      vertreter
        .getByRole('tree', { name: 'Ordner' })
        .getByRole('treeitem', { name: 'Mitgliedervertreter', exact: true }),
    ).toHaveAccessibleDescription(/^\d+ neue(s)? Dokument(e)?$/);
  });

  await test.step('the Vertreter opens the document and confirms it', async () => {
    await grid(vertreter)
      .getByRole('button', { name: `Aktionen für „${title}“` })
      .click();
    const dialog = vertreter.getByRole('dialog', { name: 'Datei ausgewählt' });
    await expect(dialog).toContainText(
      'Bitte bestätigen Sie bis 01.12.2031, dass Sie dieses Dokument zur Kenntnis genommen haben',
    );
    const confirm = dialog.getByRole('button', { name: 'Zur Kenntnis genommen' });
    await expect(confirm).toBeDisabled();
    await expectNoAxeViolationsAtBothWidths(vertreter);
    const download = vertreter.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Herunterladen' }).click();
    await download;
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(
      dialog.getByText(/^Zur Kenntnis genommen am \d\d\.\d\d\.\d{4}, \d\d:\d\d Uhr$/),
    ).toBeVisible();
    await vertreter.keyboard.press('Escape');
    // Opened: no longer new.
    await expect(
      grid(vertreter)
        .getByRole('row', { name: new RegExp(title) })
        .getByText('Neu', { exact: true }),
    ).toBeHidden();
  });

  await test.step('the admin sees it counted', async () => {
    await admin.goto(`/files/show/${fileId}`);
    const section = admin.getByRole('region', { name: 'Kenntnisnahme' });
    await expect(section.getByText(/^1 von \d+ bestätigt \(\d+ %\)$/)).toBeVisible();
    const table = section.getByRole('table', { name: 'Kenntnisnahme je Person' });
    await expect(
      table.getByRole('row', {
        name: new RegExp(`${ACCOUNTS.vertreter.firstname} ${ACCOUNTS.vertreter.lastname}`),
      }),
    ).toContainText('Bestätigt');
    await expectNoAxeViolationsAtBothWidths(admin);
  });

  await test.step('the Vertreter chooses the daily digest on /account', async () => {
    await vertreter.goto('/account');
    const section = vertreter.getByRole('region', { name: 'Benachrichtigungen' });
    const files = section.getByRole('radiogroup', { name: 'Neue Dokumente' });
    await expect(files.getByRole('radio', { name: /^Wöchentlich/ })).toBeChecked();
    await files.getByRole('radio', { name: /^Täglich/ }).check();
    await section.getByRole('button', { name: 'Speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Benachrichtigungen gespeichert');
    await expectNoAxeViolationsAtBothWidths(vertreter);
  });

  await test.step('exactly one digest reaches the Vertreter the next morning', async () => {
    const since = Date.now() - 1000;
    const at = nextMorningInBerlin(new Date());
    const env = {
      ...process.env,
      DATA_DIR: portalState().dataDir,
      PUBLIC_URL: BASE_URL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    };
    // Twice, as a second instance or a restart would: the period is sent once.
    for (let run = 0; run < 2; run += 1) {
      const result = spawnSync(process.execPath, ['server/dist/cli.js', 'digests', '--at', at], {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
    }
    await expect
      .poll(() => digestMailsTo(ACCOUNTS.vertreter.email, since).length, { timeout: 15_000 })
      .toBe(1);
    // The background sender has had time for a second one, if there were one.
    await vertreter.waitForTimeout(2000);
    const mails = digestMailsTo(ACCOUNTS.vertreter.email, since);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`${BASE_URL}/files/show/${fileId}`);
  });

  await admin.context().close();
  await vertreter.context().close();
});
