import { expect, test, type Page } from '@playwright/test';
import { loginAs } from './support/fixtures.ts';

/** The chunk files the boot script asked the browser to preload. */
const preloadedChunks = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
      (link) => new URL(link.href).pathname,
    ),
  );

/** Decisions 115 and 184: what the first paint of a visit relies on. */
test.describe('Erster Aufbau der Login-Seite', () => {
  test('index.html is never cached and names the chunks of each first page', async ({ request }) => {
    const res = await request.get('/login');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toBe('no-cache');
    const html = await res.text();
    const table = JSON.parse(
      /<script type="application\/json" id="first-load-chunks">([^<]+)<\/script>/.exec(html)![1]!,
    ) as Record<string, string[]>;
    expect(Object.keys(table)).toEqual(
      expect.arrayContaining(['login', 'app', 'files', 'event-show', 'account', 'search']),
    );
    expect(table.login!.some((href) => /^\/assets\/login-[\w-]+\.js$/.test(href))).toBe(true);
    const boot = /<script type="module" async src="(\/assets\/boot-[\w-]+\.js)">/.exec(html)?.[1];
    for (const href of [boot!, ...new Set(Object.values(table).flat())])
      expect((await request.get(href)).status(), href).toBe(200);
  });

  test('signed out, /login preloads the login chunks and asks the API nothing early', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Einloggen' })).toBeVisible();
    const chunks = await preloadedChunks(page);
    expect(chunks.some((href) => /^\/assets\/login-[\w-]+\.js$/.test(href))).toBe(true);
    expect(chunks.some((href) => /^\/assets\/app-layout-/.test(href))).toBe(false);
    expect(await page.evaluate(() => '__gremienportalEarlyRequests' in window)).toBe(false);
  });

  test('signed in, the chunks and first answers of the explorer start beside the entry, each asked once', async ({
    page,
  }) => {
    await loginAs(page, 'vertreter');
    const api: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/')) api.push(new URL(req.url()).pathname + new URL(req.url()).search);
    });
    await page.goto('/files');
    await expect(page.getByRole('tree', { name: 'Ordner' })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();
    const chunks = await preloadedChunks(page);
    expect(chunks.some((href) => /^\/assets\/app-layout-/.test(href))).toBe(true);
    expect(chunks.some((href) => /^\/assets\/files-/.test(href))).toBe(true);
    expect(chunks.some((href) => /^\/assets\/login-/.test(href))).toBe(false);
    // The boot script asked for them; the page took those answers instead of asking again.
    for (const path of ['/api/v1/settings', '/api/v1/tree?files=false', '/api/v1/root/files', '/api/v1/news'])
      expect(
        api.filter((url) => url === path),
        path,
      ).toHaveLength(1);
  });

  test('scripts and styles go out compressed, for browsers that accept it', async ({ request }) => {
    const html = await (await request.get('/login')).text();
    const entry = /<script type="module" crossorigin src="([^"]+)">/.exec(html)?.[1];
    const styles = /<link rel="stylesheet" crossorigin href="([^"]+)">/.exec(html)?.[1];
    for (const path of [entry, styles]) {
      expect(path).toMatch(/^\/assets\//);
      for (const encoding of ['br', 'gzip']) {
        const res = await request.get(path!, { headers: { 'accept-encoding': encoding } });
        expect(res.status()).toBe(200);
        expect(res.headers()['content-encoding'], `${path} ${encoding}`).toBe(encoding);
        expect(res.headers()['vary']).toContain('accept-encoding');
        expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.headers()['content-type']).toMatch(path!.endsWith('.js') ? /javascript/ : /text\/css/);
      }
      const plain = await request.get(path!, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers()['content-encoding']).toBeUndefined();
      expect((await plain.body()).length).toBeGreaterThan(10_000);
    }
  });
});
