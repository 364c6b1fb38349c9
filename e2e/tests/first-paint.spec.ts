import { expect, test } from '@playwright/test';

/** Decision 115: what the login page's first paint relies on. */
test.describe('Erster Aufbau der Login-Seite', () => {
  test('index.html is never cached and preloads the login chunks', async ({ request }) => {
    const res = await request.get('/login');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toBe('no-cache');
    const html = await res.text();
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (match) => match[1]!,
    );
    expect(preloads.some((href) => /\/assets\/login-[\w-]+\.js$/.test(href))).toBe(true);
    for (const href of preloads) expect((await request.get(href)).status(), href).toBe(200);
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
