import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  apiToken,
  BASE_URL,
  expectNoAxeViolations,
  labelled,
  linkFrom,
  loginAs,
  uploadViaApi,
  waitForMail,
} from './support/fixtures.ts';

/*
 * "Gremien und Amtsperioden" (decision 189): an admin enters the Aufsichtsrat's term and imports
 * its members from a CSV file; a member reads the directory on a phone; a Mitglied resigns, the
 * first Ersatzmitglied moves up and reads the committee's papers, the resigned one no longer;
 * a term entered after it ended is an archive at once.
 *
 * The portal is shared with the other journeys of this worker: only fresh people (stamped
 * addresses) become members, the role accounts stay as they are. The seed's Aufsichtsrat is used
 * when its calendar is free for the two terms; a second run against the same portal (it then has
 * them) uses a committee of its own, of the kind Aufsichtsrat.
 */

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const CURRENT = { start: '2026-07-01', end: '2030-06-30', title: 'Amtsperiode 2026–2030' } as const;
const PAST = { start: '2021-07-01', end: '2026-06-30', title: 'Amtsperiode 2021–2026' } as const;
const ARCHIVED_MESSAGE = 'Dieser Ordner ist archiviert';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

interface Person {
  title: 'Herr' | 'Frau';
  firstname: string;
  lastname: string;
  email: string;
  /** As the CSV file writes it. */
  function: string;
  rank?: number;
}
const nameOf = (person: Person) => `${person.firstname} ${person.lastname}`;

interface CommitteeRef {
  id: number;
  name: string;
  role: { name: string };
  folder: { id: number; breadcrumb: string } | null;
}
interface TermRef {
  start: string;
  end: string;
}

/** `YYYY-MM-DD`: today in the cooperative's time zone, as the portal counts days. */
const berlinToday = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
/** The calendar day before `day`. */
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const german = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
const overlaps = (a: TermRef, b: TermRef) => a.start <= b.end && b.start <= a.end;

/**
 * The seed's Aufsichtsrat while neither term would overlap one of its own; otherwise (a run before
 * this one in the same portal) a new committee of the kind Aufsichtsrat, with its own role and folder.
 */
async function committeeForJourney(request: APIRequestContext, id: string): Promise<CommitteeRef> {
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const list = await request.get(`${BASE_URL}/api/v1/committees`, { headers });
  expect(list.status(), await list.text()).toBe(200);
  const committees = ((await list.json()) as { data: CommitteeRef[] }).data;
  const seeded = committees.find((committee) => committee.name === 'Aufsichtsrat');
  expect(seeded, 'Gremium „Aufsichtsrat“ aus der Erstbefüllung').toBeDefined();
  const terms = await request.get(`${BASE_URL}/api/v1/committees/${seeded!.id}/terms`, { headers });
  expect(terms.status()).toBe(200);
  const taken = ((await terms.json()) as { data: TermRef[] }).data;
  if (!taken.some((term) => overlaps(term, CURRENT) || overlaps(term, PAST))) return seeded!;

  const created = await request.post(`${BASE_URL}/api/v1/committees`, {
    headers,
    data: { name: `Aufsichtsrat ${id}`, kind: 'aufsichtsrat' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: CommitteeRef }).data;
}

const csvOf = (people: readonly Person[]) =>
  Buffer.from(
    [
      'Anrede;Vorname;Nachname;E-Mail;Funktion;Rang',
      ...people.map((p) => [p.title, p.firstname, p.lastname, p.email, p.function, p.rank ?? ''].join(';')),
    ].join('\r\n') + '\r\n',
    'utf8',
  );

const directory = (page: Page) => page.getByRole('region', { name: 'Mitgliederverzeichnis' });
/** A person's card in one group of the directory ("Mitglieder", "Ausgeschieden" …). */
const cardIn = (page: Page, group: string, name: string): Locator =>
  directory(page)
    .getByRole('region', { name: group, exact: true })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

/** A day typed into a calendar field as a member would ("01.07.2026"); Tab leaves it. */
async function typeDay(scope: Locator, label: string, day: string) {
  const field = scope.getByRole('textbox', { name: labelled(label) });
  await field.fill(german(day));
  await field.press('Tab');
  await expect(field).toHaveValue(german(day));
}

/** "Amtsperiode anlegen" on the committee page, through its dialog. */
async function createTerm(page: Page, term: { start: string; end: string; title: string }) {
  await page.getByRole('button', { name: 'Amtsperiode anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Amtsperiode anlegen' });
  await typeDay(dialog, 'Beginn', term.start);
  await typeDay(dialog, 'Ende', term.end);
  await expect(dialog.getByText(`Titel: ${term.title}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Amtsperiode anlegen' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, `Die ${term.title} wurde angelegt.`).first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Amtsperiode', exact: true })).toHaveValue(
    new RegExp(`^${term.title}`),
  );
}

/** A fresh context at a phone's width, signing up through the invitation link of the mail. */
async function acceptInvitation(browser: Browser, person: Person, since: number, password: string) {
  const mail = await waitForMail(person.email, since, 20_000, '/willkommen?');
  expect(mail).toContain(person.lastname);
  const link = new URL(linkFrom(mail));
  expect(link.pathname).toBe('/willkommen');
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(
    page.getByRole('heading', { name: 'Willkommen im Gremienportal – Passwort festlegen' }),
  ).toBeVisible();
  await page.getByLabel(/^Passwort( \*)?$/).fill(password);
  await page.getByLabel(/^Passwort bestätigen/).fill(password);
  await page.getByRole('button', { name: 'Passwort festlegen' }).click();
  await expect(page).not.toHaveURL(/\/willkommen|\/login/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return page;
}

/** Waits until nothing loads any more (the directory and its term come in two requests). */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root, [aria-busy="true"]')).toHaveCount(0);
}

test.describe('Gremien und Amtsperioden', () => {
  test('an admin enters the term and imports the members; one resigns, the first Ersatzmitglied moves up; an ended term is an archive', async ({
    page,
    browser,
    request,
  }) => {
    // A whole term's story: two dialogs, an import, three sign-ups, two archive checks.
    test.setTimeout(300_000);
    const id = stamp();
    const mail = (local: string) => `${local}.${id}@example.org`;
    const vorsitz: Person = {
      title: 'Frau',
      firstname: 'Łucja',
      lastname: 'Nowak',
      email: mail('lucja.nowak'),
      function: 'Vorsitz',
    };
    const stellvertretung: Person = {
      title: 'Herr',
      firstname: 'Emre',
      lastname: 'Şahin',
      email: mail('emre.sahin'),
      function: 'stellvertretender Vorsitz',
    };
    const schriftfuehrung: Person = {
      title: 'Frau',
      firstname: 'Jördis',
      lastname: 'Brückner',
      email: mail('joerdis.brueckner'),
      function: 'Schriftführung',
    };
    const leaving: Person = {
      title: 'Herr',
      firstname: 'Ömer',
      lastname: 'Yılmaz',
      email: mail('oemer.yilmaz'),
      function: 'Mitglied',
    };
    const staying: Person = {
      title: 'Frau',
      firstname: 'Ingrid',
      lastname: 'Weiß',
      email: mail('ingrid.weiss'),
      function: 'Mitglied',
    };
    const firstSubstitute: Person = {
      title: 'Herr',
      firstname: 'Çağrı',
      lastname: 'Demir',
      email: mail('cagri.demir'),
      function: 'Ersatzmitglied',
      rank: 1,
    };
    const secondSubstitute: Person = {
      title: 'Frau',
      firstname: 'Anneliese',
      lastname: 'Groß',
      email: mail('anneliese.gross'),
      function: 'Ersatzmitglied',
      rank: 2,
    };
    const people = [
      // Not in the directory's order: the directory sorts, not the file.
      staying,
      firstSubstitute,
      leaving,
      schriftfuehrung,
      secondSubstitute,
      stellvertretung,
      vorsitz,
    ];

    const committee = await committeeForJourney(request, id);
    expect(committee.folder, 'Ordner des Gremiums').not.toBeNull();
    const committeeFolder = committee.folder!;
    const adminToken = await loginAs(page, 'admin');
    const adminHeaders = { authorization: `Bearer ${adminToken}` };
    let importedAt = 0;

    await test.step('the admin enters the Amtsperiode 2026–2030 and imports its members by CSV', async () => {
      await page.goto(`/gremien/${committee.id}`);
      await expect(page.getByRole('heading', { name: committee.name, level: 1 })).toBeVisible();
      await createTerm(page, CURRENT);
      await expect(directory(page)).toContainText(`${german(CURRENT.start)} bis ${german(CURRENT.end)}`);
      await expect(directory(page).getByText('laufend', { exact: true })).toBeVisible();
      await expect(directory(page)).toContainText('In dieser Amtsperiode gibt es noch keine Mitglieder.');

      await page.getByRole('button', { name: 'Mitglieder importieren' }).click();
      const dialog = page.getByRole('dialog', { name: 'Mitglieder importieren' });
      await expect(dialog).toContainText(`Die Mitglieder kommen in die ${CURRENT.title}.`);
      await dialog.locator('input[type="file"]').setInputFiles({
        name: 'mitglieder.csv',
        mimeType: 'text/csv',
        buffer: csvOf(people),
      });
      await expect(dialog.getByText('mitglieder.csv')).toBeVisible();
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: 'Datei prüfen' }).click();

      // The preview: nothing changed yet, one row per person with what will happen.
      await expect(dialog.getByText(`Vorschau für „mitglieder.csv“ in der ${CURRENT.title}.`)).toBeVisible();
      await expect(
        dialog.getByText('Die Datei ergibt: 7 neue Konten und 7 neue Mitgliedschaften.', { exact: true }),
      ).toBeVisible();
      const preview = dialog.getByRole('table', { name: 'Vorschau des Imports' });
      await expect(preview.locator('tbody tr')).toHaveCount(7);
      for (const [index, person] of people.entries()) {
        const row = preview.locator('tbody tr').nth(index);
        await expect(row.getByRole('cell').first()).toHaveText(String(index + 2));
        await expect(row.getByRole('rowheader')).toHaveText(nameOf(person));
        await expect(row).toContainText(person.email);
        await expect(row).toContainText('Neues Konto mit Einladung und neue Mitgliedschaft');
      }
      await expectNoAxeViolations(page);

      importedAt = Date.now() - 1000;
      await dialog.getByRole('button', { name: 'Import ausführen' }).click();
      await expect(dialog.getByRole('status')).toHaveText(
        'Import ausgeführt: 7 neue Konten und 7 neue Mitgliedschaften. Neue Konten erhalten eine Einladung per E-Mail.',
      );
      await expect(toast(page, 'Import ausgeführt: 7 neue Konten').first()).toBeVisible();
      await dialog.getByRole('button', { name: 'Schließen' }).filter({ hasText: 'Schließen' }).click();
      await expect(dialog).toBeHidden();

      // The directory, grouped by function: Vorsitz first, the Ersatzmitglieder by rank last.
      await expect(directory(page).getByRole('heading', { level: 3 })).toHaveText([
        'Vorsitz',
        'Stellvertretender Vorsitz',
        'Schriftführung',
        'Mitglieder',
        'Ersatzmitglieder',
      ]);
      await expect(cardIn(page, 'Vorsitz', nameOf(vorsitz))).toBeVisible();
      await expect(cardIn(page, 'Stellvertretender Vorsitz', nameOf(stellvertretung))).toBeVisible();
      await expect(cardIn(page, 'Schriftführung', nameOf(schriftfuehrung))).toBeVisible();
      // Names in alphabetical order of the last name: Weiß before Yılmaz.
      await expect(
        directory(page)
          .getByRole('region', { name: 'Mitglieder', exact: true })
          .getByRole('heading', { level: 4 }),
      ).toHaveText([nameOf(staying), nameOf(leaving)]);
      const substitutes = directory(page)
        .getByRole('region', { name: 'Ersatzmitglieder', exact: true })
        .getByRole('listitem');
      await expect(substitutes).toHaveCount(2);
      await expect(substitutes.nth(0)).toContainText(nameOf(firstSubstitute));
      await expect(substitutes.nth(0)).toContainText('1. Ersatzmitglied');
      await expect(substitutes.nth(1)).toContainText(nameOf(secondSubstitute));
      await expect(substitutes.nth(1)).toContainText('2. Ersatzmitglied');
      // Applied at once: the term has begun, so every membership is active today.
      await expect(cardIn(page, 'Vorsitz', nameOf(vorsitz))).toContainText(`seit ${german(CURRENT.start)}`);
      await expect(page.getByText(`${CURRENT.title}, 5 Mitglieder`)).toBeVisible();
      await expectNoAxeViolations(page);
    });

    let memberPage!: Page;
    await test.step('a Mitglied signs up from the invitation and reads the directory on a phone', async () => {
      memberPage = await acceptInvitation(browser, leaving, importedAt, 'Sitz-Im-Aufsichtsrat-26');
      await memberPage.goto('/gremien');
      const cards = memberPage.getByRole('list', { name: 'Gremien' }).getByRole('listitem');
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toContainText(CURRENT.title);
      await expect(cards.first()).toContainText('5 Mitglieder');
      await settled(memberPage);
      for (const width of [375, 1280]) {
        await memberPage.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await memberPage.screenshot({ path: `/tmp/gremien-liste-${width}.png`, fullPage: true });
        await expectNoAxeViolations(memberPage);
      }

      await memberPage.setViewportSize({ width: 375, height: 812 });
      await cards.first().getByRole('link', { name: committee.name }).click();
      await expect(memberPage).toHaveURL(new RegExp(`/gremien/${committee.id}$`));
      await expect(memberPage.getByRole('heading', { name: committee.name, level: 1 })).toBeVisible();
      await expect(directory(memberPage).getByRole('heading', { level: 3 })).toHaveText([
        'Vorsitz',
        'Stellvertretender Vorsitz',
        'Schriftführung',
        'Mitglieder',
        'Ersatzmitglieder',
      ]);
      await expect(cardIn(memberPage, 'Ersatzmitglieder', nameOf(firstSubstitute))).toContainText(
        '1. Ersatzmitglied',
      );
      // Members read; only admins change the directory.
      for (const name of ['Mitglieder importieren', 'Mitglied hinzufügen', 'Amtsperiode anlegen']) {
        await expect(memberPage.getByRole('button', { name })).toHaveCount(0);
      }
      await expect(memberPage.getByRole('button', { name: /bearbeiten/ })).toHaveCount(0);
      await settled(memberPage);
      for (const width of [375, 1280]) {
        await memberPage.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await memberPage.screenshot({ path: `/tmp/gremien-${width}.png`, fullPage: true });
        const overflow = await memberPage.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `seitliches Scrollen bei ${width} px`).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(memberPage);
      }
    });

    await test.step('the Mitglied resigns; the first Ersatzmitglied moves up and reads the papers', async () => {
      const doc = await uploadViaApi(request, adminToken, {
        title: `Bericht an den Aufsichtsrat ${id}`,
        folderId: committeeFolder.id,
        role: committee.role.name,
        name: 'bericht.pdf',
        content: PDF,
      });
      const docHeading = (p: Page) =>
        p.getByRole('heading', { name: `Bericht an den Aufsichtsrat ${id}`, level: 1 });
      const notFound = (p: Page) => p.getByRole('heading', { name: 'Seite wurde nicht gefunden', level: 1 });

      // Before: the Mitglied reads it, the Ersatzmitglied not (Ersatzmitglieder do not see the papers).
      await memberPage.goto(`/files/show/${doc.id}`);
      await expect(docHeading(memberPage)).toBeVisible();
      const successorPage = await acceptInvitation(
        browser,
        firstSubstitute,
        importedAt,
        'Rang-Eins-Rueckt-Nach-7',
      );
      await successorPage.setViewportSize({ width: 1280, height: 800 });
      await successorPage.goto(`/files/show/${doc.id}`);
      await expect(notFound(successorPage)).toBeVisible();

      // The admin ends the membership yesterday, because of a Rücktritt.
      const today = berlinToday();
      const yesterday = dayBefore(today);
      await page.goto(`/gremien/${committee.id}`);
      await cardIn(page, 'Mitglieder', nameOf(leaving))
        .getByRole('button', { name: `Mitgliedschaft von ${nameOf(leaving)} bearbeiten` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Mitgliedschaft bearbeiten' });
      await expect(dialog.getByText(nameOf(leaving), { exact: true })).toBeVisible();
      await expect(dialog.getByRole('combobox', { name: labelled('Grund') })).toHaveCount(0);
      await typeDay(dialog, 'Bis', yesterday);
      await dialog.getByRole('combobox', { name: labelled('Grund') }).click();
      await page.getByRole('option', { name: 'Rücktritt', exact: true }).click();
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      await expect(dialog).toBeHidden();
      await expect(
        toast(page, `Die Mitgliedschaft von ${nameOf(leaving)} wurde gespeichert.`).first(),
      ).toBeVisible();

      const left = cardIn(page, 'Ausgeschieden', nameOf(leaving));
      await expect(left).toContainText(`${german(CURRENT.start)} bis ${german(yesterday)} (Rücktritt)`);
      await expect(left).toContainText(`Zum Nachrücken vorgeschlagen: ${nameOf(firstSubstitute)}`);
      await expect(page.getByText(`${CURRENT.title}, 4 Mitglieder`)).toBeVisible();
      await expectNoAxeViolations(page);

      // Their next request: the paper is gone for the one who resigned.
      await memberPage.reload();
      await expect(notFound(memberPage)).toBeVisible();
      await expect(memberPage.getByText(`Bericht an den Aufsichtsrat ${id}`)).toHaveCount(0);

      await left
        .getByRole('button', {
          name: `Nachrücken bestätigen: ${nameOf(firstSubstitute)} für ${nameOf(leaving)}`,
        })
        .click();
      const confirm = page.getByRole('dialog', { name: 'Nachrücken bestätigen' });
      await expect(confirm).toContainText(`${nameOf(firstSubstitute)} rückt nach`);
      await expect(confirm).toContainText(
        `für ${nameOf(leaving)}, ausgeschieden zum ${german(yesterday)}, und wird ab dem ${german(today)} Mitglied.`,
      );
      await expectNoAxeViolations(page);
      await confirm.getByRole('button', { name: 'Nachrücken bestätigen' }).click();
      await expect(confirm).toBeHidden();
      await expect(toast(page, `${nameOf(firstSubstitute)} ist nachgerückt.`).first()).toBeVisible();

      const movedUp = cardIn(page, 'Mitglieder', nameOf(firstSubstitute));
      await expect(movedUp).toContainText(`seit ${german(today)}`);
      await expect(directory(page).getByRole('button', { name: /^Nachrücken bestätigen/ })).toHaveCount(0);
      const substitutes = directory(page)
        .getByRole('region', { name: 'Ersatzmitglieder', exact: true })
        .getByRole('listitem');
      await expect(substitutes).toHaveCount(1);
      await expect(substitutes.first()).toContainText(nameOf(secondSubstitute));
      await expect(page.getByText(`${CURRENT.title}, 5 Mitglieder`)).toBeVisible();

      // The new Mitglied reads the paper: on its page and in the committee's folder.
      await successorPage.goto(`/files/show/${doc.id}`);
      await expect(docHeading(successorPage)).toBeVisible();
      await successorPage.goto(`/files?folder=${committeeFolder.id}`);
      await expect(
        successorPage.getByRole('table', { name: /^Inhalt von/ }).getByRole('link', {
          name: `Bericht an den Aufsichtsrat ${id}`,
        }),
      ).toBeVisible();
      // … and the one who resigned still not, nor the committee.
      const leaverToken = await memberPage.evaluate(() => localStorage.getItem('access_token'));
      const asLeaver = await memberPage.request.get(`${BASE_URL}/api/v1/files/${doc.id}`, {
        headers: { authorization: `Bearer ${leaverToken}` },
      });
      expect(asLeaver.status()).toBe(404);
      await memberPage.goto(`/gremien/${committee.id}`);
      await expect(notFound(memberPage)).toBeVisible();
      await successorPage.context().close();
      await memberPage.context().close();
    });

    await test.step('a term entered after it ended is an archive: read-only folder, no upload', async () => {
      await page.goto(`/gremien/${committee.id}`);
      await createTerm(page, PAST);
      await expect(page.getByRole('combobox', { name: 'Amtsperiode', exact: true })).toHaveValue(
        `${PAST.title} (Archiv)`,
      );
      await expect(directory(page)).toContainText(
        'Diese Amtsperiode ist beendet und archiviert: ihr Verzeichnis ist nur zum Nachlesen.',
      );
      for (const name of ['Mitglieder importieren', 'Mitglied hinzufügen', 'Amtsperiode bearbeiten']) {
        await expect(page.getByRole('button', { name })).toHaveCount(0);
      }
      await expectNoAxeViolations(page);

      const terms = await request.get(`${BASE_URL}/api/v1/committees/${committee.id}/terms`, {
        headers: adminHeaders,
      });
      const past = (
        (await terms.json()) as { data: (TermRef & { folder_id: number; archived: boolean })[] }
      ).data.find((term) => term.start === PAST.start)!;
      expect(past.archived).toBe(true);

      await page.getByRole('link', { name: 'Ordner der Amtsperiode' }).click();
      await expect(page).toHaveURL(new RegExp(`/files\\?folder=${past.folder_id}$`));
      const tools = page.getByRole('region', { name: 'Ordner und Dateien verwalten' });
      await expect(tools.getByText('Archiv', { exact: true })).toBeVisible();
      await expect(tools).toContainText(ARCHIVED_MESSAGE);
      await expect(page.getByRole('button', { name: 'Datei hochladen' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Neuer Ordner' })).toHaveCount(0);
      const treeItem = page
        .getByRole('navigation', { name: 'Ordnerbaum' })
        .getByRole('treeitem', { name: PAST.title, exact: true });
      await expect(treeItem).toHaveAccessibleDescription('Archiv');
      await expect(treeItem).toHaveAttribute('aria-current', 'true');
      await expectNoAxeViolations(page);

      // Through the API the upload is refused with the reason, in the folder and below it.
      const upload = await request.post(`${BASE_URL}/api/v1/files`, {
        headers: adminHeaders,
        multipart: {
          title: `Nachtrag ${id}`,
          permissions: committee.role.name,
          folder_id: String(past.folder_id),
          file: { name: 'nachtrag.pdf', mimeType: 'application/pdf', buffer: PDF },
        },
      });
      expect(upload.status()).toBe(422);
      expect(await upload.text()).toContain(ARCHIVED_MESSAGE);
    });
  });
});
