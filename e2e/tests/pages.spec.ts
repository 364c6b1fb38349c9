import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, BASE_URL, loginAs, type RoleKey } from './support/fixtures.ts';

/*
 * Every page, for the signed-out visitor, a Vertreter, an Admin and (for its own pages) a
 * Super-Admin, on a phone (375 × 812) and a desktop (1280 × 800): nothing wider than the screen,
 * no cut-off table or card, every control at least 44 × 44 px on the phone (WCAG 2.5.5), axe with
 * the WCAG 2.1 AA rules clean. The pages of the most used areas also at 200 % and 400 % zoom
 * (WCAG 1.4.4 and 1.4.10). SCREENSHOT_DIR=<dir> also saves a full-page screenshot of each page.
 */

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812, touch: true },
  { name: 'desktop', width: 1280, height: 800, touch: false },
] as const;

interface Ids {
  folder: number;
  file: number;
  event: number;
  user: number;
  committee: number;
}

type PageList = (ids: Ids) => string[];

const SIGNED_OUT: PageList = () => [
  '/login',
  '/forgot-password',
  '/reset-password?id=1&token=abc',
  '/willkommen?id=1&token=abc',
  '/nicht-da',
];
const MEMBER: PageList = (ids) => [
  '/files',
  `/files?folder=${ids.folder}`,
  `/files/show/${ids.file}`,
  `/folders/show/${ids.folder}`,
  '/old',
  '/events',
  `/events/show/${ids.event}`,
  '/account',
  '/search?q=Protokoll',
  '/gremien',
];
const ADMIN: PageList = (ids) => [
  ...MEMBER(ids),
  '/files/new',
  `/files/update/${ids.file}`,
  `/folders/update/${ids.folder}`,
  `/events/update/${ids.event}`,
  `/events/agenda/${ids.event}`,
  '/user',
  `/user/show/${ids.user}`,
  `/user/update/${ids.user}`,
  `/gremien/${ids.committee}`,
  '/audit',
  '/trash',
];

/** What only a Super-Admin sees: the API-Schlüssel (decision 136), with six areas in the header. */
const SUPER_ADMIN: PageList = () => ['/api-keys'];

const WHO: { who: RoleKey | null; pages: PageList }[] = [
  { who: null, pages: SIGNED_OUT },
  { who: 'vertreter', pages: MEMBER },
  { who: 'admin', pages: ADMIN },
  { who: 'superAdmin', pages: SUPER_ADMIN },
];

/** A folder, a document, an event and a user that every page can show, made through the API. */
async function prepare(request: APIRequestContext): Promise<Ids> {
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const stamp = Date.now().toString(36);
  const post = async (path: string, data: object) => {
    const res = await request.post(`${BASE_URL}/api/v1${path}`, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Record<string, { id: number }>;
  };
  const folder = await post('/folders', {
    title: `Vertreterversammlung Unterlagen ${stamp}`,
    parent_id: 3,
    roles: ['Vertreter'],
  });
  const folderId = folder.folder!.id;
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  const fileRes = await request.post(`${BASE_URL}/api/v1/files`, {
    headers,
    multipart: {
      title: `Niederschrift der Vertreterversammlung vom 12. Juni ${stamp}`,
      permissions: 'Vertreter',
      folder_id: String(folderId),
      // Decision 131: the document asks for a Kenntnisnahme, so the tour shows the member's banner,
      // the admins' list and "Neu für Sie" on /files (it is new for everyone).
      acknowledgement_required: 'true',
      acknowledgement_due: '2031-04-20',
      file: { name: 'niederschrift.pdf', mimeType: 'application/pdf', buffer: pdf },
    },
  });
  expect(fileRes.status(), await fileRes.text()).toBe(201);
  const file = ((await fileRes.json()) as { file: { id: number } }).file;
  const event = await post('/events', {
    title: `Vertreterversammlung Frühjahr ${stamp}`,
    roles: ['Vertreter', 'Aufsichtsrat'],
    start: '2031-04-22T18:00',
    end: '2031-04-22T21:00',
    location: 'Gemeindesaal der Genossenschaft, Hauptstraße 12',
    description: 'Tagesordnung folgt.',
  });
  // The meeting has a Tagesordnung with a sub-item and the document, for the event page and the editor.
  const agenda = await request.put(`${BASE_URL}/api/v1/events/${event.event!.id}/agenda`, {
    headers,
    data: {
      items: [
        {
          title: 'Bericht des Vorstands über das Geschäftsjahr',
          presenter: 'Dr. Margarete Sonnenschein-Bergmann',
          description: 'Vorlage des Jahresabschlusses, Aussprache.',
          file_ids: [file.id],
          children: [{ title: 'Bericht der Kassenprüfung', file_ids: [file.id] }],
        },
        { title: 'Verschiedenes' },
      ],
    },
  });
  expect(agenda.status(), await agenda.text()).toBe(200);
  const user = await post('/user', {
    title: 'Frau',
    firstname: 'Margarete',
    lastname: `Sonnenschein-Bergmann ${stamp}`,
    email: `margarete.sonnenschein-bergmann.${stamp}@genossenschaft-beispiel.org`,
    roles: ['Vertreter', 'Aufsichtsrat'],
  });
  // A key with a long name and every scope, so /api-keys shows a full row or card.
  const superAdmin = { authorization: `Bearer ${await apiToken(request, 'superAdmin')}` };
  const key = await request.post(`${BASE_URL}/api/v1/api-keys`, {
    headers: superAdmin,
    data: {
      name: `Import aus der Mitgliederverwaltung der Genossenschaft ${stamp}`,
      scopes: ['nutzer:lesen', 'nutzer:schreiben', 'inhalte:lesen', 'inhalte:schreiben', 'protokoll:lesen'],
      valid_days: 365,
    },
  });
  expect(key.status(), await key.text()).toBe(201);
  // A committee of its own (decision 189) with a running term and a member, so /gremien/{id} shows
  // the directory with its actions; its folder is the one above, the shared committees stay as they are.
  const committeeRes = await request.post(`${BASE_URL}/api/v1/committees`, {
    headers,
    data: { name: `Prüfungsausschuss der Genossenschaft ${stamp}`, kind: 'ausschuss', folder_id: folderId },
  });
  expect(committeeRes.status(), await committeeRes.text()).toBe(201);
  const committee = ((await committeeRes.json()) as { data: { id: number } }).data;
  const term = await request.post(`${BASE_URL}/api/v1/committees/${committee.id}/terms`, {
    headers,
    data: { start: '2026-07-01', end: '2030-06-30' },
  });
  expect(term.status(), await term.text()).toBe(201);
  // Its member comes by the import, with the committee's role only: the other pages' lists stay as they were.
  const termId = ((await term.json()) as { data: { id: number } }).data.id;
  const imported = await request.post(
    `${BASE_URL}/api/v1/committees/${committee.id}/members/import?term_id=${termId}&dry_run=false`,
    {
      headers: { ...headers, 'content-type': 'text/csv' },
      data: Buffer.from(
        'Anrede;Vorname;Nachname;E-Mail;Funktion;Wahlbezirk\r\n' +
          `Frau;Friederike;Oberländer-Schulze ${stamp};friederike.oberlaender-schulze.${stamp}@genossenschaft-beispiel.org;Vorsitz;Wahlbezirk Nord-Ost (Altbausiedlung am Stadtpark)\r\n`,
      ),
    },
  );
  expect(imported.status(), await imported.text()).toBe(200);
  return {
    folder: folderId,
    file: file.id,
    event: event.event!.id,
    user: user.user!.id,
    committee: committee.id,
  };
}

async function openPage(browser: Browser, who: RoleKey | null, viewport: (typeof VIEWPORTS)[number]) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: viewport.width, height: viewport.height },
    hasTouch: viewport.touch,
    isMobile: viewport.touch,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  if (who) await loginAs(page, who);
  return page;
}

/** Waits until the page has its content: no request running, no loader left. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root, [aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** Elements that stick out of the screen or cut their own content off sideways. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : ''} „${(el.textContent ?? '').trim().slice(0, 40)}“`;
    if (document.documentElement.scrollWidth > width + 1) {
      found.push(`Seite ${document.documentElement.scrollWidth} px breit bei ${width} px`);
    }
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const rect = el.getBoundingClientRect();
      // Text for screen readers only (1 × 1 px, clipped) is meant to be cut off.
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(el);
      const clipsSideways = ['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX);
      const isContainer = el.matches(
        'table, [role="table"], [role="grid"], .mantine-Card-root, .mantine-Paper-root',
      );
      // A form field's own text scrolls with the caret; the field itself must still fit (below).
      const isField = el.matches('input, textarea, select');
      if (!isField && (clipsSideways || isContainer) && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${describe(el)}: Inhalt ${el.scrollWidth} px in ${el.clientWidth} px`);
      } else if ((isContainer || isField) && rect.right > width + 1) {
        found.push(`${describe(el)}: endet bei ${Math.round(rect.right)} px`);
      }
    }
    return found;
  });
}

/** Controls smaller than 44 × 44 CSS px (their label counts for checkboxes and radios). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], [role="treeitem"], [role="menuitem"], [role="tab"], [role="checkbox"], [role="switch"], [role="combobox"], [tabindex="0"]';
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      let target: Element = el;
      if (el.matches('input[type="checkbox"], input[type="radio"]')) {
        target = el.closest('label, .mantine-Checkbox-root, .mantine-Radio-root, .mantine-Switch-root') ?? el;
      }
      const rect = target.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) continue;
      if (rect.width < 43.5 || rect.height < 43.5) {
        const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 30);
        found.push(
          `${el.tagName.toLowerCase()} „${name}“ ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return found;
  });
}

/**
 * English words in what the page shows or reads out (text, labels, titles, placeholders), and
 * internal keys shown as text ("notified_users: 2" in the Aktivitäten's details, decision 180).
 */
function englishText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const internalKey = /\b[a-z]+(?:_[a-z]+)+\b/;
    const english =
      /\b(No|records?|Next|Previous|page|Toggle|Select|Search|Loading|Close|Clear|Upload|Drag|Drop|Files?|Sort(ed)?|Show|Hide|Menu|Open|Collapse|Expand|Delete|Remove|Cancel|Submit|Error|Invalid|Required|Nothing|found|of)\b/;
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (node.parentElement?.closest('script, style') || !text) continue;
      if (english.test(text) || (internalKey.test(text) && !text.includes('@'))) found.add(text);
    }
    for (const el of document.querySelectorAll(
      '[aria-label], [title], [placeholder], [alt], [aria-description]',
    )) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(name);
        if (value && english.test(value)) found.add(`${name}=${value}`);
      }
    }
    return [...found].map((text) => `englischer Text „${text.slice(0, 60)}“`);
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

const shotName = (who: string, viewport: string, path: string) =>
  `${who}-${viewport}-${path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'start'}.png`;

test.describe('Jede Seite, jede Rolle, Telefon und Desktop', () => {
  let ids: Ids;
  test.beforeAll(async ({ request }) => {
    ids = await prepare(request);
  });

  for (const { who, pages } of WHO) {
    for (const viewport of VIEWPORTS) {
      test(`${who ?? 'abgemeldet'} auf ${viewport.name} (${viewport.width} px)`, async ({ browser }) => {
        test.setTimeout(240_000);
        const page = await openPage(browser, who, viewport);
        const problems: string[] = [];
        for (const path of pages(ids)) {
          await page.goto(path);
          await settle(page);
          const dir = process.env.SCREENSHOT_DIR;
          if (dir) {
            mkdirSync(dir, { recursive: true });
            await page.screenshot({
              path: join(dir, shotName(who ?? 'abgemeldet', viewport.name, path)),
              fullPage: true,
            });
          }
          for (const issue of await overflowing(page)) problems.push(`${path}: ${issue}`);
          if (viewport.touch)
            for (const issue of await smallTargets(page)) problems.push(`${path}: ${issue}`);
          for (const issue of await axeViolations(page)) problems.push(`${path}: ${issue}`);
          for (const issue of await englishText(page)) problems.push(`${path}: ${issue}`);
        }
        await page.context().close();
        expect(problems, 'Befunde').toEqual([]);
      });
    }
  }

  // 1280 px at 200 % zoom are 640 CSS px; at 400 % 320 CSS px (WCAG 1.4.10 reflow).
  for (const zoom of [2, 4]) {
    test(`Vergrößerung ${zoom * 100} % ohne seitliches Scrollen`, async ({ browser }) => {
      const context = await browser.newContext({
        baseURL: BASE_URL,
        viewport: { width: 1280 / zoom, height: 800 / zoom },
        deviceScaleFactor: zoom,
        locale: 'de-DE',
        timezoneId: 'Europe/Berlin',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      await loginAs(page, 'admin');
      const problems: string[] = [];
      for (const path of ['/files', '/events', '/account']) {
        await page.goto(path);
        await settle(page);
        for (const issue of await overflowing(page)) problems.push(`${path}: ${issue}`);
      }
      await context.close();
      expect(problems, 'Befunde').toEqual([]);
    });
  }
});
