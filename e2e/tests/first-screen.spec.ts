import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, BASE_URL, expectNoAxeViolationsAtBothWidths, signedInPage } from './support/fixtures.ts';

/*
 * What a member meets first (decision 179): the answer from the mail on the first screen of a
 * phone with the Sitzungsmappe right after the facts, and the calendar subscription in one tap.
 * axe at 375 and 1280 px; SCREENSHOT_DIR=<dir> keeps a picture of each at both widths.
 */

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function pictures(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(dir, `${name}-${label}.png`), fullPage: true });
  }
}

test('the Zusage from the mail waits on the first screen, the Sitzungsmappe right after the facts', async ({
  browser,
  request,
}) => {
  const id = stamp();
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const created = await request.post(`${BASE_URL}/api/v1/events`, {
    headers,
    data: {
      title: `Vertreterversammlung ${id}`,
      roles: ['Vertreter'],
      start: '2031-06-10T18:00',
      end: '2031-06-10T21:00',
      location: 'Gemeindesaal der Genossenschaft, Hauptstraße 12',
      description: 'Ordentliche Versammlung mit Bericht des Vorstands und Wahlen.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const eventId = ((await created.json()) as { event: { id: number } }).event.id;
  const agenda = await request.put(`${BASE_URL}/api/v1/events/${eventId}/agenda`, {
    headers,
    data: {
      items: [
        { title: 'Bericht des Vorstands', presenter: 'Vorstand' },
        { title: 'Wahlen zum Aufsichtsrat', description: 'Beschlussvorschlag: Wahl per Handzeichen.' },
      ],
    },
  });
  expect(agenda.status(), await agenda.text()).toBe(200);

  const page = await signedInPage(browser, 'vertreter', PHONE.width);
  await page.setViewportSize(PHONE);
  await page.goto(`/events/show/${eventId}?antwort=zugesagt`);
  const question = page.getByRole('alert').filter({ hasText: 'Zusage speichern?' });
  await expect(question).toBeVisible();
  const save = page.getByRole('button', { name: 'Zusage speichern' });
  // On the phone's first screen, without scrolling.
  const box = (await save.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
  const book = page.getByRole('button', { name: 'Sitzungsmappe herunterladen' });
  const agendaHeading = page.getByRole('heading', { name: 'Tagesordnung', exact: true });
  expect((await book.boundingBox())!.y).toBeLessThan((await agendaHeading.boundingBox())!.y);
  await expectNoAxeViolationsAtBothWidths(page);
  await pictures(page, 'erste-seite-event');

  await save.click();
  await expect(page.getByText('Gespeichert:')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/events/show/${eventId}$`));
  await page.context().close();
});

test('the calendar subscription in one tap, with a line of help for each kind of phone', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'aufsichtsrat');
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Kalender abonnieren' });
  const create = section.getByRole('button', { name: /Kalender-Adresse erzeugen|Neue Adresse erzeugen/ });
  await create.click();
  const confirm = page.getByRole('dialog');
  if (await confirm.isVisible().catch(() => false)) await confirm.getByRole('button').last().click();
  const address = await section.getByRole('textbox', { name: 'Ihre Kalender-Adresse' }).inputValue();
  expect(address).toMatch(/^https?:\/\/\S+\.ics$/);
  await expect(section.getByRole('link', { name: 'Im Kalender abonnieren' })).toHaveAttribute(
    'href',
    address.replace(/^https?:\/\//, 'webcal://'),
  );
  await expect(section.getByRole('link', { name: 'In Google Kalender hinzufügen' })).toHaveAttribute(
    'href',
    `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(address.replace(/^https?:\/\//, 'webcal://'))}`,
  );
  const help = section.getByRole('list', { name: 'So geht es' });
  for (const device of ['iPhone und iPad:', 'Android:', 'Outlook:']) await expect(help).toContainText(device);
  await expectNoAxeViolationsAtBothWidths(page);
  await pictures(page, 'kalender-abonnieren');

  await section.getByRole('button', { name: 'Abonnement beenden' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Abonnement beenden' }).click();
  await expect(section.getByText('Sie haben derzeit kein Kalender-Abonnement.')).toBeVisible();
  await page.context().close();
});
