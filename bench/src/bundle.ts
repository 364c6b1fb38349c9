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
  budgetBytes: number;
}

export const ROUTE_BUDGETS: readonly RouteBudget[] = [
  { route: '/login', modules: ['src/app/routes/login.tsx'], budgetBytes: 150 * KIB },
  {
    route: '/files',
    // Signed in (a token in localStorage): the app shell's layout plus the files page.
    modules: ['src/app/layouts/app-layout.tsx', 'src/app/routes/files.tsx'],
    budgetBytes: 250 * KIB,
  },
];

export interface InitialJs {
  route: string;
  /** Paths relative to the dist directory, entry first. */
  files: string[];
  gzipBytes: number;
  budgetBytes: number;
}

/** The parts of a Vite manifest entry that the measurement reads. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const MANIFEST_PATH = '.vite/manifest.json';
const ENTRY_KEY = 'index.html';

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

/** The JS files of the given manifest keys and of everything they import statically, in load order. */
export function staticJsFiles(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk)
      throw new Error(`"${key}" fehlt im Build-Manifest (umbenannt oder nicht mehr lazy geladen?).`);
    if (chunk.file.endsWith('.js') && !files.includes(chunk.file)) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
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
  return Promise.all(
    budgets.map(async ({ route, modules, budgetBytes }) => {
      const files = staticJsFiles(manifest, [ENTRY_KEY, ...modules]);
      const gzipBytes = (await Promise.all(files.map(sizeOf))).reduce((sum, size) => sum + size, 0);
      return { route, files, gzipBytes, budgetBytes: Math.round(budgetBytes * budgetScale) };
    }),
  );
}
