import lighthouse from 'lighthouse';
import type { Browser, Page } from 'puppeteer-core';
import type { BenchContext } from '../lib/context.ts';
import { launchBrowser, signIn } from '../lib/browser.ts';
import { ms, type Figure, type ScenarioResult } from '../lib/report.ts';

/** The goals of decision 184 for every page, on the mobile preset. */
const GOALS = { performance: 95, lcp: 2_000, tbt: 150, cls: 0.05 } as const;
/** A word the data set's titles and texts hold: the search page shows hits. */
const SEARCH_WORD = 'Jahresabschluss';

interface Run {
  performance: number;
  accessibility?: number;
  lcp: number;
  cls: number;
  tbt: number;
  fcp: number;
  failedAudits: string[];
  /** Lighthouse's measure of the machine's speed in this run (`lhr.environment.benchmarkIndex`). */
  benchmarkIndex: number;
}

/**
 * The CPU slowdown that makes this machine a mid-tier phone, from Lighthouse's benchmarkIndex, as
 * the calculator Lighthouse's docs/throttling.md links to ("Calibrating the CPU slowdown",
 * lighthouse-cpu-throttling-calculator) computes it: linear between the anchor points 150 → 1×,
 * 800 → 2×, 1300 → 3× and then one more step per 233 (1533 → 4×, the default Lighthouse assumes for
 * a fast desktop). Below 150 the machine is slower than the phone: no slowdown, and it says so.
 */
export function cpuMultiplier(benchmarkIndex: number): { multiplier: number; tooSlow: boolean } {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex < 150) return { multiplier: 1, tooSlow: true };
  const raw =
    benchmarkIndex >= 1300
      ? 3 + (benchmarkIndex - 1300) / 233
      : benchmarkIndex >= 800
        ? 2 + (benchmarkIndex - 800) / 500
        : 1 + (benchmarkIndex - 150) / 650;
  return { multiplier: Math.round(raw * 100) / 100, tooSlow: false };
}

async function audit(
  page: Page,
  url: string,
  options: { keepStorage: boolean; cpuSlowdown?: number; categories: string[] },
): Promise<Run> {
  // The default configuration is the mobile preset: a mid-range phone and simulated slow 4G; only
  // the CPU slowdown is calibrated to the machine (its network settings stay the preset's).
  const result = await lighthouse(
    url,
    {
      onlyCategories: options.categories,
      disableStorageReset: options.keepStorage,
      logLevel: 'error',
      ...(options.cpuSlowdown === undefined
        ? {}
        : { throttling: { cpuSlowdownMultiplier: options.cpuSlowdown } }),
    },
    undefined,
    page,
  );
  if (!result) throw new Error(`Lighthouse lieferte nichts für ${url}`);
  const { categories: scored, audits, runtimeError, environment, configSettings } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
  const applied = configSettings.throttling;
  if (options.cpuSlowdown !== undefined && applied.cpuSlowdownMultiplier !== options.cpuSlowdown)
    throw new Error(
      `Lighthouse drosselte die CPU ${applied.cpuSlowdownMultiplier}× statt ${options.cpuSlowdown}×`,
    );
  if (applied.rttMs !== 150) throw new Error(`Lighthouse ohne langsames 4G (RTT ${applied.rttMs} ms)`);
  return {
    performance: Math.round((scored.performance?.score ?? 0) * 100),
    ...(scored.accessibility ? { accessibility: Math.round((scored.accessibility.score ?? 0) * 100) } : {}),
    lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
    tbt: audits['total-blocking-time']?.numericValue ?? NaN,
    fcp: audits['first-contentful-paint']?.numericValue ?? NaN,
    failedAudits: (scored.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
    benchmarkIndex: environment.benchmarkIndex,
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

/**
 * Empties the browser's HTTP cache and keeps the profile's storage: an audit with the session
 * (disableStorageReset) then still loads every file, as Lighthouse's preset does, and not the ones
 * the sign-in or the page before left in the cache.
 */
async function clearHttpCache(page: Page): Promise<void> {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('Network.clearBrowserCache');
  } finally {
    await cdp.detach();
  }
}

/** The median of some values (the middle one of an odd count; the upper middle of an even one). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** "median (smallest–largest)" over the runs, or the value alone for one run. */
function spread(values: number[], format: (value: number) => string): string {
  if (values.length === 1) return format(values[0]!);
  const sorted = [...values].sort((a, b) => a - b);
  return `${format(median(values))} (${format(sorted[0]!)}–${format(sorted.at(-1)!)})`;
}

const accessibilityValue = (run: Run) =>
  String(run.accessibility) + (run.failedAudits.length ? ` (${run.failedAudits.join(', ')})` : '');

function figures(label: string, runs: Run[]): Figure[] {
  const of = (pick: (run: Run) => number) => runs.map(pick);
  const first = runs.find((run) => run.accessibility !== undefined);
  const score = of((run) => run.performance);
  const lcp = of((run) => run.lcp);
  const tbt = of((run) => run.tbt);
  const cls = of((run) => run.cls);
  return [
    {
      measure: `${label}: Performance`,
      value: spread(score, String),
      goal: `≥ ${GOALS.performance}`,
      met: median(score) >= GOALS.performance,
    },
    {
      measure: `${label}: LCP`,
      value: spread(lcp, ms),
      goal: `≤ ${GOALS.lcp} ms`,
      met: median(lcp) <= GOALS.lcp,
    },
    {
      measure: `${label}: TBT`,
      value: spread(tbt, ms),
      goal: `≤ ${GOALS.tbt} ms`,
      met: median(tbt) <= GOALS.tbt,
    },
    {
      measure: `${label}: CLS`,
      value: spread(cls, (value) => value.toFixed(3)),
      goal: `≤ ${GOALS.cls}`,
      met: median(cls) <= GOALS.cls,
    },
    {
      measure: `${label}: FCP`,
      value: spread(
        of((run) => run.fcp),
        ms,
      ),
    },
    ...(first
      ? [
          {
            measure: `${label}: Barrierefreiheit`,
            value: accessibilityValue(first),
            goal: '100',
            met: first.accessibility === 100,
          },
        ]
      : []),
    {
      measure: `${label}: benchmarkIndex je Lauf`,
      value: runs.map((run) => run.benchmarkIndex.toFixed(0)).join(', '),
    },
  ];
}

/** The signed-in pages whose accessibility is scored too (as an admin, who sees every control). */
const ACCESSIBILITY_PAGES = ['/events', '/events/show/1', '/account', '/user'];

/**
 * Lighthouse's accessibility score of each page, signed in as the Super-Admin. The score does not
 * depend on the machine's speed, so one run per page is the figure.
 */
async function accessibilityFigures(ctx: BenchContext, browser: Browser) {
  const context = await browser.createBrowserContext();
  try {
    const { superAdmin } = ctx.dataset;
    const page = await signIn(context, ctx.portal.url, superAdmin.email, superAdmin.password);
    const figuresOfPages: Figure[] = [];
    for (const path of ACCESSIBILITY_PAGES) {
      const run = await retryOnce(() =>
        audit(page, `${ctx.portal.url}${path}`, { keepStorage: true, categories: ['accessibility'] }),
      );
      figuresOfPages.push({
        measure: `${path}: Barrierefreiheit`,
        value: accessibilityValue(run),
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
 * Lighthouse (mobile preset, CPU slowdown calibrated to the machine) on five pages:
 * `/login` signed out; the explorer on a folder of 50 documents, a meeting with 20 agenda items,
 * the search's hits and the account page as a Vertreter. Each run audits every page once, so a
 * busy moment of the machine falls on one run of every page rather than on every run of one; the
 * table gives each metric's median over the runs. Then the accessibility of the other main pages.
 */
export async function lighthouseScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const runs = ctx.quick ? 1 : 5;
  const { pages, vertreter } = ctx.dataset;
  const base = ctx.portal.url;
  const signedIn = [
    { label: '/files', path: `/files?folder=${pages.folderId}` },
    { label: '/events/show/{id}', path: `/events/show/${pages.meetingId}` },
    { label: '/search', path: `/search?q=${encodeURIComponent(SEARCH_WORD)}` },
    { label: '/account', path: '/account' },
  ];
  const browser = await launchBrowser();
  try {
    // Calibration, not counted: audits of /login with Lighthouse's default slowdown measure the
    // machine (and warm the browser up); every counted run uses the slowdown of their median index.
    // One audit alone varies widely on a busy machine (decision 184); quick: one.
    const calibrationIndexes: number[] = [];
    for (let i = 0; i < (ctx.quick ? 1 : 3); i += 1) {
      const calibrationPage = await browser.newPage();
      const run = await retryOnce(() =>
        audit(calibrationPage, `${base}/login`, { keepStorage: false, categories: ['performance'] }),
      ).finally(() => calibrationPage.close());
      calibrationIndexes.push(run.benchmarkIndex);
    }
    const calibration = {
      benchmarkIndex: [...calibrationIndexes].sort((a, b) => a - b)[
        Math.floor(calibrationIndexes.length / 2)
      ]!,
    };
    const { multiplier, tooSlow } = cpuMultiplier(calibration.benchmarkIndex);

    const results = new Map<string, Run[]>(
      ['/login', ...signedIn.map(({ label }) => label)].map((label): [string, Run[]] => [label, []]),
    );
    for (let i = 0; i < runs; i += 1) {
      // Accessibility does not depend on the machine's speed: scored in the first run only.
      const categories = i === 0 ? ['performance', 'accessibility'] : ['performance'];
      const page = await browser.newPage();
      try {
        results
          .get('/login')!
          .push(
            await retryOnce(() =>
              audit(page, `${base}/login`, { keepStorage: false, cpuSlowdown: multiplier, categories }),
            ),
          );
      } finally {
        await page.close();
      }
      // A fresh profile per run: signed in from the run before, /login would send the browser on
      // to the explorer and the sign-in form would not be there.
      const context = await browser.createBrowserContext();
      try {
        const member = await signIn(context, base, vertreter.email, vertreter.password);
        for (const { label, path } of signedIn) {
          await clearHttpCache(member);
          results
            .get(label)!
            .push(
              await retryOnce(() =>
                audit(member, `${base}${path}`, { keepStorage: true, cpuSlowdown: multiplier, categories }),
              ),
            );
        }
      } finally {
        await context.close();
      }
    }
    const indexes = [...results.values()].flat().map((run) => run.benchmarkIndex);
    const drift = Math.max(...indexes.map((index) => Math.abs(index / calibration.benchmarkIndex - 1)));
    return {
      name: 'Lighthouse (Mobil-Voreinstellung, Debian-Chromium)',
      setup: `Lighthouse 12 mit simuliertem langsamem 4G (RTT 150 ms, 1,6 Mbit/s); CPU-Drosselung auf die Maschine kalibriert: ${calibrationIndexes.length === 1 ? 'ein ungezählter Lauf' : `${calibrationIndexes.length} ungezählte Läufe`} auf \`/login\` maßen benchmarkIndex ${calibrationIndexes.map((index) => index.toFixed(0)).join(', ')}, Median ${calibration.benchmarkIndex.toFixed(0)}, daraus ${multiplier}× (Rechner aus Lighthouses docs/throttling.md: Mittelklasse-Telefon). ${runs} ${runs === 1 ? 'Lauf' : 'Läufe'} je Seite, jeder Lauf alle Seiten nacheinander; Wert: Median (kleinster–größter) über die Läufe, Urteil nach dem Median. \`/login\` abgemeldet; als Vertreter angemeldet (HTTP-Cache vor jeder Seite geleert, die Anmeldung bleibt): \`/files?folder=…\` auf einem Ordner mit ${pages.folderItems} Dokumenten (Baum des ganzen Datenbestands), \`/events/show/{id}\` einer Sitzung mit ${pages.meetingItems} Tagesordnungspunkten, \`/search?q=${SEARCH_WORD}\`, \`/account\`; Barrierefreiheit aus dem ersten Lauf, außerdem auf ${ACCESSIBILITY_PAGES.map((path) => `\`${path}\``).join(', ')} als Super-Admin.`,
      figures: [
        {
          measure: 'Kalibrierung: benchmarkIndex → CPU-Drosselung',
          value: `${calibration.benchmarkIndex.toFixed(0)} → ${multiplier}×`,
        },
        ...['/login', ...signedIn.map(({ label }) => label)].flatMap((label) =>
          figures(label, results.get(label)!),
        ),
        ...(await accessibilityFigures(ctx, browser)),
      ],
      notes: [
        ...(tooSlow
          ? [
              `benchmarkIndex ${calibration.benchmarkIndex.toFixed(0)} liegt unter 150: Die Maschine ist langsamer als das Mittelklasse-Telefon, die CPU läuft ungedrosselt, die Zahlen sind zu schlecht.`,
            ]
          : []),
        ...(drift > 0.15
          ? [
              `Der benchmarkIndex der Läufe weicht bis ${(drift * 100).toFixed(0)} % von der Kalibrierung ab: Die Maschine war während der Messung unterschiedlich belastet.`,
            ]
          : []),
      ],
    };
  } finally {
    await browser.close();
  }
}
