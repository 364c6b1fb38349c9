import lighthouse from 'lighthouse';
import puppeteer, { type BrowserContext, type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/tests/support/portal.ts';
import type { BenchContext } from '../lib/context.ts';
import { ms, type Figure, type ScenarioResult } from '../lib/report.ts';

const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;

interface Run {
  performance: number;
  accessibility: number;
  lcp: number;
  cls: number;
  tbt: number;
  fcp: number;
  failedAudits: string[];
}

async function audit(
  page: Page,
  url: string,
  keepStorage: boolean,
  categories = ['performance', 'accessibility'],
): Promise<Run> {
  // The default configuration is the mobile preset: a mid-range phone, simulated slow 4G and a
  // four times slower CPU.
  const result = await lighthouse(
    url,
    { onlyCategories: categories, disableStorageReset: keepStorage, logLevel: 'error' },
    undefined,
    page,
  );
  if (!result) throw new Error(`Lighthouse lieferte nichts für ${url}`);
  const { categories: scored, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
  return {
    performance: Math.round((scored.performance?.score ?? 0) * 100),
    accessibility: Math.round((scored.accessibility?.score ?? 0) * 100),
    lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
    tbt: audits['total-blocking-time']?.numericValue ?? NaN,
    fcp: audits['first-contentful-paint']?.numericValue ?? NaN,
    failedAudits: (scored.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  };
}

/**
 * Lighthouse now and then fails to find the navigation in its own trace (NO_NAVSTART) on a busy
 * machine; one more try on the same page is a new measurement, not a repaired one.
 */
async function retryOnce(run: () => Promise<Run>): Promise<Run> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('NO_NAVSTART')) throw error;
    return run();
  }
}

/** The median run by performance score (Lighthouse's own advice for noisy machines). */
function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.performance - b.performance)[Math.floor(runs.length / 2)]!;
}

async function signIn(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
  // The previous run's session is still stored (its audit keeps the storage), and signed in,
  // /login sends the browser on to the start page: sign that session out first.
  if (new URL(page.url()).pathname !== '/login') {
    await page.evaluate('localStorage.clear()');
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
  }
  await page.waitForSelector('input[type="email"]');
  await page.type('input[type="email"]', email);
  await page.type('input[type="password"]', password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0' }),
    page.click('button[type="submit"]'),
  ]);
  if (new URL(page.url()).pathname === '/login') throw new Error('Anmeldung im Browser scheiterte');
  return page;
}

function figures(label: string, run: Run, runs: number): Figure[] {
  return [
    {
      measure: `${label}: Performance`,
      value: String(run.performance),
      goal: '≥ 90',
      met: run.performance >= 90,
    },
    {
      measure: `${label}: Barrierefreiheit`,
      value: String(run.accessibility) + (run.failedAudits.length ? ` (${run.failedAudits.join(', ')})` : ''),
      goal: '100',
      met: run.accessibility === 100,
    },
    { measure: `${label}: LCP`, value: ms(run.lcp), goal: '≤ 2500 ms', met: run.lcp <= 2500 },
    { measure: `${label}: CLS`, value: run.cls.toFixed(3), goal: '≤ 0.1', met: run.cls <= 0.1 },
    { measure: `${label}: FCP / TBT`, value: `${ms(run.fcp)} / ${ms(run.tbt)}` },
    { measure: `${label}: Läufe (Median zählt)`, value: String(runs) },
  ];
}

/** The signed-in pages whose accessibility is scored too (as an admin, who sees every control). */
const ACCESSIBILITY_PAGES = ['/events', '/events/show/1', '/account', '/user'];

/**
 * Lighthouse's accessibility score of each page, signed in as the Super-Admin. The score does not
 * depend on the machine's speed, so one run per page is the figure.
 */
async function accessibilityFigures(
  ctx: BenchContext,
  browser: Awaited<ReturnType<typeof puppeteer.launch>>,
) {
  const context = await browser.createBrowserContext();
  try {
    const { superAdmin } = ctx.dataset;
    const page = await signIn(context, ctx.portal.url, superAdmin.email, superAdmin.password);
    const figuresOfPages: Figure[] = [];
    for (const path of ACCESSIBILITY_PAGES) {
      const run = await retryOnce(() => audit(page, `${ctx.portal.url}${path}`, true, ['accessibility']));
      figuresOfPages.push({
        measure: `${path}: Barrierefreiheit`,
        value:
          String(run.accessibility) + (run.failedAudits.length ? ` (${run.failedAudits.join(', ')})` : ''),
        goal: '100',
        met: run.accessibility === 100,
      });
    }
    return figuresOfPages;
  } finally {
    await context.close();
  }
}

/**
 * Lighthouse (mobile preset) on the login page and on the explorer showing a folder of 500, and
 * the accessibility score of the other main pages.
 */
export async function lighthouseScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const runs = ctx.quick ? 1 : 3;
  const browser = await puppeteer.launch({
    executablePath: CHROME_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const folderUrl = `${ctx.portal.url}/files?folder=${ctx.dataset.mediumFolderId}`;
  try {
    const login: Run[] = [];
    for (let i = 0; i < runs; i += 1) {
      const page = await browser.newPage();
      login.push(await retryOnce(() => audit(page, `${ctx.portal.url}/login`, false)));
      await page.close();
    }
    const files: Run[] = [];
    const { vertreter } = ctx.dataset;
    for (let i = 0; i < runs; i += 1) {
      // A fresh profile per run: signed in from the run before, /login would send the browser on
      // to the explorer and the sign-in form would not be there.
      const context = await browser.createBrowserContext();
      try {
        const page = await signIn(context, ctx.portal.url, vertreter.email, vertreter.password);
        files.push(await retryOnce(() => audit(page, folderUrl, true)));
      } finally {
        await context.close();
      }
    }
    return {
      name: 'Lighthouse (Mobil-Voreinstellung, Debian-Chromium)',
      setup: `Lighthouse ${'12'} mit simuliertem langsamem 4G und vierfach gedrosselter CPU; \`/login\` abgemeldet, \`/files?folder=…\` als Vertreter angemeldet auf einem Ordner mit ${ctx.dataset.mediumFolderItems} Dokumenten (Baum des ganzen Datenbestands); Barrierefreiheit außerdem auf ${ACCESSIBILITY_PAGES.map((path) => `\`${path}\``).join(', ')} als Super-Admin.`,
      figures: [
        ...figures('/login', median(login), runs),
        ...figures('/files', median(files), runs),
        ...(await accessibilityFigures(ctx, browser)),
      ],
    };
  } finally {
    await browser.close();
  }
}
