import { expect, test, type Locator, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  expectNoAxeViolationsAtBothWidths,
  labelled,
  signedInPage,
} from './support/fixtures.ts';

/*
 * Decision 129: an admin uploads a PDF with a known sentence; the portal reads its text in the
 * background; a Vertreter types part of a compound word from it into the header field, opens all
 * hits, sees the snippet with the word marked and opens the document. The Aufsichtsrat's own
 * document with the same word stays out of the Vertreter's hits.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function pdfWith(sentence: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText(sentence, { x: 40, y: 780, size: 11, font });
  return Buffer.from(await pdf.save());
}

async function chooseOption(page: Page, scope: Locator, box: string, option: string) {
  await scope.getByRole('combobox', { name: labelled(box) }).click({ force: true });
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a Vertreter finds a document by part of a word inside it and opens it', async ({
  browser,
  request,
}) => {
  const id = stamp();
  const title = `Bericht des Vorstands ${id}`;
  const sentence = 'Die Vertreterversammlung billigt den Kassenprüfungsbericht einstimmig.';

  await test.step('an admin uploads the PDF', async () => {
    const admin = await signedInPage(browser, 'admin');
    await admin.goto('/files/new');
    const form = admin.getByRole('form', { name: 'Datei hochladen' });
    await chooseOption(admin, form, 'Ordner', '/Mitgliedervertreter');
    await form.getByRole('textbox', { name: labelled('Titel') }).fill(title);
    await form.locator('input[type="file"]').setInputFiles({
      name: 'bericht.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfWith(sentence),
    });
    await form.getByRole('button', { name: 'Hochladen' }).click();
    await expect(admin).toHaveURL(/\/files(\?|\/show)/);
    await admin.context().close();
  });

  // The same word in a document only the Aufsichtsrat may see.
  const adminToken = await apiToken(request, 'admin');
  const hidden = await request.post(`${BASE_URL}/api/v1/files`, {
    headers: { Authorization: `Bearer ${adminToken}` },
    multipart: {
      title: `Vertraulich ${id}`,
      permissions: 'Aufsichtsrat',
      folder_id: '2',
      file: {
        name: 'v.pdf',
        mimeType: 'application/pdf',
        buffer: await pdfWith('Geheimer Kassenprüfungsbericht.'),
      },
    },
  });
  expect(hidden.status()).toBe(201);

  // The text is read in the background, within seconds.
  const token = await apiToken(request, 'vertreter');
  await expect
    .poll(
      async () => {
        const res = await request.get(`${BASE_URL}/api/v1/search?q=pruefungsbericht`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        return ((await res.json()) as { data: { title: string }[] }).data.map((hit) => hit.title);
      },
      { timeout: 30_000 },
    )
    .toContain(title);

  const page = await signedInPage(browser, 'vertreter');
  await page.goto('/files');
  await test.step('types part of the compound into the header field', async () => {
    await expect(page.getByRole('heading', { name: 'Dateien', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Suchen' })).toBeVisible();
    await page.keyboard.press('/');
    const field = page.getByRole('combobox', { name: 'Suchen' });
    await expect(field).toBeFocused();
    await field.fill('prüfungsbericht');
    // No title holds the word: the dropdown shows the document whose text does, with the text
    // around it, and never the Aufsichtsrat's.
    const inText = page.getByRole('group', { name: 'Im Text gefunden' });
    await expect(inText.getByRole('option', { name: new RegExp(title) })).toBeVisible();
    await expect(inText.getByText(/Kassenprüfungsbericht einstimmig/)).toBeVisible();
    await expect(inText.getByText(`Vertraulich ${id}`)).toHaveCount(0);
    await expectNoAxeViolations(page);
    await expect(page.getByRole('option', { name: /Alle Treffer für „prüfungsbericht“/ })).toBeVisible();
    await field.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=pr%C3%BCfungsbericht/);
  });

  const results = page.getByRole('table', { name: 'Suchergebnisse' });
  const hit = results.getByRole('row').filter({ hasText: title });
  await test.step('sees the snippet with the word marked, and nothing hidden', async () => {
    await expect(hit).toBeVisible();
    await expect(hit.getByText(/Kassenprüfungsbericht einstimmig/)).toBeVisible();
    await expect(hit.locator('mark').filter({ hasText: /^prüfungsbericht$/ })).toBeVisible();
    await expect(results.getByText(`Vertraulich ${id}`)).toHaveCount(0);
    await expectNoAxeViolationsAtBothWidths(page);
  });

  await test.step('opens the document', async () => {
    await hit.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(/\/files\/show\/\d+$/);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  });
  await page.context().close();
});
