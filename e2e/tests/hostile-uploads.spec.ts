// Over 300 lines: every way of opening an uploaded document or event file is tried against one fixture of
// script-carrying uploads and one trace collector (Traces); split, each file would upload the fixture again.
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Download,
  type Page,
} from '@playwright/test';
import { ACCOUNTS, type RoleKey } from './support/fixtures.ts';

/**
 * Uploaded content cannot attack (product.md P6.7, issue item 3): HTML and SVG documents and event
 * information files that carry script — also disguised as PDF or PNG — are opened every way the
 * portal offers (the file dialog's "Ansehen" and "Herunterladen", the details page, the event
 * list and event page) and by navigating to the download addresses directly. No script may run
 * in the portal's origin: nothing in its local storage, no flag on its window, no changed title,
 * no console output, no request the script would make.
 */

/** The portal under test: the configured base URL (the harness's portal in CI). */
const origin = () => test.info().project.use.baseURL ?? 'http://127.0.0.1:3100';

async function tokenOf(
  request: APIRequestContext,
  role: RoleKey,
): Promise<{ access_token: string; user: unknown }> {
  const account = ACCOUNTS[role];
  const res = await request.post(`${origin()}/api/v1/auth/login`, {
    data: { email: account.email, password: account.password },
  });
  expect(res.status(), `Anmeldung ${account.email}`).toBe(200);
  return (await res.json()) as { access_token: string; user: unknown };
}

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** What any of the payloads does when it runs; each step leaves a trace the test looks for. */
const SCRIPT = `
  try { localStorage.setItem('pwned', location.href); } catch (e) {}
  window.__pwned = true;
  document.title = 'PWNED';
  console.log('PWNED-SCRIPT-RAN');
  try { if (window.opener) { window.opener.__pwned = true; window.opener.document.title = 'PWNED'; } } catch (e) {}
  try {
    fetch('/api/v1/user?pwned=1', { headers: { Authorization: 'Bearer ' + localStorage.getItem('access_token') } });
  } catch (e) {}
`;
const HTML = Buffer.from(
  `<!doctype html><html><head><title>Harmlos</title></head><body><p>Bericht</p>` +
    `<script>${SCRIPT}</script><img src="x" onerror="${SCRIPT.replace(/"/g, '&quot;').replace(/\n/g, ' ')}">` +
    `</body></html>`,
);
const SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" ` +
    `onload="${SCRIPT.replace(/"/g, '&quot;').replace(/\n/g, ' ')}"><script>${SCRIPT}</script>` +
    `<rect width="10" height="10"/></svg>`,
);
/** A real 1×1 PNG: the control case, which "Ansehen" does open in a tab. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const dataUrl = (content: Buffer, type: string) => `data:${type};base64,${content.toString('base64')}`;

interface Uploaded {
  id: number;
  title: string;
  external: string;
  format: string;
}

interface Fixture {
  folderId: number;
  folderTitle: string;
  html: Uploaded;
  svg: Uploaded;
  /** HTML content with a PDF name and type: served inline as PDF. */
  htmlAsPdf: Uploaded;
  /** HTML content with a PNG name: served inline as PNG. */
  htmlAsPng: Uploaded;
  png: Uploaded;
  events: { html: Uploaded; svg: Uploaded };
}

async function createFixture(request: APIRequestContext): Promise<Fixture> {
  const { access_token: token } = await tokenOf(request, 'admin');
  const headers = { Authorization: `Bearer ${token}` };
  const folderTitle = `Feindliche Uploads ${stamp()}`;
  const folder = await request.post(`${origin()}/api/v1/folders`, {
    headers,
    data: { folder_id: 3, title: folderTitle, roles: ['Vertreter'] },
  });
  expect(folder.status(), await folder.text()).toBe(201);
  const folderId = ((await folder.json()) as { folder: { id: number } }).folder.id;

  const viaJson = async (title: string, file: string): Promise<Uploaded> => {
    const res = await request.post(`${origin()}/api/v1/files`, {
      headers,
      data: { title, file, permissions: ['Vertreter'], folder_id: folderId },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { file: Uploaded }).file;
  };
  const viaMultipart = async (title: string, name: string, mimeType: string, buffer: Buffer) => {
    const res = await request.post(`${origin()}/api/v1/files`, {
      headers,
      multipart: {
        title,
        permissions: 'Vertreter',
        folder_id: String(folderId),
        file: { name, mimeType, buffer },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { file: Uploaded }).file;
  };
  const event = async (title: string, data: string): Promise<Uploaded> => {
    const res = await request.post(`${origin()}/api/v1/events`, {
      headers,
      data: {
        title,
        roles: ['Vertreter'],
        start: '2031-06-01T18:00',
        end: '2031-06-01T20:00',
        location: 'Saal',
        description: 'Versammlung mit Anhang',
        data,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const created = (
      (await res.json()) as { event: { id: number; title: string; external: string; file_format: string } }
    ).event;
    return { id: created.id, title: created.title, external: created.external, format: created.file_format };
  };

  const fixture: Fixture = {
    folderId,
    folderTitle,
    html: await viaMultipart(`Boeses HTML ${stamp()}`, 'bericht.html', 'text/html', HTML),
    svg: await viaJson(`Boeses SVG ${stamp()}`, dataUrl(SVG, 'image/svg+xml')),
    htmlAsPdf: await viaJson(`Getarntes PDF ${stamp()}`, dataUrl(HTML, 'application/pdf')),
    htmlAsPng: await viaMultipart(`Getarntes Bild ${stamp()}`, 'bild.png', 'text/html', HTML),
    png: await viaMultipart(`Echtes Bild ${stamp()}`, 'pixel.png', 'image/png', PNG),
    events: {
      html: await event(`Event mit HTML ${stamp()}`, dataUrl(HTML, 'text/html')),
      svg: await event(`Event mit SVG ${stamp()}`, dataUrl(SVG, 'image/svg+xml')),
    },
  };
  expect(fixture.html.format).toBe('html');
  expect(fixture.svg.format).toBe('svg');
  expect(fixture.htmlAsPdf.format).toBe('pdf');
  expect(fixture.htmlAsPng.format).toBe('png');
  expect(fixture.events.html.format).toBe('html');
  expect(fixture.events.svg.format).toBe('svg');
  return fixture;
}

/** Everything a script run in the portal's origin would leave behind, collected per context. */
class Traces {
  readonly console: string[] = [];
  readonly requests: string[] = [];
  readonly pages: Page[] = [];

  constructor(readonly context: BrowserContext) {
    context.on('console', (message) => this.console.push(message.text()));
    context.on('request', (request) => this.requests.push(request.url()));
    context.on('page', (page) => this.pages.push(page));
  }

  /** Fails when any trace of the payload is found, in the portal page or any page opened. */
  async expectNoScriptRan(portal: Page, what: string) {
    // Give a payload that did start the time to finish.
    await portal.waitForTimeout(500);
    expect(
      this.console.filter((text) => text.includes('PWNED')),
      `${what}: Konsole`,
    ).toEqual([]);
    expect(
      this.requests.filter((url) => url.includes('pwned=1')),
      `${what}: Anfragen`,
    ).toEqual([]);
    const state = await portal.evaluate(() => ({
      storage: Object.keys(localStorage).filter((key) => key.startsWith('pwned')),
      flag: (window as unknown as { __pwned?: boolean }).__pwned ?? null,
      title: document.title,
    }));
    expect(state.storage, `${what}: localStorage des Portals`).toEqual([]);
    expect(state.flag, `${what}: Fenster des Portals`).toBeNull();
    expect(state.title, `${what}: Titel des Portals`).not.toBe('PWNED');
    for (const page of this.pages) {
      if (page === portal || page.isClosed()) continue;
      const title = await page.title().catch(() => '');
      expect(title, `${what}: Titel von ${page.url()}`).not.toBe('PWNED');
    }
  }
}

/** A fresh context signed in as the web app does it: token and user in local storage. */
async function signedIn(browser: Browser, role: RoleKey, options: { bypassCSP?: boolean } = {}) {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    baseURL: origin(),
    acceptDownloads: true,
    locale: 'de-DE',
    bypassCSP: options.bypassCSP ?? false,
  });
  const traces = new Traces(context);
  const page = await context.newPage();
  const session = await tokenOf(context.request, role);
  await page.goto('/login');
  await page.evaluate(({ access_token: token, user }) => {
    localStorage.setItem('access_token', token);
    localStorage.setItem('user', JSON.stringify(user));
  }, session);
  return { context, page, traces };
}

/** Runs an action that must save a file, never open one; returns the download. */
async function expectDownloadOnly(
  page: Page,
  traces: Traces,
  action: () => Promise<void>,
): Promise<Download> {
  const pagesBefore = traces.pages.length;
  const saved = page.waitForEvent('download', { timeout: 15_000 }).catch(() => null);
  await action();
  const download = await saved;
  await page.waitForTimeout(300);
  expect(
    traces.pages.slice(pagesBefore).map((tab) => tab.url()),
    'kein neuer Tab',
  ).toEqual([]);
  expect(download, 'die Datei wird gespeichert').not.toBeNull();
  return download!;
}

test.describe('Hochgeladene Inhalte führen kein Skript im Portal aus', () => {
  let fixture: Fixture;

  test.beforeAll(async ({ request }) => {
    fixture = await createFixture(request);
  });

  // Each defence alone must hold: the web app's choice of what to open, and the portal's CSP
  // (which a blob document inherits). The second run switches the CSP off in the browser.
  for (const bypassCSP of [false, true]) {
    test(`Dokumente über „Ansehen“ und „Herunterladen“ im Dateidialog${bypassCSP ? ' (ohne CSP)' : ''}`, async ({
      browser,
    }) => {
      const { context, page, traces } = await signedIn(browser, 'vertreter', { bypassCSP });
      await page.goto(`/folders/show/${fixture.folderId}`);
      await expect(
        page.getByRole('heading', { name: `Dateien im Ordner: ${fixture.folderTitle}` }),
      ).toBeVisible();

      const dialogFor = async (file: Uploaded) => {
        await page.getByRole('button', { name: `Aktionen für „${file.title}“` }).click();
        const dialog = page.getByRole('dialog', { name: 'Datei ausgewählt' });
        await expect(dialog).toBeVisible();
        return dialog;
      };
      const closeDialog = async () => {
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog', { name: 'Datei ausgewählt' })).toHaveCount(0);
      };

      // HTML and SVG cannot be shown safely: "Ansehen" saves them instead of opening a tab.
      for (const file of [fixture.html, fixture.svg]) {
        const dialog = await dialogFor(file);
        const viewed = await expectDownloadOnly(page, traces, () =>
          dialog.getByRole('button', { name: 'Ansehen' }).click(),
        );
        expect(viewed.suggestedFilename()).toBe(`${file.title}.${file.format}`);
        const downloaded = await expectDownloadOnly(page, traces, () =>
          dialog.getByRole('button', { name: 'Herunterladen' }).click(),
        );
        expect(downloaded.suggestedFilename()).toBe(`${file.title}.${file.format}`);
        await closeDialog();
        await traces.expectNoScriptRan(page, `${file.title} angesehen und heruntergeladen`);
      }

      // Disguised as PDF or PNG, the content is shown only as what its format says.
      for (const { file, type } of [
        { file: fixture.png, type: 'image/png' },
        { file: fixture.htmlAsPng, type: 'image/png' },
        { file: fixture.htmlAsPdf, type: 'application/pdf' },
      ]) {
        const dialog = await dialogFor(file);
        // Either waiter may lose the race; it then ends quietly after its timeout.
        const tabOpened = context.waitForEvent('page', { timeout: 10_000 }).catch(() => null);
        const saved = page.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
        await dialog.getByRole('button', { name: 'Ansehen' }).click();
        const tab = await Promise.race([tabOpened, saved.then(() => null)]);
        // The real image must open in a tab, or the checks below would prove nothing.
        if (file === fixture.png) expect(tab, 'Bild im neuen Tab').not.toBeNull();
        if (tab) {
          await tab.waitForLoadState('domcontentloaded').catch(() => undefined);
          // The tab shows a blob of the declared safe type and cannot reach the portal's window.
          expect(tab.url()).toMatch(/^blob:/);
          const inTab = await tab.evaluate(() => ({ type: document.contentType, opener: window.opener }));
          expect(inTab.type, file.title).toBe(type);
          expect(inTab.opener, `${file.title}: kein Zugriff auf das Portalfenster`).toBeNull();
          await tab.close();
        }
        const downloaded = await expectDownloadOnly(page, traces, () =>
          dialog.getByRole('button', { name: 'Herunterladen' }).click(),
        );
        expect(downloaded.suggestedFilename()).toBe(`${file.title}.${file.format}`);
        await closeDialog();
        await traces.expectNoScriptRan(page, `${file.title} angesehen und heruntergeladen`);
      }
      await context.close();
    });
  }

  test('Dokumente über die Detailseite', async ({ browser }) => {
    const { context, page, traces } = await signedIn(browser, 'admin');
    for (const file of [fixture.html, fixture.svg]) {
      await page.goto(`/files/show/${file.id}`);
      await expect(page.getByText(file.title).first()).toBeVisible();
      // Exact names: the admin's "Versionen" list below has its own "Version 1 herunterladen".
      await expectDownloadOnly(page, traces, () =>
        page.getByRole('button', { name: 'Ansehen', exact: true }).click(),
      );
      await expectDownloadOnly(page, traces, () =>
        page.getByRole('button', { name: 'Herunterladen', exact: true }).click(),
      );
      await traces.expectNoScriptRan(page, `${file.title} auf der Detailseite`);
    }
    await context.close();
  });

  test('Informationsdateien über die Eventliste und die Eventseite', async ({ browser }) => {
    const { context, page, traces } = await signedIn(browser, 'vertreter');
    for (const event of [fixture.events.html, fixture.events.svg]) {
      await page.goto('/events');
      await page.getByRole('textbox', { name: 'Titel enthält' }).fill(event.title);
      const fromList = await expectDownloadOnly(page, traces, () =>
        page.getByRole('button', { name: `Informationsdatei zu „${event.title}“ herunterladen` }).click(),
      );
      expect(fromList.suggestedFilename()).toBe(`${event.title}.${event.format}`);

      await page.goto(`/events/show/${event.id}`);
      await expect(page.getByRole('heading', { level: 1, name: event.title })).toBeVisible();
      const fromPage = await expectDownloadOnly(page, traces, () =>
        page.getByRole('button', { name: 'Informationsdatei herunterladen' }).click(),
      );
      expect(fromPage.suggestedFilename()).toBe(`${event.title}.${event.format}`);
      await traces.expectNoScriptRan(page, `${event.title} heruntergeladen`);
    }
    await context.close();
  });

  test('direkter Aufruf der Download-Adressen: ohne Token 401, mit Token nur Anhang oder Sandbox', async ({
    browser,
    request,
  }) => {
    const paths = [
      { path: `/api/v1/download/${fixture.html.external}`, inline: false },
      { path: `/api/v1/download/${fixture.svg.external}`, inline: false },
      { path: `/api/v1/download/${fixture.htmlAsPng.external}`, inline: true },
      { path: `/api/v1/download/${fixture.htmlAsPdf.external}`, inline: true },
      { path: `/api/v1/info/${fixture.events.html.external}`, inline: false },
      { path: `/api/v1/info/${fixture.events.svg.external}`, inline: false },
    ];

    // Signed in in the web app, but a navigation carries no bearer header: the key opens nothing.
    const plain = await signedIn(browser, 'vertreter');
    for (const { path } of paths) {
      const response = await plain.page.goto(path);
      expect(response?.status(), path).toBe(401);
      expect(await response?.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
      await plain.page.goto('/');
      await plain.traces.expectNoScriptRan(plain.page, `${path} ohne Token`);
    }
    await plain.context.close();

    // Even with the bearer header on every request, the browser never renders the content as a
    // page of the portal: attachments are saved, inline types come with a sandboxing CSP.
    const { access_token: token } = await tokenOf(request, 'vertreter');
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      baseURL: origin(),
      acceptDownloads: true,
      extraHTTPHeaders: { Authorization: `Bearer ${token}` },
    });
    const traces = new Traces(context);
    const page = await context.newPage();
    await page.goto('/login');
    for (const { path, inline } of paths) {
      const head = await request.head(`${origin()}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(head.status(), path).toBe(200);
      expect(head.headers()['content-security-policy'], path).toMatch(/^sandbox;/);
      expect(head.headers()['x-content-type-options'], path).toBe('nosniff');
      // Inline only as what the format says; an attachment keeps its type but is never rendered.
      if (inline) expect(head.headers()['content-type'], path).toMatch(/^(image\/png|application\/pdf)$/);
      expect(head.headers()['content-disposition'], path).toMatch(inline ? /^inline;/ : /^attachment;/);

      const tab = await context.newPage();
      const saved = tab.waitForEvent('download', { timeout: 10_000 }).catch(() => null);
      const response = await tab.goto(path).catch(() => null);
      if (inline && response) {
        // Shown by the browser's own viewer, under the sandbox the server sent.
        expect(response.status(), path).toBe(200);
        expect((await response.allHeaders())['content-security-policy'], path).toMatch(/^sandbox;/);
      } else {
        expect(await saved, `${path} wird gespeichert`).not.toBeNull();
      }
      await tab.close();
      await page.goto('/login');
      await traces.expectNoScriptRan(page, `${path} mit Token aufgerufen`);
    }
    await context.close();
  });
});
