import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  ACCOUNTS,
  apiToken,
  BASE_URL,
  expectNoAxeViolationsAtBothWidths,
  labelled,
  signedInPage,
  waitForMail,
} from './support/fixtures.ts';

/*
 * Publishing a meeting tells the members (decision 181): the office publishes the Tagesordnung
 * after its summary, the member's mail leads to the Sitzungsmappe, a changed place is mailed with
 * the calendar entry. axe at 375 and 1280 px; SCREENSHOT_DIR=<dir> keeps pictures.
 */

const PHONE = { width: 375, height: 812 };
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function picture(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

test('the office publishes the agenda, the member follows the mail to the Sitzungsmappe, a new place is mailed', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  const title = `Vertreterversammlung ${id}`;
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const created = await request.post(`${BASE_URL}/api/v1/events`, {
    headers,
    data: {
      title,
      roles: ['Vertreter'],
      start: '2031-09-10T18:00',
      end: '2031-09-10T21:00',
      location: 'Gemeindesaal',
      description: 'Ordentliche Versammlung mit Wahlen.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const eventId = ((await created.json()) as { event: { id: number } }).event.id;
  const agenda = await request.put(`${BASE_URL}/api/v1/events/${eventId}/agenda`, {
    headers,
    data: { items: [{ title: 'Bericht des Vorstands' }, { title: 'Wahlen zum Aufsichtsrat' }] },
  });
  expect(agenda.status(), await agenda.text()).toBe(200);

  // The office, on a desktop: the summary first, then one click sends.
  const office = await signedInPage(browser, 'admin');
  await office.goto(`/events/show/${eventId}`);
  const section = office.getByRole('region', { name: 'Tagesordnung' });
  await expect(section).toContainText('noch nicht an die Mitglieder gesendet');
  await section.getByRole('button', { name: 'Tagesordnung veröffentlichen' }).click();
  const dialog = office.getByRole('dialog', { name: 'Tagesordnung veröffentlichen' });
  await expect(dialog).toContainText(/\d+ (Person|Personen) mit einer Rolle dieser Sitzung/);
  await expectNoAxeViolationsAtBothWidths(office);
  await office.setViewportSize({ width: 1280, height: 900 });
  await picture(office, 'tagesordnung-veroeffentlichen-desktop');
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Tagesordnung senden' }).click();
  await expect(office.getByText(/Tagesordnung an \d+ (Person|Personen) gesendet/)).toBeVisible();
  await expect(section).toContainText('an die Mitglieder gesendet am');
  await expect(section.getByRole('button', { name: 'Änderungen mitteilen' })).toBeVisible();

  // The member's mail: the agenda and the way to the Sitzungsmappe.
  const mail = await waitForMail(ACCOUNTS.vertreter.email, since, 15_000, title);
  expect(mail).toContain('TOP 1 Bericht des Vorstands');
  expect(mail).toContain('TOP 2 Wahlen zum Aufsichtsrat');
  const bookLink = new RegExp(`https?://[^\\s"<>]+/events/show/${eventId}#sitzungsmappe`).exec(mail)?.[0];
  expect(bookLink, 'Link zur Sitzungsmappe').toBeDefined();

  // On a phone, the link lands on the Sitzungsmappe.
  const member = await signedInPage(browser, 'vertreter', PHONE.width);
  await member.setViewportSize(PHONE);
  await member.goto(new URL(bookLink!).pathname + '#sitzungsmappe');
  const book = member.getByRole('region', { name: 'Sitzungsmappe' });
  await expect(book.getByRole('button', { name: 'Sitzungsmappe herunterladen' })).toBeInViewport();
  await picture(member, 'mail-link-sitzungsmappe-phone');
  await member.context().close();

  // A new place, mailed with what changed and the calendar entry.
  await office.goto(`/events/update/${eventId}`);
  const form = office.getByRole('form', { name: 'Event bearbeiten' });
  await expect(form.getByRole('checkbox', { name: /Mitglieder benachrichtigen/ })).toHaveCount(0);
  await form.getByRole('textbox', { name: labelled('Ort') }).fill(`Stadthalle ${id}`);
  await form.getByRole('checkbox', { name: /Mitglieder benachrichtigen/ }).check();
  await expect(form).toContainText(`Ort: Gemeindesaal → Stadthalle ${id}`);
  await expectNoAxeViolationsAtBothWidths(office);
  await office.setViewportSize(PHONE);
  await form.getByRole('checkbox', { name: /Mitglieder benachrichtigen/ }).scrollIntoViewIfNeeded();
  await picture(office, 'mitglieder-benachrichtigen-phone');
  await office.setViewportSize({ width: 1280, height: 900 });
  const changedSince = Date.now();
  await form.getByRole('button', { name: 'Aktualisieren' }).click();
  await expect(office.getByText(/Änderungen an \d+ (Person|Personen) gesendet/)).toBeVisible();
  const change = await waitForMail(ACCOUNTS.vertreter.email, changedSince, 15_000, `Stadthalle ${id}`);
  expect(change).toContain(`Ort: Gemeindesaal → Stadthalle ${id}`);
  expect(change).toMatch(/text\/calendar;[^\n]*method=REQUEST/i);
  expect(change).toContain('METHOD:REQUEST');
  await office.context().close();
});
