import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { generate } from 'otplib';
import { apiToken, BASE_URL, expectNoAxeViolations, linkFrom, waitForMail } from './support/fixtures.ts';

/*
 * "Beschlüsse" (decisions 190–191), the proof: the Vorsitz of an Aufsichtsrat starts an
 * Umlaufverfahren; two members follow the mail to the ballot on their phones and vote, a third
 * objects, which ends the procedure and tells everybody. A second Umlaufverfahren: all vote, the
 * Vorsitz closes and establishes the result with the authenticator's code; it enters the
 * Beschlussbuch with its number, on the page and in the PDF. Then a vote in a meeting: online
 * ballots under the agenda item, hand counts, the sum as the result. axe at 375 and 1280 px;
 * SCREENSHOT_DIR=<dir> keeps pictures of the ballot and the Beschlussbuch.
 *
 * The portal is shared with the other journeys of this worker: only fresh people (stamped
 * addresses) take part. The seed's Aufsichtsrat is used while its calendar is free for this
 * journey's term; otherwise (committees.spec.ts gave it terms first) a committee of its own, of
 * the kind Aufsichtsrat. The number's short name is read from the portal's answer either way.
 */

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** `YYYY-MM-DD` and `HH:mm` of an instant in the cooperative's time zone. */
function berlinParts(instant: Date): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
const berlinLocal = (instant: Date) => {
  const { day, time } = berlinParts(instant);
  return `${day}T${time}`;
};
const german = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
/** The calendar day `days` after `day`. */
const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The deadline's day the open form proposes: a week from today (18:00, Berlin). */
const defaultDeadlineDay = () => dayAfter(berlinParts(new Date()).day, 7);
/** "8 Dezember 2026": how the date picker names a day. */
const pickerDay = (day: string) =>
  `${Number(day.slice(8, 10))} ${new Intl.DateTimeFormat('de-DE', { month: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  )} ${day.slice(0, 4)}`;

/**
 * The authenticator app of the Vorsitz: the code of the earliest 30-second step the portal has not
 * accepted yet (each step counts once) and accepts now (at most one step ahead of its clock).
 */
class Authenticator {
  private last = -1;
  constructor(private readonly secret: string) {}
  async next(): Promise<string> {
    for (;;) {
      const current = Math.floor(Date.now() / 30_000);
      const step = Math.max(this.last + 1, current);
      if (step <= current + 1) {
        this.last = step;
        return generate({ secret: this.secret, epoch: step * 30 });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  /** A code of the right form that the portal refuses: a day old. */
  codeOfLongAgo(): Promise<string> {
    return generate({ secret: this.secret, epoch: Math.floor(Date.now() / 1000) - 86_400 });
  }
}

interface Person {
  title: 'Frau' | 'Herr';
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  id: number;
}
const nameOf = (person: Pick<Person, 'firstname' | 'lastname'>) => `${person.firstname} ${person.lastname}`;

interface CommitteeRef {
  id: number;
  name: string;
  role: { name: string };
}
interface TermRef {
  start: string;
  end: string;
}
interface MotionRef {
  id: number;
  title: string;
  text: string;
}
interface ResolutionRef {
  id: number;
  number: string;
  title: string;
  hash: string;
  result: string;
  reason: string;
}

const overlaps = (a: TermRef, b: TermRef) => a.start <= b.end && b.start <= a.end;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The seed's Aufsichtsrat while no term of its own overlaps `term`; else a new one of that kind. */
async function committeeForJourney(
  api: APIRequestContext,
  headers: Record<string, string>,
  id: string,
  term: TermRef,
): Promise<CommitteeRef> {
  const list = await api.get(`${BASE_URL}/api/v1/committees`, { headers });
  expect(list.status(), await list.text()).toBe(200);
  const seeded = ((await list.json()) as { data: CommitteeRef[] }).data.find(
    (committee) => committee.name === 'Aufsichtsrat',
  );
  expect(seeded, 'Gremium „Aufsichtsrat“ aus der Erstbefüllung').toBeDefined();
  const terms = await api.get(`${BASE_URL}/api/v1/committees/${seeded!.id}/terms`, { headers });
  expect(terms.status()).toBe(200);
  if (!((await terms.json()) as { data: TermRef[] }).data.some((taken) => overlaps(taken, term)))
    return seeded!;
  const created = await api.post(`${BASE_URL}/api/v1/committees`, {
    headers,
    data: { name: `Aufsichtsrat ${id}`, kind: 'aufsichtsrat' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: CommitteeRef }).data;
}

/** A fresh account through the API; the invitation's link sets the password (and signs in). */
async function createPerson(
  api: APIRequestContext,
  headers: Record<string, string>,
  person: Omit<Person, 'id'>,
  role: string,
): Promise<{ person: Person; token: string }> {
  const since = Date.now() - 1_000;
  const created = await api.post(`${BASE_URL}/api/v1/user`, {
    headers,
    data: {
      title: person.title,
      firstname: person.firstname,
      lastname: person.lastname,
      email: person.email,
      roles: [role],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const userId = ((await created.json()) as { user: { id: number } }).user.id;
  const link = new URL(linkFrom(await waitForMail(person.email, since, 20_000, '/willkommen?')));
  const accepted = await api.post(`${BASE_URL}/api/v1/auth/password-reset`, {
    data: {
      id: Number(link.searchParams.get('id')),
      token: link.searchParams.get('token'),
      password: person.password,
      password_confirmation: person.password,
    },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const signIn = ((await accepted.json()) as { sign_in?: { access_token?: string } }).sign_in;
  expect(signIn?.access_token, 'Anmeldung mit der Einladung').toBeTruthy();
  return { person: { ...person, id: userId }, token: signIn!.access_token! };
}

/** A browser of its own: a phone (375 px, touch) or a desktop, German, in Berlin. */
async function device(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport,
    hasTouch: viewport.width < 600,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    acceptDownloads: true,
    reducedMotion: 'reduce',
  });
  return context.newPage();
}

/** The password step of the login form, on the page the app sent the person to. */
async function passwordStep(page: Page, person: Person): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-Mail-Adresse').fill(person.email);
  await page.getByLabel(/^Passwort\s*\*?$/).fill(person.password);
  await page.getByRole('button', { name: 'Einloggen' }).click();
}

/** The link "Zur Abstimmung" of the mail that opened an Umlaufverfahren. */
function motionLinkFrom(mail: string, motionId: number): string {
  const match = new RegExp(`https?://[^\\s"<>]+/beschluesse/vorlagen/${motionId}(?=[\\s"<>])`).exec(mail);
  if (!match) throw new Error('Kein Link zur Abstimmung in der E-Mail');
  return new URL(match[0]).pathname;
}

const motionPath = (id: number) => `/beschluesse/vorlagen/${id}`;
const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const ballot = (page: Page, title: string) => page.getByRole('group', { name: `Ihre Stimme zu „${title}“` });
const stateBadge = (scope: Page | Locator, label: string) =>
  scope.locator('.mantine-Badge-root').filter({ hasText: new RegExp(`^${label}$`) });

/** Waits until nothing loads any more. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root, [aria-busy="true"]')).toHaveCount(0);
}

/**
 * What axe finds on the journeys' pages and dialogs, as "where: violations": the last journey
 * expects none, so a finding fails that one and the votes' journeys still tell their own story.
 */
const axeFound: string[] = [];
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

async function checkAxe(page: Page, where: string): Promise<void> {
  try {
    await expectNoAxeViolations(page);
  } catch (error) {
    // The fixture's message is a coloured diff; its added lines are the rules and the elements.
    const rules = (error as Error).message
      .replace(ANSI_COLOUR, '')
      .split('\n')
      .filter((line) => /^\s*\+\s+"/.test(line))
      .map((line) => line.replace(/^\s*\+\s+"|",?\s*$/g, ''));
    axeFound.push(`${where}: ${rules.join('; ') || (error as Error).message}`);
  }
}

/**
 * axe (and, with SCREENSHOT_DIR, a picture) at the phone's and the desktop's width, ending on
 * `end`; sideways scrolling fails at once.
 */
async function checkBothWidths(page: Page, name: string, end: 'phone' | 'desktop'): Promise<void> {
  const order = end === 'desktop' ? [PHONE, DESKTOP] : [DESKTOP, PHONE];
  for (const viewport of order) {
    await page.setViewportSize(viewport);
    await settled(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `seitliches Scrollen auf ${name} bei ${viewport.width} px`).toBeLessThanOrEqual(0);
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}-${viewport.width}.png`), fullPage: true });
    }
    await checkAxe(page, `${name} bei ${viewport.width} px`);
  }
}

/** Votes on the ballot and waits for the server's confirmation. */
async function vote(page: Page, title: string, choice: 'Ja' | 'Nein' | 'Enthaltung') {
  const group = ballot(page, title);
  await group.getByRole('button', { name: choice, exact: true }).click();
  await expect(page.getByText(`Ihre Stimme wurde gezählt. Ihre Stimme: ${choice}.`)).toBeVisible();
  await expect(group.getByRole('button', { name: choice, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
}

/** "Abstimmung schließen" with its question. */
async function closeVote(page: Page) {
  await section(page, 'Leitung der Abstimmung').getByRole('button', { name: 'Abstimmung schließen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abstimmung schließen?' });
  await dialog.getByRole('button', { name: 'Abstimmung schließen' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Die Abstimmung ist geschlossen.')).toBeVisible();
  await expect(stateBadge(page, 'Abstimmung geschlossen')).toBeVisible();
}

// ---------------------------------------------------------------------------------------------

const id = stamp();
const address = (local: string) => `${local}.${id}@example.org`;
const today = berlinParts(new Date()).day;
const year = Number(today.slice(0, 4));
/** A term of four years that covers today; its start year is in the numbers. */
const TERM = { start: `${year}-01-01`, end: `${year + 3}-12-31` } as const;

let api: APIRequestContext;
let adminHeaders: Record<string, string>;
let committee: CommitteeRef;
let chair: Person;
let chairToken: string;
let authenticator: Authenticator;
let members: [Person, Person, Person];
let chairPage: Page;
let phones: [Page, Page, Page];
/** The number the first resolution gets: "AR 2026/01" (or the committee's own short name). */
let firstNumber = '';
/** The motion of that resolution, for its page with the result. */
let establishedMotionId = 0;

/** A Beschlussvorlage as the Vorsitz writes it (through the API; the steps are the vote). */
async function createMotion(data: Record<string, unknown>): Promise<MotionRef> {
  const res = await api.post(`${BASE_URL}/api/v1/motions`, {
    headers: bearer(chairToken),
    data: { committee_id: committee.id, mode: 'offen', ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: MotionRef }).data;
}

/** "Ergebnis feststellen" with the authenticator's current code; the number from the answer. */
async function establish(page: Page, expectedResult: string): Promise<ResolutionRef> {
  await section(page, 'Leitung der Abstimmung').getByRole('button', { name: 'Ergebnis feststellen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ergebnis feststellen' });
  await expect(dialog.getByText('Voraussichtliches Ergebnis')).toBeVisible();
  await expect(dialog).toContainText(expectedResult);
  const answer = page.waitForResponse(
    (res) => /\/api\/v1\/motions\/\d+\/establish$/.test(res.url()) && res.request().method() === 'POST',
  );
  await dialog.getByLabel(/^Code aus Ihrer Authenticator-App/).fill(await authenticator.next());
  await dialog.getByRole('button', { name: 'Feststellen' }).click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(200);
  const resolution = ((await res.json()) as { data: ResolutionRef }).data;
  await expect(dialog).toBeHidden();
  await expect(toast(page, `Festgestellt: ${resolution.number} – Angenommen.`)).toBeVisible();
  await expect(stateBadge(page, 'Ergebnis festgestellt')).toBeVisible();
  await expect(
    section(page, 'Ergebnis').getByRole('link', { name: `Im Beschlussbuch: ${resolution.number}` }),
  ).toBeVisible();
  return resolution;
}

test.describe.configure({ mode: 'serial' });

test.describe('Beschlüsse', () => {
  test.beforeAll(async ({ browser, playwright }) => {
    // Four accounts with their invitations, a second factor and four browsers.
    test.setTimeout(120_000);
    api = await playwright.request.newContext();
    adminHeaders = bearer(await apiToken(api, 'admin'));
    committee = await committeeForJourney(api, adminHeaders, id, TERM);
    const term = await api.post(`${BASE_URL}/api/v1/committees/${committee.id}/terms`, {
      headers: adminHeaders,
      data: TERM,
    });
    expect(term.status(), await term.text()).toBe(201);
    const termId = ((await term.json()) as { data: { id: number } }).data.id;

    const people = [
      { title: 'Frau', firstname: 'Margarete', lastname: 'Köhler', email: address('margarete.koehler') },
      { title: 'Frau', firstname: 'Frieda', lastname: 'Lüders', email: address('frieda.lueders') },
      { title: 'Herr', firstname: 'Konstantin', lastname: 'Öztürk', email: address('konstantin.oeztuerk') },
      { title: 'Frau', firstname: 'Greta', lastname: 'Schmitz', email: address('greta.schmitz') },
    ] as const;
    const accounts = [];
    for (const [index, person] of people.entries()) {
      const { person: created, token } = await createPerson(
        api,
        adminHeaders,
        { ...person, password: `Gremium-Stimme-${index}-${id}` },
        committee.role.name,
      );
      const membership = await api.post(`${BASE_URL}/api/v1/committees/${committee.id}/members`, {
        headers: adminHeaders,
        data: { term_id: termId, user_id: created.id, function: index === 0 ? 'vorsitz' : 'mitglied' },
      });
      expect(membership.status(), await membership.text()).toBe(201);
      accounts.push({ person: created, token });
    }
    chair = accounts[0]!.person;
    members = [accounts[1]!.person, accounts[2]!.person, accounts[3]!.person];

    // The Vorsitz sets up the authenticator app (as on "Mein Account", through its API).
    const setupToken = accounts[0]!.token;
    const setup = await api.post(`${BASE_URL}/api/v1/account/two-factor/totp`, {
      headers: bearer(setupToken),
    });
    expect(setup.status(), await setup.text()).toBe(200);
    authenticator = new Authenticator(((await setup.json()) as { secret: string }).secret);
    const confirmed = await api.post(`${BASE_URL}/api/v1/account/two-factor/totp/confirm`, {
      headers: bearer(setupToken),
      data: { code: await authenticator.next(), current_password: chair.password },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);

    // … and signs in on the desktop with password and code.
    chairPage = await device(browser, DESKTOP);
    await chairPage.goto('/login');
    await passwordStep(chairPage, chair);
    const secondStep = chairPage.getByRole('form', { name: 'Bestätigungscode' });
    await secondStep.getByLabel(/^6-stelliger Code/).fill(await authenticator.next());
    await secondStep.getByRole('button', { name: 'Anmelden' }).click();
    await expect(chairPage).not.toHaveURL(/\/login/);
    chairToken = (await chairPage.evaluate(() => localStorage.getItem('access_token')))!;
    expect(chairToken).toBeTruthy();

    phones = [await device(browser, PHONE), await device(browser, PHONE), await device(browser, PHONE)];
  });

  test.afterAll(async () => {
    for (const page of [chairPage, ...(phones ?? [])]) await page?.context().close();
    await api?.dispose();
  });

  test('an Umlaufverfahren: members vote from the mail on their phones, an objection ends it, all are told', async () => {
    test.setTimeout(180_000);
    const [frieda, konstantin, greta] = members;
    const motion = await createMotion({
      title: 'Ankauf des Grundstücks Lindenweg 12',
      text: 'Der Aufsichtsrat stimmt dem Ankauf des Grundstücks Lindenweg 12 zum Kaufpreis von 480.000 Euro zu.',
      justification: 'Das Grundstück grenzt an den Markt und sichert die Erweiterung des Lagers.',
    });
    const reason = 'Das Wertgutachten liegt noch nicht vor; darüber sollten wir in der Sitzung sprechen.';
    const deadlineDay = dayAfter(today, 4);
    let openedAt = 0;

    await test.step('the Vorsitz starts the Umlaufverfahren with a deadline of their choosing', async () => {
      await chairPage.goto(motionPath(motion.id));
      await expect(chairPage.getByRole('heading', { level: 1, name: motion.title })).toBeVisible();
      await expect(stateBadge(chairPage, 'Entwurf')).toBeVisible();
      const lead = section(chairPage, 'Leitung der Abstimmung');
      const form = lead.getByRole('form', { name: 'Abstimmung öffnen' });
      // A motion of no meeting: the Umlaufverfahren is chosen already.
      await expect(
        form.getByRole('radio', { name: 'Umlaufverfahren (schriftlich, mit Frist)' }),
      ).toBeChecked();
      await form.getByRole('radio', { name: 'Abstimmung in der Sitzung' }).check();
      await expect(form.getByRole('button', { name: 'Abstimmung öffnen' })).toBeVisible();
      await form.getByRole('radio', { name: 'Umlaufverfahren (schriftlich, mit Frist)' }).check();

      // The deadline: four days from today at 18:00, in the picker (it opens on the default's month).
      await form.getByRole('button', { name: /^Frist/ }).click();
      const picker = chairPage.getByRole('dialog').filter({
        has: chairPage.getByRole('button', { name: 'Frist übernehmen' }),
      });
      const defaultMonth = defaultDeadlineDay().slice(0, 7);
      if (deadlineDay.slice(0, 7) !== defaultMonth)
        await picker.getByRole('button', { name: 'Vorheriger Monat' }).click();
      await picker.getByRole('button', { name: pickerDay(deadlineDay), exact: true }).click();
      await picker.getByLabel('Stunden').fill('18');
      await picker.getByLabel('Minuten').fill('00');
      await picker.getByRole('button', { name: 'Frist übernehmen' }).click();
      await expect(picker).toBeHidden();
      await expect(form.getByRole('button', { name: /^Frist/ })).toContainText(
        `${german(deadlineDay)} 18:00`,
      );

      await form.getByRole('button', { name: 'Umlaufverfahren starten' }).click();
      const confirm = chairPage.getByRole('dialog', { name: 'Umlaufverfahren starten?' });
      await expect(confirm).toContainText(
        `Alle Stimmberechtigten des Gremiums „${committee.name}“ erhalten eine E-Mail mit der Bitte, bis ${german(deadlineDay)}, 18:00 Uhr abzustimmen.`,
      );
      openedAt = Date.now() - 1_000;
      await confirm.getByRole('button', { name: 'Umlaufverfahren starten' }).click();
      await expect(confirm).toBeHidden();
      await expect(
        toast(
          chairPage,
          'Das Umlaufverfahren läuft; die Stimmberechtigten wurden per E-Mail gebeten abzustimmen.',
        ),
      ).toBeVisible();
      await expect(stateBadge(chairPage, 'Abstimmung läuft')).toBeVisible();
      await expect(chairPage.getByText(`Frist: ${german(deadlineDay)}, 18:00 Uhr (noch `)).toBeVisible();
      const electorate = section(chairPage, 'Stimmberechtigte und Zustellung');
      await expect(electorate).toContainText('0 von 4 Stimmberechtigten haben abgestimmt');
      await expect(electorate.getByRole('rowheader')).toHaveCount(4);
      // Before everyone has voted an Umlaufverfahren cannot be closed.
      await expect(chairPage.getByRole('button', { name: 'Abstimmung schließen' })).toHaveCount(0);
      await expect(
        chairPage.getByText('vorher schließen lässt es sich, sobald alle abgestimmt haben'),
      ).toBeVisible();
    });

    const links: string[] = [];
    await test.step('every voting member, the Vorsitz too, gets the mail with the way to the ballot', async () => {
      for (const person of [chair, ...members]) {
        const mail = await waitForMail(
          person.email,
          openedAt,
          15_000,
          `beschließt im Umlaufverfahren über „${motion.title}“`,
        );
        expect(mail).toContain(`Ihre Stimme wird bis zum ${german(deadlineDay)} 18:00 Uhr erbeten.`);
        expect(mail).toContain('Zur Abstimmung');
        links.push(motionLinkFrom(mail, motion.id));
      }
      expect(links.every((link) => link === motionPath(motion.id))).toBe(true);
    });

    await test.step('two members open the link on their phones, sign in and vote', async () => {
      for (const [index, [person, choice]] of (
        [
          [frieda, 'Ja'],
          [konstantin, 'Nein'],
        ] as const
      ).entries()) {
        const phone = phones[index]!;
        await phone.goto(links[index + 1]!);
        // Signed out, the link leads through the login and back to the ballot.
        await passwordStep(phone, person);
        await expect(phone).toHaveURL(new RegExp(`${motionPath(motion.id)}$`));
        await expect(phone.getByRole('heading', { level: 1, name: motion.title })).toBeVisible();
        await expect(phone.getByText(motion.text, { exact: true })).toBeVisible();
        const mine = section(phone, 'Ihre Stimme');
        await expect(mine.getByText('Sie haben noch nicht abgestimmt.')).toBeVisible();
        // Three large buttons, one below the other on the phone.
        const buttons = ballot(phone, motion.title).getByRole('button');
        await expect(buttons).toHaveText(['Ja', 'Nein', 'Enthaltung']);
        const boxes = await Promise.all([0, 1, 2].map(async (n) => (await buttons.nth(n).boundingBox())!));
        for (const box of boxes) {
          expect(box.height).toBeGreaterThanOrEqual(56);
          expect(box.width).toBeGreaterThan(280);
        }
        expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
        expect(boxes[2]!.y).toBeGreaterThan(boxes[1]!.y + boxes[1]!.height - 1);
        await expect(
          mine.getByRole('button', { name: 'Ich widerspreche der Beschlussfassung im Umlaufverfahren' }),
        ).toBeVisible();
        await vote(phone, motion.title, choice);
        await expect(mine.getByText(`Ihre Stimme: ${choice}`, { exact: true })).toBeVisible();
      }
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        '2 von 4 Stimmberechtigten haben abgestimmt',
      );
    });

    let objectedAt = 0;
    await test.step('a third member objects with a reason, which ends the Umlaufverfahren', async () => {
      const phone = phones[2];
      await phone.goto(links[3]!);
      await passwordStep(phone, greta);
      await expect(phone).toHaveURL(new RegExp(`${motionPath(motion.id)}$`));
      await section(phone, 'Ihre Stimme')
        .getByRole('button', { name: 'Ich widerspreche der Beschlussfassung im Umlaufverfahren' })
        .click();
      const dialog = phone.getByRole('dialog', { name: 'Widerspruch einlegen' });
      await expect(dialog).toContainText(`Sie widersprechen der Beschlussfassung über „${motion.title}“`);
      await dialog.getByRole('textbox', { name: 'Begründung' }).fill(reason);
      await checkAxe(phone, 'Dialog „Widerspruch einlegen“ bei 375 px');
      objectedAt = Date.now() - 1_000;
      await dialog.getByRole('button', { name: 'Widerspruch einlegen' }).click();
      await expect(dialog).toBeHidden();
      await expect(
        toast(phone, 'Ihr Widerspruch wurde festgehalten; das Umlaufverfahren ist damit beendet.'),
      ).toBeVisible();
      await expect(stateBadge(phone, 'Durch Widerspruch beendet')).toBeVisible();
      const result = section(phone, 'Ergebnis');
      await expect(result).toContainText(
        'Das Umlaufverfahren wurde durch Widerspruch beendet; über die Vorlage wird in einer Sitzung entschieden.',
      );
      await expect(result.getByRole('listitem')).toHaveText([`${nameOf(greta)}: ${reason}`]);
      await expect(result.getByRole('heading', { name: 'Widersprüche' })).toBeVisible();
      await expect(ballot(phone, motion.title)).toHaveCount(0);
    });

    await test.step('the pages of the others follow by themselves; everybody is told by mail', async () => {
      for (const page of [phones[0], chairPage]) {
        await expect(stateBadge(page, 'Durch Widerspruch beendet')).toBeVisible();
        await expect(ballot(page, motion.title)).toHaveCount(0);
        await expect(section(page, 'Ergebnis').getByRole('listitem')).toHaveText([
          `${nameOf(greta)}: ${reason}`,
        ]);
      }
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        '2 von 4 Stimmberechtigten haben abgestimmt · 1 hat widersprochen',
      );
      for (const person of [chair, ...members]) {
        const mail = await waitForMail(
          person.email,
          objectedAt,
          15_000,
          `Dem Umlaufverfahren über „${motion.title}“ wurde widersprochen; es ist damit beendet.`,
        );
        expect(mail).toContain(`Umlaufverfahren durch Widerspruch beendet`);
        expect(motionLinkFrom(mail, motion.id)).toBe(motionPath(motion.id));
      }
    });
  });

  test('a second Umlaufverfahren: all vote, the Vorsitz closes and establishes it with the code; it enters the Beschlussbuch and its PDF', async () => {
    test.setTimeout(180_000);
    const [frieda, , greta] = members;
    const motion = await createMotion({
      title: 'Feststellung des Jahresabschlusses',
      text: 'Der Aufsichtsrat stellt den Jahresabschluss zum 31.12. in der vom Vorstand vorgelegten Fassung fest.',
    });
    let openedAt = 0;

    await test.step('the Vorsitz starts it with the default deadline of a week', async () => {
      await chairPage.setViewportSize(DESKTOP);
      await chairPage.goto(motionPath(motion.id));
      const form = section(chairPage, 'Leitung der Abstimmung').getByRole('form', {
        name: 'Abstimmung öffnen',
      });
      await expect(form.getByRole('button', { name: /^Frist/ })).toContainText(
        `${german(defaultDeadlineDay())} 18:00`,
      );
      await form.getByRole('button', { name: 'Umlaufverfahren starten' }).click();
      const confirm = chairPage.getByRole('dialog', { name: 'Umlaufverfahren starten?' });
      openedAt = Date.now() - 1_000;
      await confirm.getByRole('button', { name: 'Umlaufverfahren starten' }).click();
      await expect(stateBadge(chairPage, 'Abstimmung läuft')).toBeVisible();
    });

    await test.step('the members vote on their phones: from the mail, and from "Laufende Abstimmungen"', async () => {
      for (const [person, phone, choice] of [
        [frieda, phones[0], 'Ja'],
        [greta, phones[2], 'Nein'],
      ] as const) {
        const mail = await waitForMail(person.email, openedAt, 15_000, `über „${motion.title}“`);
        await phone.goto(motionLinkFrom(mail, motion.id));
        await vote(phone, motion.title, choice);
      }
      // Konstantin finds it among the votes that wait for him.
      const phone = phones[1];
      await phone.goto('/beschluesse');
      const running = section(phone, 'Laufende Abstimmungen');
      await expect(running).toContainText('Ihre Stimme wird erbeten');
      const entry = running
        .getByRole('list', { name: 'Abstimmungen, die auf Ihre Stimme warten' })
        .getByRole('listitem');
      await expect(entry).toHaveCount(1);
      await expect(entry).toContainText(committee.name);
      await expect(entry).toContainText('Umlaufverfahren');
      await entry.getByRole('link', { name: motion.title }).click();
      await expect(phone).toHaveURL(new RegExp(`${motionPath(motion.id)}$`));
      await vote(phone, motion.title, 'Ja');
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        '3 von 4 Stimmberechtigten haben abgestimmt',
      );
    });

    await test.step('the Vorsitz votes last, closes the vote and establishes the result with the code', async () => {
      await expect(chairPage.getByRole('button', { name: 'Abstimmung schließen' })).toHaveCount(0);
      await vote(chairPage, motion.title, 'Ja');
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        '4 von 4 Stimmberechtigten haben abgestimmt',
      );
      await closeVote(chairPage);
      await expect(
        section(chairPage, 'Ergebnis').getByRole('group', {
          name: 'Stimmen: 3 Ja · 1 Nein · 0 Enthaltungen',
        }),
      ).toBeVisible();
      // A member's page shows the closed vote too.
      await expect(stateBadge(phones[0], 'Abstimmung geschlossen')).toBeVisible();

      // A wrong code (one of long ago) is refused; the dialog asks again.
      await section(chairPage, 'Leitung der Abstimmung')
        .getByRole('button', { name: 'Ergebnis feststellen' })
        .click();
      const dialog = chairPage.getByRole('dialog', { name: 'Ergebnis feststellen' });
      await checkAxe(chairPage, 'Dialog „Ergebnis feststellen“ bei 1280 px');
      const code = dialog.getByLabel(/^Code aus Ihrer Authenticator-App/);
      await code.fill(await authenticator.codeOfLongAgo());
      await dialog.getByRole('button', { name: 'Feststellen' }).click();
      await expect(
        dialog.getByText('Der Code ist ungültig. Bitte den aktuellen Code Ihrer Authenticator-App eingeben.'),
      ).toBeVisible();
      await expect(code).toHaveValue('');
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
      await expect(dialog).toBeHidden();

      const since = Date.now() - 1_000;
      const resolution = await establish(
        chairPage,
        'Angenommen mit 3 Ja-Stimmen gegen 1 Nein-Stimme bei 0 Enthaltungen',
      );
      // The first entry of the term: the committee's short name, the term's start year, 01.
      expect(resolution.number).toMatch(new RegExp(`^[A-Z]+(-\\d+)? ${TERM.start.slice(0, 4)}/01$`));
      if (committee.name === 'Aufsichtsrat')
        expect(resolution.number).toBe(`AR ${TERM.start.slice(0, 4)}/01`);
      firstNumber = resolution.number;
      establishedMotionId = motion.id;
      for (const person of [chair, ...members]) {
        const mail = await waitForMail(person.email, since, 15_000, `Nummer:`);
        expect(mail).toContain(resolution.number);
        expect(mail).toContain(motion.title);
        expect(mail).toContain(
          `Im Gremium „${committee.name}“ wurde das Ergebnis einer Abstimmung festgestellt.`,
        );
      }
    });

    await test.step('the entry in the Beschlussbuch, on the phone and on the desktop', async () => {
      const phone = phones[0];
      await phone.goto('/beschluesse');
      const book = section(phone, 'Beschlussbuch');
      await expect(book.getByRole('status').filter({ hasText: /Beschl/ })).toHaveText('1 Beschluss');
      const entry = book.getByRole('article', { name: `${firstNumber} · ${committee.name}` });
      await expect(entry).toContainText(motion.title);
      await expect(entry).toContainText(motion.text);
      await expect(entry).toContainText('Angenommen mit 3 Ja-Stimmen gegen 1 Nein-Stimme bei 0 Enthaltungen');
      await expect(entry).toContainText('Umlaufverfahren');
      await expect(stateBadge(entry, 'Angenommen')).toBeVisible();
      await expect(section(phone, 'Laufende Abstimmungen')).toContainText(
        'Zurzeit wartet keine Abstimmung auf Ihre Stimme.',
      );
      await entry.getByRole('link', { name: firstNumber }).click();
      await expect(phone.getByRole('heading', { level: 1 })).toContainText(firstNumber);
      await expect(phone.getByText(/^Prüfsumme: [0-9a-f]{64}$/)).toBeVisible();
    });

    await test.step('the PDF of the Beschlussbuch carries the entry with its hash', async () => {
      await chairPage.setViewportSize(DESKTOP);
      await chairPage.goto('/beschluesse');
      const book = section(chairPage, 'Beschlussbuch');
      await expect(book.getByRole('article', { name: `${firstNumber} · ${committee.name}` })).toBeVisible();
      // The Vorsitz also sees what is still open: the objected motion, to be recorded.
      await expect(section(chairPage, 'Offene Beschlussvorlagen')).toContainText(
        'Ankauf des Grundstücks Lindenweg 12',
      );
      const download = chairPage.waitForEvent('download');
      await book.getByRole('button', { name: 'Als PDF herunterladen' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.pdf$/);
      const path = test.info().outputPath('beschlussbuch.pdf');
      await file.saveAs(path);
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
      const flat = text.replace(/\s+/g, ' ');
      const listed = await api.get(`${BASE_URL}/api/v1/resolutions`, { headers: bearer(chairToken) });
      const entry = ((await listed.json()) as { data: ResolutionRef[] }).data.find(
        (resolution) => resolution.number === firstNumber,
      )!;
      expect(flat).toContain('Beschlussbuch');
      expect(flat).toContain(`${firstNumber} – ${motion.title}`);
      expect(flat).toContain(`Gremium: ${committee.name}`);
      expect(flat).toContain('Verfahren: Umlaufverfahren');
      expect(flat).toContain('Angenommen mit 3 Ja-Stimmen gegen 1 Nein-Stimme bei 0 Enthaltungen');
      expect(flat).toContain(`Vertraulich – erstellt für ${nameOf(chair)}`);
      expect(text.replace(/\s+/g, '')).toContain(`SHA-256:${entry.hash}`);
    });
  });

  test('a vote in the meeting: online ballots under the agenda item and hand counts add up to the result', async () => {
    test.setTimeout(180_000);
    // A meeting going on now, for the committee's role, with two agenda items.
    const now = Date.now();
    const created = await api.post(`${BASE_URL}/api/v1/events`, {
      headers: adminHeaders,
      data: {
        title: `Sitzung des Aufsichtsrats ${id}`,
        roles: [committee.role.name],
        start: berlinLocal(new Date(now - 15 * 60_000)),
        end: berlinLocal(new Date(now + 2 * 3_600_000)),
        location: 'Geschäftsstelle, Raum 2',
        description: 'Ordentliche Sitzung des Aufsichtsrats.',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const eventId = ((await created.json()) as { event: { id: number } }).event.id;
    const agenda = await api.put(`${BASE_URL}/api/v1/events/${eventId}/agenda`, {
      headers: adminHeaders,
      data: { items: [{ title: 'Bericht des Vorstands' }, { title: 'Wahl des Abschlussprüfers' }] },
    });
    expect(agenda.status(), await agenda.text()).toBe(200);
    const item = (
      (await agenda.json()) as { data: { id: number; number: string; title: string }[] }
    ).data.find((entry) => entry.title === 'Wahl des Abschlussprüfers')!;
    const motion = await createMotion({
      event_id: eventId,
      agenda_item_id: item.id,
      title: 'Wahl des Abschlussprüfers für das Geschäftsjahr',
      text: 'Der Aufsichtsrat beauftragt den Prüfungsverband mit der Prüfung des Jahresabschlusses.',
    });
    // The motion's own entry under the agenda item (the innermost list item with its link).
    const card = (page: Page) =>
      section(page, 'Tagesordnung')
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: motion.title }) })
        .filter({ hasNot: page.getByRole('listitem') });
    const phone = phones[0];

    await test.step('the member follows the meeting on the phone; the Vorsitz opens the vote there', async () => {
      await phone.setViewportSize(PHONE);
      await phone.goto(`/events/show/${eventId}`);
      await expect(card(phone)).toContainText(`Beschlussvorlage: ${motion.title}`);
      await expect(stateBadge(card(phone), 'Entwurf')).toBeVisible();
      await expect(ballot(phone, motion.title)).toHaveCount(0);

      await chairPage.setViewportSize(DESKTOP);
      await chairPage.goto(`/events/show/${eventId}`);
      await card(chairPage).getByRole('link', { name: 'Abstimmung öffnen' }).click();
      await expect(chairPage).toHaveURL(new RegExp(`${motionPath(motion.id)}$`));
      await expect(chairPage.getByRole('link', { name: 'Zur Sitzung' })).toBeVisible();
      const form = section(chairPage, 'Leitung der Abstimmung').getByRole('form', {
        name: 'Abstimmung öffnen',
      });
      await expect(form.getByRole('radio', { name: 'Abstimmung in der Sitzung' })).toBeChecked();
      await form.getByRole('button', { name: 'Abstimmung öffnen' }).click();
      await expect(toast(chairPage, 'Die Abstimmung ist geöffnet.')).toBeVisible();
      await expect(stateBadge(chairPage, 'Abstimmung läuft')).toBeVisible();
    });

    await test.step('two members vote online: on the meeting page on the phone, on the motion page on the desktop', async () => {
      // The ballot appears under the agenda item by itself.
      await expect(ballot(phone, motion.title)).toBeVisible({ timeout: 15_000 });
      await expect(stateBadge(card(phone), 'Abstimmung läuft')).toBeVisible();
      await checkAxe(phone, 'Sitzung mit Stimmzettel bei 375 px');
      await vote(phone, motion.title, 'Ja');

      const desktop = phones[1];
      await desktop.setViewportSize(DESKTOP);
      await desktop.goto(motionPath(motion.id));
      await expect(
        desktop.getByText('Sie können Ihre Stimme ändern, bis die Abstimmung geschlossen wird.'),
      ).toBeVisible();
      await vote(desktop, motion.title, 'Enthaltung');
      // … and changes it before the vote closes.
      await vote(desktop, motion.title, 'Nein');
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        '2 von 4 Stimmberechtigten haben abgestimmt',
      );
    });

    await test.step('the Vorsitz enters the hand counts of the room and closes the vote', async () => {
      const hands = section(chairPage, 'Leitung der Abstimmung').getByRole('form', {
        name: 'Handzeichen eintragen',
      });
      await hands.getByRole('textbox', { name: 'Ja', exact: true }).fill('1');
      await hands.getByRole('textbox', { name: 'Nein', exact: true }).fill('0');
      await hands.getByRole('textbox', { name: 'Enthaltung', exact: true }).fill('1');
      await checkAxe(chairPage, 'Beschlussvorlage der Sitzung mit Handzeichen bei 1280 px');
      await hands.getByRole('button', { name: 'Handzeichen speichern' }).click();
      await expect(toast(chairPage, 'Handzeichen gespeichert: 1 Ja · 0 Nein · 1 Enthaltung.')).toBeVisible();
      await expect(hands).toContainText(
        'Bisher eingetragen: 1 Ja · 0 Nein · 1 Enthaltung. Ein neuer Eintrag ersetzt ihn.',
      );
      await closeVote(chairPage);
      const result = section(chairPage, 'Ergebnis');
      // Two online (Ja, Nein) and the room's two (Ja, Enthaltung).
      await expect(
        result.getByRole('group', { name: 'Stimmen: 2 Ja · 1 Nein · 1 Enthaltung' }),
      ).toBeVisible();
      await expect(result).toContainText('Darin per Handzeichen: 1 Ja · 0 Nein · 1 Enthaltung.');
    });

    await test.step('the result on the meeting page; established, it carries the next number', async () => {
      await expect(card(phone)).toContainText('Stimmen: 2 Ja · 1 Nein · 1 Enthaltung');
      await expect(stateBadge(card(phone), 'Abstimmung geschlossen')).toBeVisible();
      await expect(ballot(phone, motion.title)).toHaveCount(0);

      const resolution = await establish(
        chairPage,
        'Angenommen mit 2 Ja-Stimmen gegen 1 Nein-Stimme bei 1 Enthaltung',
      );
      expect(resolution.number).toBe(firstNumber.replace(/\/01$/, '/02'));
      await expect(card(phone)).toContainText(resolution.number);
      await expect(stateBadge(card(phone), 'Angenommen')).toBeVisible();
      await expect(stateBadge(card(phone), 'Ergebnis festgestellt')).toBeVisible();

      await phone.goto('/beschluesse');
      const entry = section(phone, 'Beschlussbuch').getByRole('article', {
        name: `${resolution.number} · ${committee.name}`,
      });
      await expect(entry).toContainText('Angenommen mit 2 Ja-Stimmen gegen 1 Nein-Stimme bei 1 Enthaltung');
      await expect(entry.getByRole('link', { name: 'Abstimmung in der Sitzung' })).toHaveAttribute(
        'href',
        `/events/show/${eventId}`,
      );
    });
  });
  test('axe finds nothing on /beschluesse and on the motion page, at 375 and 1280 px', async () => {
    test.setTimeout(180_000);
    const motion = await createMotion({
      title: 'Änderung der Geschäftsordnung des Aufsichtsrats',
      text: 'Der Aufsichtsrat beschließt die Änderung seiner Geschäftsordnung in der Fassung der Anlage.',
      justification: 'Die Geschäftsordnung soll das Umlaufverfahren im Portal ausdrücklich vorsehen.',
    });
    const phone = phones[0];

    await test.step('the motion page: the Vorsitz before opening, the member with the ballot', async () => {
      await chairPage.goto(motionPath(motion.id));
      await expect(
        section(chairPage, 'Leitung der Abstimmung').getByRole('form', { name: 'Abstimmung öffnen' }),
      ).toBeVisible();
      await checkBothWidths(chairPage, 'vorlage-entwurf', 'desktop');
      const opened = await api.post(`${BASE_URL}/api/v1/motions/${motion.id}/open`, {
        headers: bearer(chairToken),
        data: { procedure: 'umlauf', deadline: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      });
      expect(opened.status(), await opened.text()).toBe(200);
      await phone.goto(motionPath(motion.id));
      await expect(ballot(phone, motion.title)).toBeVisible();
      await checkBothWidths(phone, 'vorlage-stimmzettel', 'phone');
      await chairPage.goto(motionPath(motion.id));
      await expect(section(chairPage, 'Stimmberechtigte und Zustellung')).toContainText(
        'von 4 Stimmberechtigten',
      );
      await checkBothWidths(chairPage, 'vorlage-leitung', 'desktop');
    });

    await test.step('the motion page with the established result', async () => {
      expect(establishedMotionId, 'festgestellte Beschlussvorlage').toBeGreaterThan(0);
      await phone.goto(motionPath(establishedMotionId));
      await expect(
        section(phone, 'Ergebnis').getByRole('link', { name: `Im Beschlussbuch: ${firstNumber}` }),
      ).toBeVisible();
      await checkBothWidths(phone, 'vorlage-ergebnis', 'phone');
    });

    await test.step('/beschluesse: the member’s running votes and the Beschlussbuch, and the Vorsitz’s', async () => {
      await phone.goto('/beschluesse');
      await expect(
        section(phone, 'Laufende Abstimmungen').getByRole('link', { name: motion.title }),
      ).toBeVisible();
      await expect(
        section(phone, 'Beschlussbuch').getByRole('article', { name: `${firstNumber} · ${committee.name}` }),
      ).toBeVisible();
      await checkBothWidths(phone, 'beschluesse', 'phone');
      await chairPage.goto('/beschluesse');
      await expect(section(chairPage, 'Offene Beschlussvorlagen')).toBeVisible();
      await expect(
        section(chairPage, 'Beschlussbuch').getByRole('article', {
          name: `${firstNumber} · ${committee.name}`,
        }),
      ).toBeVisible();
      await checkBothWidths(chairPage, 'beschluesse-vorsitz', 'desktop');
    });

    // With what the journeys before found on their dialogs and meeting pages.
    expect(axeFound, 'axe-Verstöße').toEqual([]);
  });
});
