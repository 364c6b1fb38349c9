import type { HTTPRequest, Page } from 'puppeteer-core';
import type { BenchContext } from '../lib/context.ts';
import { launchBrowser, signIn } from '../lib/browser.ts';
import { ms, type Figure, type ScenarioResult } from '../lib/report.ts';

/** The CPU slowdown for interaction to next paint, and its goal for the p75. */
const CPU_SLOWDOWN = 4;
const GOAL_P75_MS = 200;
/**
 * The Event Timing API's smallest threshold: a quicker interaction reports no entry at all and
 * counts as this much (an upper bound, so the figures are never too good).
 */
const THRESHOLD_MS = 16;
/** A laptop's window: the tree stands beside the grid and the header's search field in its row. */
const VIEWPORT = { width: 1280, height: 800 };
/** Typed key by key, as a person types, faster than the suggestions' pause of 250 ms. */
const KEY_DELAY_MS = 150;
const WORDS = { full: ['Protokoll', 'Bericht', 'Haushalt'], quick: ['Pro'] };

/**
 * Collects the page's Event Timing entries (type 'event', durationThreshold 16) of interactions,
 * as the web-vitals library does for INP; `take()` hands over and forgets what was seen so far.
 */
const OBSERVER = `(() => {
  const store = { entries: [] };
  const keep = (list) => {
    for (const entry of list)
      if (entry.interactionId)
        store.entries.push({ id: entry.interactionId, name: entry.name, duration: entry.duration });
  };
  store.observer = new PerformanceObserver((list) => keep(list.getEntries()));
  store.observer.observe({ type: 'event', durationThreshold: ${THRESHOLD_MS}, buffered: true });
  store.take = () => {
    keep(store.observer.takeRecords());
    const taken = store.entries;
    store.entries = [];
    return taken;
  };
  window.__benchInteractions = store;
})()`;

interface EventEntry {
  id: number;
  name: string;
  duration: number;
}

/** One value per interaction: the longest of its events (pointerdown, pointerup, click; keydown, keyup …). */
function interactionsOf(entries: EventEntry[]): number[] {
  const longest = new Map<number, number>();
  for (const entry of entries) longest.set(entry.id, Math.max(longest.get(entry.id) ?? 0, entry.duration));
  return [...longest.values()];
}

/**
 * The page's API requests still open. Puppeteer's own `waitForNetworkIdle` never sees this portal's
 * pages idle: the scripts the page preloads (modulepreload) never report their end. So the scenario
 * counts the API's requests (fetch) alone.
 */
const inflight = new WeakMap<Page, Set<HTTPRequest>>();

function trackRequests(page: Page): void {
  const open = new Set<HTTPRequest>();
  inflight.set(page, open);
  page.on('request', (request) => {
    for (const hop of request.redirectChain()) open.delete(hop);
    if (request.resourceType() === 'fetch' || request.resourceType() === 'xhr') open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
}

/** Waits until the page's requests have been answered for a while and two more frames were painted. */
async function settle(page: Page, idleMs = 400, timeoutMs = 15_000): Promise<void> {
  const open = inflight.get(page)!;
  const deadline = Date.now() + timeoutMs;
  let idleSince = Date.now();
  for (;;) {
    if (open.size > 0) idleSince = Date.now();
    else if (Date.now() - idleSince >= idleMs) break;
    if (Date.now() > deadline)
      throw new Error(`Anfragen offen nach ${timeoutMs} ms: ${[...open].map((r) => r.url()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
}

/** The Event Timing entries since the last call. */
async function take(page: Page): Promise<EventEntry[]> {
  return (await page.evaluate('window.__benchInteractions.take()')) as EventEntry[];
}

/**
 * Runs `act`, which makes `expected` interactions, and answers their values; interactions without
 * an entry were quicker than the threshold and count as the threshold.
 */
async function measured(page: Page, expected: number, act: () => Promise<void>) {
  await take(page);
  await act();
  await settle(page);
  const values = interactionsOf(await take(page)).sort((a, b) => b - a);
  if (values.length > expected)
    throw new Error(`${values.length} Interaktionen gemessen, ${expected} erwartet`);
  const below = expected - values.length;
  return { values: [...values, ...Array<number>(below).fill(THRESHOLD_MS)], below };
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle0' });
  await settle(page);
}

/** Nearest rank: the smallest value with at least `share` of all at or below it. */
const rank = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil(share * values.length) - 1]!;

interface Kind {
  label: string;
  values: number[];
  below: number;
}

function figures({ label, values, below }: Kind): Figure[] {
  const p75 = rank(values, 0.75);
  return [
    {
      measure: `${label}: INP p75`,
      value: ms(p75),
      goal: `≤ ${GOAL_P75_MS} ms`,
      met: p75 <= GOAL_P75_MS,
    },
    { measure: `${label}: INP größter Wert`, value: ms(Math.max(...values)) },
    {
      measure: `${label}: Interaktionen`,
      value: below > 0 ? `${values.length} (${below} unter ${THRESHOLD_MS} ms)` : String(values.length),
    },
  ];
}

/** Clicks through sibling folders in the tree, each click one interaction. */
async function treeClicks(page: Page, url: string, folderIds: number[], count: number): Promise<Kind> {
  await open(page, url);
  const kind: Kind = { label: 'Ordner im Baum antippen', values: [], below: 0 };
  for (let i = 0; i < count; i += 1) {
    // Never the folder already open: the next of the siblings, round and round.
    const id = folderIds[(i + 1) % folderIds.length]!;
    const node = `nav[aria-label="Ordnerbaum"] [role="treeitem"][data-id="${id}"] > div`;
    await page.waitForSelector(node, { visible: true });
    const { values, below } = await measured(page, 1, () => page.click(node));
    kind.values.push(...values);
    kind.below += below;
    await page.waitForSelector(`[role="treeitem"][data-id="${id}"][aria-selected="true"]`);
  }
  return kind;
}

/** Opens the file dialog ("Datei ausgewählt") through a document's "⋮", then closes it (not counted). */
async function fileDialogs(page: Page, url: string, count: number): Promise<Kind> {
  await open(page, url);
  const kind: Kind = { label: 'Dateidialog öffnen', values: [], below: 0 };
  const triggers = 'tr[data-type="file"] button[data-row-menu="dialog"]';
  await page.waitForSelector(triggers, { visible: true });
  for (let i = 0; i < count; i += 1) {
    const buttons = await page.$$(triggers);
    const button = buttons[(i * 7) % buttons.length]!;
    // Into view first: scrolling is no interaction, and the click should not wait for it.
    await button.scrollIntoView();
    const { values, below } = await measured(page, 1, () => button.click());
    kind.values.push(...values);
    kind.below += below;
    await page.waitForSelector('[role="dialog"]', { visible: true });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[role="dialog"]', { hidden: true });
    await settle(page);
  }
  return kind;
}

/** Types words into the header's search field key by key; every key is one interaction. */
async function typing(page: Page, url: string, words: string[]): Promise<Kind> {
  await open(page, url);
  const kind: Kind = { label: 'In das Suchfeld tippen', values: [], below: 0 };
  const field = 'input[aria-label="Suchen"]';
  // Opening the field (it loads on first use) is not typing: not counted.
  await page.click('button[aria-label="Suchen"]');
  await page.waitForSelector(field, { visible: true });
  await page.focus(field);
  await settle(page);
  for (const word of words) {
    const { values, below } = await measured(page, word.length, () =>
      page.keyboard.type(word, { delay: KEY_DELAY_MS }),
    );
    kind.values.push(...values);
    kind.below += below;
    // Empty again for the next word (not counted): select everything and delete it.
    await page.click(field, { count: 3 });
    await page.keyboard.press('Backspace');
    await settle(page);
  }
  return kind;
}

/**
 * Interaction to next paint (decision 184) in Debian chromium with the CPU four times slower, as a
 * Vertreter: clicking folders in the explorer's tree, opening the file dialog of a document, typing
 * in the header's search field. Each interaction's value is its longest Event Timing entry; the
 * table gives the p75 and the largest value of each kind.
 */
export async function interactionsScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const count = ctx.quick ? 3 : 20;
  const words = ctx.quick ? WORDS.quick : WORDS.full;
  const { pages, vertreter, smallFolderId, bigFolderId } = ctx.dataset;
  const folderUrl = `${ctx.portal.url}/files?folder=${pages.folderId}`;
  const browser = await launchBrowser();
  try {
    const context = await browser.createBrowserContext();
    const page = await signIn(context, ctx.portal.url, vertreter.email, vertreter.password);
    trackRequests(page);
    await page.setViewport(VIEWPORT);
    await page.evaluateOnNewDocument(OBSERVER);
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const kinds = [
      await treeClicks(page, folderUrl, [pages.folderId, smallFolderId, bigFolderId], count),
      await fileDialogs(page, folderUrl, count),
      await typing(page, folderUrl, words),
    ];
    return {
      name: 'Interaktion bis zur nächsten Darstellung (INP, Debian-Chromium)',
      setup: `Chromium (puppeteer-core) mit ${CPU_SLOWDOWN}× gedrosselter CPU (\`Emulation.setCPUThrottlingRate\`), Fenster ${VIEWPORT.width} × ${VIEWPORT.height}, als Vertreter angemeldet auf \`/files?folder=…\` (Ordner mit ${pages.folderItems} Dokumenten, Baum des ganzen Datenbestands). Gemessen mit der Event Timing API (PerformanceObserver \`event\`, durationThreshold ${THRESHOLD_MS} ms), je Interaktion der längste Eintrag (wie web-vitals); Interaktionen ohne Eintrag zählen als ${THRESHOLD_MS} ms. Baum: ${count} Klicks im Wechsel auf Ordner mit ${pages.folderItems}, 10 und ${ctx.dataset.bigFolderItems} Dokumenten; Dateidialog: ${count}-mal „⋮“ eines Dokuments (Schließen zählt nicht); Suchfeld: ${words.map((word) => `„${word}“`).join(', ')} Taste für Taste im Abstand von ${KEY_DELAY_MS} ms in die Suche im Kopf, je Taste eine Interaktion.`,
      figures: kinds.flatMap(figures),
    };
  } finally {
    await browser.close();
  }
}
