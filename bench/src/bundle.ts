/**
 * Initial JavaScript per route (decision 024): the gzip size (level 9) of every JS file the
 * browser loads for a fresh visit of a route until the network is idle. The files come from Vite's
 * build manifest: the entry (index.html) and the route's lazy modules, each with its static
 * imports followed recursively. Dynamic imports are left out; they load later, on demand.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

export const KIB = 1024;

export interface RouteBudget {
  route: string;
  /** Manifest keys (paths relative to web/) of the lazy modules a fresh visit loads. */
  modules: readonly string[];
  /** What `npm test` enforces: today's size with a little room, so that growth is noticed. */
  budgetBytes: number;
  /** The goal of decision 184 where it is not met yet; reported, not enforced. */
  goalBytes?: number;
}

/** Signed in (a token in localStorage), every page loads the app shell's layout first. */
const signedIn = (page: string) => ['src/app/layouts/app-layout.tsx', `src/app/routes/${page}.tsx`];

export const ROUTE_BUDGETS: readonly RouteBudget[] = [
  { route: '/login', modules: ['src/app/routes/login.tsx'], budgetBytes: 153 * KIB, goalBytes: 90 * KIB },
  { route: '/files', modules: signedIn('files'), budgetBytes: 196 * KIB, goalBytes: 170 * KIB },
  { route: '/events/show/{id}', modules: signedIn('event-show'), budgetBytes: 306 * KIB },
  { route: '/events', modules: signedIn('events'), budgetBytes: 345 * KIB },
  { route: '/search', modules: signedIn('search'), budgetBytes: 260 * KIB },
  { route: '/account', modules: signedIn('account'), budgetBytes: 281 * KIB },
];

export interface InitialJs {
  route: string;
  /** Paths relative to the dist directory, boot script and entry first. */
  files: string[];
  gzipBytes: number;
  budgetBytes: number;
  goalBytes?: number;
  /** The style sheets of the same chunks, gzip: reported, not budgeted. */
  cssFiles: string[];
  cssGzipBytes: number;
}

/** The parts of a Vite manifest entry that the measurement reads. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const MANIFEST_PATH = '.vite/manifest.json';
const ENTRY_KEY = 'index.html';
/** The boot script (web/src/boot/boot.ts, decision 184) is an asset of its own in the manifest. */
const isBootKey = (key: string) => /^_boot-[\w-]+\.js$/.test(key);

/**
 * BUNDLE_BUDGET_SCALE multiplies every budget (default 1): 0.5 shows that the check fails when a
 * route is over its budget.
 */
export function budgetScaleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BUNDLE_BUDGET_SCALE;
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`BUNDLE_BUDGET_SCALE muss eine positive Zahl sein, nicht "${raw}".`);
  }
  return scale;
}

export async function readManifest(distDir: string): Promise<Manifest> {
  const path = join(distDir, MANIFEST_PATH);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new Error(
      `Kein Build-Manifest unter ${path}. Erst bauen (npm run build; web/vite.config.ts setzt build.manifest).`,
    );
  }
  return JSON.parse(text) as Manifest;
}

/**
 * The JS files of the given manifest keys and of everything they import statically, in load order,
 * and the style sheets of those chunks.
 */
export function staticFiles(manifest: Manifest, keys: readonly string[]): { js: string[]; css: string[] } {
  const seen = new Set<string>();
  const js: string[] = [];
  const css: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(`"${key}" fehlt im Build-Manifest (umbenannt oder nicht mehr lazy geladen?).`);
    if (chunk.file.endsWith('.js') && !js.includes(chunk.file)) js.push(chunk.file);
    for (const sheet of chunk.css ?? []) if (!css.includes(sheet)) css.push(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return { js, css };
}

export async function gzipSize(path: string): Promise<number> {
  return (await gzipAsync(await readFile(path), { level: 9 })).length;
}

export async function measureInitialJs(
  distDir: string,
  { budgets = ROUTE_BUDGETS, budgetScale = budgetScaleFromEnv() } = {},
): Promise<InitialJs[]> {
  const manifest = await readManifest(distDir);
  if (!manifest[ENTRY_KEY]?.isEntry)
    throw new Error(`Das Build-Manifest hat keinen Einstieg "${ENTRY_KEY}".`);
  const sizes = new Map<string, Promise<number>>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      size = gzipSize(join(distDir, file));
      sizes.set(file, size);
    }
    return size;
  };
  const boot = Object.keys(manifest).filter(isBootKey);
  const total = async (files: string[]) =>
    (await Promise.all(files.map(sizeOf))).reduce((sum, size) => sum + size, 0);
  return Promise.all(
    budgets.map(async ({ route, modules, budgetBytes, goalBytes }) => {
      const { js: files, css: cssFiles } = staticFiles(manifest, [...boot, ENTRY_KEY, ...modules]);
      return {
        route,
        files,
        gzipBytes: await total(files),
        budgetBytes: Math.round(budgetBytes * budgetScale),
        ...(goalBytes === undefined ? {} : { goalBytes }),
        cssFiles,
        cssGzipBytes: await total(cssFiles),
      };
    }),
  );
}
