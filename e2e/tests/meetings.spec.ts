import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  apiToken,
  BASE_URL,
  expectNoAxeViolationsAtBothWidths,
  labelled,
  signedInPage,
  uploadViaApi,
} from './support/fixtures.ts';

/*
 * Decision 130: an admin builds the Tagesordnung of a meeting in the editor (two items, three documents
 * from the file area, the order changed by dragging with a real pointer), a Vertreter sees it on
 * the event page, says Zusage there and downloads the Sitzungsmappe. axe checks the new screens
 * at 1280 and 375 px.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function pdfNamed(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText(text, { x: 40, y: 780, size: 12, font });
  return Buffer.from(await pdf.save());
}

/** An item's card in the editor, by its number and title ("2 Jahresabschluss"). */
const card = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const agendaNames = (page: Page) =>
  page
    .getByRole('list', { name: 'Punkte der Tagesordnung' })
    .locator(':scope > li > [role="group"]')
    .evaluateAll((groups) =>
      groups.map((group) => document.getElementById(group.getAttribute('aria-labelledby')!)!.textContent),
    );

/** Drags the grip with the mouse, in small steps as a hand would, onto the middle of `target`. */
async function dragGrip(page: Page, grip: Locator, target: Locator) {
  const from = (await grip.boundingBox())!;
  const to = (await target.boundingBox())!;
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x, start.y - 8, { steps: 4 });
  await page.mouse.move(start.x, to.y + to.height / 3, { steps: 20 });
  await page.mouse.up();
}

async function pickDocuments(page: Page, item: Locator, folderPath: string[], titles: string[]) {
  await item.getByRole('button', { name: 'Dokumente auswählen' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Dokumente auswählen' });
  for (const folder of folderPath) await dialog.getByRole('button', { name: folder, exact: true }).click();
  for (const title of titles) await dialog.getByRole('checkbox', { name: `${title}.pdf` }).check();
  return dialog;
}

test('an admin builds the agenda by drag and drop; a Vertreter says Zusage and downloads the Sitzungsmappe', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const id = stamp();
  const token = await apiToken(request, 'admin');
  const headers = { authorization: `Bearer ${token}` };
  const folderTitle = `Sitzungsunterlagen ${id}`;
  const folderRes = await request.post(`${BASE_URL}/api/v1/folders`, {
    headers,
    data: { title: folderTitle, parent_id: 3, roles: ['Vertreter'] },
  });
  expect(folderRes.status(), await folderRes.text()).toBe(201);
  const folderId = ((await folderRes.json()) as { folder: { id: number } }).folder.id;
  const docs = {
    einladung: `Einladung ${id}`,
    abschluss: `Jahresabschluss ${id}`,
    kasse: `Kassenbericht ${id}`,
  };
  for (const title of Object.values(docs)) {
    await uploadViaApi(request, token, {
      title,
      folderId,
      role: 'Vertreter',
      name: 'unterlage.pdf',
      content: await pdfNamed(title),
    });
  }
  const title = `Vertreterversammlung ${id}`;
  const eventRes = await request.post(`${BASE_URL}/api/v1/events`, {
    headers,
    data: {
      title,
      roles: ['Vertreter'],
      start: '2031-05-20T18:00',
      end: '2031-05-20T21:00',
      location: 'Stadthalle',
      description: 'Ordentliche Versammlung',
    },
  });
  expect(eventRes.status(), await eventRes.text()).toBe(201);
  const eventId = ((await eventRes.json()) as { event: { id: number } }).event.id;

  const admin = await signedInPage(browser, 'admin');
  await test.step('the admin opens the editor from the event page', async () => {
    await admin.goto(`/events/show/${eventId}`);
    await admin.getByRole('link', { name: 'Tagesordnung anlegen' }).click();
    await expect(admin).toHaveURL(new RegExp(`/events/agenda/${eventId}$`));
    await expect(admin.getByRole('heading', { level: 1, name: 'Tagesordnung anlegen' })).toBeVisible();
  });

  await test.step('adds two items and links three documents from the folder tree and the search', async () => {
    await admin.getByRole('button', { name: 'Punkt hinzufügen', exact: true }).click();
    await admin.keyboard.type('Jahresabschluss');
    const first = card(admin, '1 Jahresabschluss');
    await first.getByRole('textbox', { name: 'Vortragende Person' }).fill('Vorstand');
    let dialog = await pickDocuments(admin, first, ['Mitgliedervertreter', folderTitle], [docs.abschluss]);
    await dialog.getByRole('textbox', { name: /Dokumente suchen/ }).fill(id);
    await dialog
      .getByRole('list', { name: 'Suchergebnisse' })
      .getByRole('checkbox', { name: `${docs.kasse}.pdf` })
      .check();
    await expect(dialog.getByText('2 Dokumente ausgewählt')).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(admin);
    await dialog.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(dialog).toBeHidden();

    await admin.getByRole('button', { name: 'Punkt hinzufügen', exact: true }).click();
    await admin.keyboard.type('Begrüßung');
    const second = card(admin, '2 Begrüßung');
    dialog = await pickDocuments(admin, second, ['Mitgliedervertreter', folderTitle], [docs.einladung]);
    await dialog.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(second.getByText(`${docs.einladung}.pdf`)).toBeVisible();
    await expect(first.getByText(`${docs.kasse}.pdf`)).toBeVisible();
    // Only the Vertreter are invited, and they see all three: no warning.
    await expect(admin.getByText(/nicht sichtbar/)).toHaveCount(0);
  });

  await test.step('drags "Begrüßung" to the top with the mouse', async () => {
    await dragGrip(
      admin,
      admin.getByRole('button', { name: 'Punkt 2 „Begrüßung“ verschieben' }),
      card(admin, '1 Jahresabschluss'),
    );
    await expect.poll(() => agendaNames(admin)).toEqual(['1 Begrüßung', '2 Jahresabschluss']);
    await expectNoAxeViolationsAtBothWidths(admin);
  });

  await test.step('saves in one request and sees the agenda on the event page', async () => {
    const saved = admin.waitForRequest((req) => req.method() === 'PUT' && req.url().endsWith('/agenda'));
    await admin.getByRole('button', { name: 'Speichern' }).click();
    expect((await saved).postDataJSON()).toMatchObject({
      items: [
        { title: 'Begrüßung', file_ids: [expect.any(Number)], children: [] },
        {
          title: 'Jahresabschluss',
          presenter: 'Vorstand',
          file_ids: [expect.any(Number), expect.any(Number)],
        },
      ],
    });
    await expect(admin.getByText('Tagesordnung gespeichert')).toBeVisible();
    await expect(admin).toHaveURL(new RegExp(`/events/show/${eventId}$`));
    const agenda = admin.getByRole('region', { name: 'Tagesordnung' });
    await expect(agenda.getByText('2 Punkte · 3 Dokumente')).toBeVisible();
    await expect(agenda.getByRole('link', { name: 'Tagesordnung bearbeiten' })).toBeVisible();
    await expectNoAxeViolationsAtBothWidths(admin);
  });
  await admin.context().close();

  const vertreter = await signedInPage(browser, 'vertreter');
  await test.step('a Vertreter sees the agenda and says Zusage from the event page', async () => {
    await vertreter.goto(`/events/show/${eventId}`);
    const agenda = vertreter.getByRole('region', { name: 'Tagesordnung' });
    await expect(agenda.getByRole('heading', { level: 3 })).toHaveText(['1 Begrüßung', '2 Jahresabschluss']);
    await expect(agenda.getByText(`${docs.abschluss}.pdf`)).toBeVisible();
    await expect(agenda.getByRole('link', { name: /Tagesordnung/ })).toHaveCount(0);
    await expectNoAxeViolationsAtBothWidths(vertreter);

    const answer = vertreter.getByRole('region', { name: 'Ihre Antwort' });
    await answer.getByRole('button', { name: 'Zusage' }).click();
    await answer.getByRole('button', { name: 'Antwort speichern' }).click();
    await expect(vertreter.getByText('Ihre Antwort wurde gespeichert')).toBeVisible();
    await expect(answer.getByText('Gespeichert:')).toBeVisible();
  });

  await test.step('opens a document of the agenda as the file dialog does', async () => {
    const agenda = vertreter.getByRole('region', { name: 'Tagesordnung' });
    const download = vertreter.waitForEvent('download');
    await agenda.getByRole('button', { name: `„${docs.einladung}.pdf“ herunterladen` }).click();
    expect((await download).suggestedFilename()).toBe(`${docs.einladung}.pdf`);
  });

  await test.step('downloads the Sitzungsmappe: one PDF', async () => {
    const response = vertreter.waitForResponse((res) => res.url().endsWith(`/events/${eventId}/book.pdf`));
    const download = vertreter.waitForEvent('download');
    await vertreter.getByRole('button', { name: 'Sitzungsmappe herunterladen' }).click();
    expect((await response).status()).toBe(200);
    expect((await response).headers()['content-type']).toMatch(/^application\/pdf/);
    const file = readFileSync((await (await download).path())!);
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
  await vertreter.context().close();
});

test('the editor on a phone: the fields, the picker and the menu fit and pass axe', async ({
  browser,
  request,
}) => {
  const token = await apiToken(request, 'admin');
  const res = await request.post(`${BASE_URL}/api/v1/events`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      title: `Aufsichtsratssitzung ${stamp()}`,
      roles: ['Aufsichtsrat'],
      start: '2031-03-10T09:00',
      end: '2031-03-10T12:00',
      location: 'Geschäftsstelle',
      description: 'Quartalssitzung',
    },
  });
  const eventId = ((await res.json()) as { event: { id: number } }).event.id;
  const page = await signedInPage(browser, 'admin', 375);
  await page.goto(`/events/agenda/${eventId}`);
  await page.getByRole('button', { name: 'Punkt hinzufügen', exact: true }).click();
  await page.keyboard.type('Bericht des Vorstands');
  const item = card(page, '1 Bericht des Vorstands');
  await item.getByRole('button', { name: 'Unterpunkt hinzufügen' }).click();
  await page.keyboard.type('Aussprache');
  await page.getByRole('button', { name: 'Weitere Aktionen für Unterpunkt 1.1 „Aussprache“' }).click();
  await expect(page.getByRole('menuitem', { name: 'Zum eigenen Punkt machen' })).toBeVisible();
  await expectNoAxeViolationsAtBothWidths(page);
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 375, height: 812 });
  await item.getByRole('button', { name: 'Dokumente auswählen' }).first().click();
  await expect(
    page
      .getByRole('dialog', { name: 'Dokumente auswählen' })
      .getByRole('button', { name: 'Aufsichtsrat', exact: true }),
  ).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await expectNoAxeViolationsAtBothWidths(page);
  // An empty title is refused with the contract's message.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Dokumente auswählen' })).toBeHidden();
  await item
    .getByRole('textbox', { name: labelled('Titel') })
    .first()
    .fill('');
  await page.getByRole('button', { name: 'Speichern' }).click();
  await expect(card(page, '1 Neuer Punkt').getByText('Titel ist erforderlich.')).toBeVisible();
  await page.context().close();
});
