import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  waitForMail,
  signedInPage,
  labelled,
} from './support/fixtures.ts';

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A small but well-formed PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

async function choose(page: Page, form: Locator, box: string, option: string) {
  // Mantine's multi-select input is read-only; its wrapper takes the click.
  await form.getByRole('combobox', { name: labelled(box) }).click({ force: true });
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** The 15th of the month the picker opens with (the current one), at a given time. */
function fifteenth(time: string): { label: string; local: string; ics: string } {
  const now = new Date();
  const month = now.getMonth();
  const year = now.getFullYear();
  const monthName = new Intl.DateTimeFormat('de-DE', { month: 'long' }).format(new Date(year, month, 15));
  const mm = String(month + 1).padStart(2, '0');
  return {
    label: `15 ${monthName} ${year}`,
    local: `15.${mm}.${year}, ${time}`,
    ics: `${year}${mm}15T${time.replace(':', '')}00`,
  };
}

async function pickDateTime(page: Page, form: Locator, label: 'Beginn' | 'Ende', day: string, time: string) {
  await form.getByRole('button', { name: labelled(label) }).click();
  // The picker is a dialog of its own beside the create drawer.
  const dialog = page.getByRole('dialog').filter({
    has: page.getByRole('button', { name: `${label} übernehmen` }),
  });
  await dialog.getByRole('button', { name: day, exact: true }).click();
  const [hours, minutes] = time.split(':') as [string, string];
  await dialog.getByLabel('Stunden').fill(hours);
  await dialog.getByLabel('Minuten').fill(minutes);
  await dialog.getByRole('button', { name: `${label} übernehmen` }).click();
  await expect(dialog).toBeHidden();
}

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });

test.describe('Events', () => {
  test('an admin creates an event with a PDF; a Vertreter sees it only while the role fits', async ({
    browser,
  }) => {
    const title = `Sommerfest ${stamp()}`;
    const start = fifteenth('18:30');
    const end = fifteenth('22:00');
    const since = Date.now() - 1000;

    // Admin: create through the form, with a notification to the Vertreter.
    const admin = await signedInPage(browser, 'admin');
    await admin.goto('/events');
    await expect(admin.getByRole('heading', { level: 1, name: 'Übersicht Bereich Events' })).toBeVisible();
    // The list comes first; "Event erstellen" opens the form in a drawer.
    await expect(rows(admin).first()).toBeVisible();
    await admin.getByRole('button', { name: 'Event erstellen', exact: true }).click();
    const form = admin.getByRole('form', { name: 'Event erstellen' });
    await form.getByRole('textbox', { name: labelled('Titel') }).fill(title);
    await pickDateTime(admin, form, 'Beginn', start.label, '18:30');
    await pickDateTime(admin, form, 'Ende', end.label, '22:00');
    await form.getByRole('textbox', { name: labelled('Ort') }).fill('Festwiese am See');
    await form.getByRole('textbox', { name: labelled('Beschreibung') }).fill('Grillen, Musik; gute Laune');
    await choose(admin, form, 'Rollen', 'Vertreter');
    await choose(admin, form, 'Benachrichtigung an', 'Vertreter');
    await form.locator('input[type=file]').setInputFiles({
      name: 'programm.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await expect(form.getByText('programm.pdf')).toBeVisible();
    await expectNoAxeViolations(admin);
    await form.getByRole('button', { name: 'Event erstellen' }).click();

    await expect(admin.getByText('Event wurde erfolgreich erstellt')).toBeVisible();
    // product.md P4: the drawer closes onto the list with the new event at the top; opened again,
    // the form and its selects are empty.
    await expect(form).toBeHidden();
    await expect(rows(admin).first()).toContainText(title);
    await expect(rows(admin).first()).toContainText(start.local);
    await expectNoAxeViolations(admin);
    await admin.getByRole('button', { name: 'Event erstellen', exact: true }).click();
    await expect(form.getByRole('textbox', { name: labelled('Titel') })).toHaveValue('');
    await expect(form.locator('.mantine-Pill-label')).toHaveCount(0);
    await admin
      .getByRole('dialog', { name: 'Event erstellen' })
      .getByRole('button', { name: 'Schließen' })
      .click();
    await expect(form).toBeHidden();

    // The Vertreter got one mail with the link to the event.
    const mail = await waitForMail(ACCOUNTS.vertreter.email, since);
    expect(mail).toContain(title);
    const link = /\/events\/show\/(\d+)/.exec(mail);
    expect(link).not.toBeNull();
    const id = link![1]!;

    // Vertreter: list, detail, the file and the calendar entry.
    const vertreter = await signedInPage(browser, 'vertreter');
    await vertreter.goto('/events');
    await vertreter.getByRole('textbox', { name: 'Titel enthält' }).fill('gibt es nicht');
    await expect(vertreter.getByText('Keine Event passt zu deinen Filtern!')).toBeVisible();
    await vertreter.getByRole('textbox', { name: 'Titel enthält' }).fill(title);
    await expect(rowOf(vertreter, title)).toHaveCount(1);
    await expect(vertreter.getByRole('columnheader', { name: /Rollen/ })).toHaveCount(0);
    await expect(vertreter.getByRole('button', { name: `Event „${title}“ löschen` })).toHaveCount(0);
    await expectNoAxeViolations(vertreter);

    const tableDownload = vertreter.waitForEvent('download');
    await vertreter.getByRole('button', { name: `Informationsdatei zu „${title}“ herunterladen` }).click();
    expect((await tableDownload).suggestedFilename()).toBe(`${title}.pdf`);

    // The title is the link to the event (the eye icon beside it leads there too).
    await rowOf(vertreter, title).getByRole('link', { name: title, exact: true }).click();
    await expect(vertreter).toHaveURL(new RegExp(`/events/show/${id}$`));
    await expect(vertreter.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(vertreter.getByText('Festwiese am See')).toBeVisible();
    await expect(vertreter.getByText(`${start.local} Uhr`)).toBeVisible();
    await expect(vertreter.getByText('Rollen', { exact: true })).toHaveCount(0);
    await expect(vertreter.getByRole('link', { name: 'Bearbeiten' })).toHaveCount(0);
    await expectNoAxeViolations(vertreter);

    const fileDownload = vertreter.waitForEvent('download');
    await vertreter.getByRole('button', { name: 'Informationsdatei herunterladen' }).click();
    const file = await fileDownload;
    expect(file.suggestedFilename()).toBe(`${title}.pdf`);
    expect(readFileSync((await file.path())!).equals(PDF)).toBe(true);

    const icsDownload = vertreter.waitForEvent('download');
    await vertreter.getByRole('button', { name: 'In Kalender übernehmen' }).click();
    const ics = await icsDownload;
    expect(ics.suggestedFilename()).toBe(`${title}.ics`);
    const calendar = readFileSync((await ics.path())!, 'utf8');
    expect(calendar).toContain('BEGIN:VCALENDAR\r\n');
    expect(calendar).toContain(`DTSTART;TZID=Europe/Berlin:${start.ics}\r\n`);
    expect(calendar).toContain(`DTEND;TZID=Europe/Berlin:${end.ics}\r\n`);
    expect(calendar).toContain(`SUMMARY:${title}\r\n`);
    expect(calendar).toContain(`URL:${BASE_URL}/events/show/${id}`);

    // Admin: the event is now for the Aufsichtsrat only.
    await admin.getByRole('link', { name: `Event „${title}“ bearbeiten` }).click();
    await expect(admin).toHaveURL(new RegExp(`/events/update/${id}$`));
    const edit = admin.getByRole('form', { name: 'Event bearbeiten' });
    await expect(edit.getByRole('textbox', { name: labelled('Titel') })).toHaveValue(title);
    await expect(edit.getByText('Aktuelle Informationsdatei', { exact: false })).toBeVisible();
    await edit.getByRole('textbox', { name: labelled('Titel') }).fill(`${title} (Aufsichtsrat)`);
    await choose(admin, edit, 'Rollen', 'Aufsichtsrat');
    // Remove "Vertreter" with the pill's remove button.
    await edit.locator('.mantine-Pill-root', { hasText: 'Vertreter' }).locator('button').click();
    await edit.getByRole('button', { name: 'Aktualisieren' }).click();
    await expect(admin).toHaveURL(/\/events$/);
    await expect(admin.getByText('Event erfolgreich aktualisiert')).toBeVisible();
    await admin.getByRole('textbox', { name: 'Titel enthält' }).fill(title);
    await expect(rowOf(admin, `${title} (Aufsichtsrat)`)).toContainText('Aufsichtsrat');

    // The Vertreter no longer sees it: not in the list, not by its address, not its file.
    await vertreter.goto('/events');
    await expect(vertreter.getByRole('textbox', { name: 'Titel enthält' })).toBeVisible();
    await expect(rowOf(vertreter, title)).toHaveCount(0);
    await vertreter.goto(`/events/show/${id}`);
    // Hidden and missing look the same: the 404 page, as for documents (decision 179).
    await expect(vertreter.getByRole('heading', { name: 'Seite wurde nicht gefunden' })).toBeVisible();

    // Admin deletes it, after confirming.
    await admin.getByRole('button', { name: `Event „${title} (Aufsichtsrat)“ löschen` }).click();
    const dialog = admin.getByRole('dialog');
    await expect(
      dialog.getByText(`Soll das Event „${title} (Aufsichtsrat)“ wirklich gelöscht werden?`),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Löschen' }).click();
    await expect(admin.getByText('Event wurde in den Papierkorb verschoben')).toBeVisible();
    await expect(rowOf(admin, title)).toHaveCount(0);

    await admin.context().close();
    await vertreter.context().close();
  });

  test('sorts the list by a column with German sort buttons, by mouse and keyboard', async ({
    browser,
    request,
  }) => {
    const marker = `Sortierprobe ${stamp()}`;
    const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
    // The titles run against the start times: C starts first, A last.
    for (const [letter, day] of [
      ['C', '01'],
      ['B', '02'],
      ['A', '03'],
    ] as const) {
      const res = await request.post(`${BASE_URL}/api/v1/events`, {
        headers,
        data: {
          title: `${marker} ${letter}`,
          roles: ['Vertreter'],
          start: `2031-07-${day}T18:00`,
          end: `2031-07-${day}T20:00`,
          location: 'Saal',
          description: 'Zum Sortieren',
        },
      });
      expect(res.status(), await res.text()).toBe(201);
    }

    const admin = await signedInPage(browser, 'admin');
    await admin.goto('/events');
    await admin.getByRole('textbox', { name: 'Titel enthält' }).fill(marker);
    await expect(rows(admin)).toHaveCount(3);
    const table = admin.getByRole('table', { name: 'Events' });
    const titleButton = table.getByRole('button', { name: /^Titel/ });
    const startButton = table.getByRole('button', { name: /^Beginn/ });

    // product.md P3: initially by title.
    await expect(titleButton).toHaveAccessibleName('Titel (aufsteigend sortiert)');
    await expect(startButton).toHaveAccessibleName('Beginn (nicht sortiert)');
    await expect(rows(admin).first()).toContainText(`${marker} A`);

    await startButton.click();
    await expect(startButton).toHaveAccessibleName('Beginn (aufsteigend sortiert)');
    await expect(titleButton).toHaveAccessibleName('Titel (nicht sortiert)');
    await expect(rows(admin)).toContainText([`${marker} C`, `${marker} B`, `${marker} A`]);

    await startButton.press('Enter');
    await expect(startButton).toHaveAccessibleName('Beginn (absteigend sortiert)');
    await expect(rows(admin)).toContainText([`${marker} A`, `${marker} B`, `${marker} C`]);

    // The header cells stay column headers, and nothing of the table library's English is left.
    await expect(table.getByRole('columnheader', { name: /^Beginn/ })).toBeVisible();
    const texts = await admin
      .locator('.mantine-datatable')
      .evaluate((root) => [
        root.textContent ?? '',
        ...Array.from(root.querySelectorAll('[aria-label], [title]')).flatMap((element) => [
          element.getAttribute('aria-label') ?? '',
          element.getAttribute('title') ?? '',
        ]),
      ]);
    for (const text of texts) {
      expect(text).not.toMatch(/\b(sort|sorted|ascending|descending|records?|page|next|previous)\b/i);
    }
    await expectNoAxeViolations(admin);
    await admin.context().close();
  });

  test('the create form explains missing fields in German and the pages fit a phone', async ({ browser }) => {
    const admin = await signedInPage(browser, 'admin', 375);
    await admin.goto('/events');
    // On the phone the list is a stack of cards, sorted by a choice above them.
    await expect(admin.getByRole('combobox', { name: 'Sortieren nach' })).toHaveValue('title:asc');
    const firstCard = admin.getByRole('table', { name: 'Events' }).getByRole('heading', { level: 3 }).first();
    await expect(firstCard.getByRole('link')).toHaveAttribute('href', /\/events\/show\/\d+$/);
    expect(
      await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);

    await admin.getByRole('button', { name: 'Event erstellen', exact: true }).click();
    const form = admin.getByRole('form', { name: 'Event erstellen' });
    await form.getByRole('button', { name: 'Event erstellen' }).click();
    for (const message of [
      'Titel ist erforderlich.',
      'Beginn ist erforderlich.',
      'Ende ist erforderlich.',
      'Ort ist erforderlich.',
      'Beschreibung ist erforderlich.',
      'Bitte mindestens eine Rolle wählen.',
    ]) {
      await expect(form.getByText(message)).toBeVisible();
    }
    // Nothing wider than the screen, the full-screen drawer included.
    const overflow = await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await admin.context().close();
  });
});
