import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's old headless shell (package chromium-headless-shell), Playwright's own default for
 * headless runs: the same engine without the browser around it, about 40 % less CPU over the
 * journeys (decision 138). The whole browser where the shell is missing, and for the journeys that
 * test how the browser itself treats a download (playwright.config.ts).
 */
const SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? (existsSync(SHELL) ? SHELL : CHROMIUM_PATH);
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  // Debian's start script turns GPU rasterization on; without a GPU that runs through SwiftShader.
  '--disable-gpu-rasterization',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** E2E_PORT lets two runs on one machine keep out of each other's way. */
export const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * Journeys run on several workers, and each worker has a portal of its own on the port after
 * E2E_PORT that its slot gives (Playwright sets TEST_PARALLEL_INDEX in every worker; a worker
 * that replaces a failed one keeps the slot). No journey sees another's data or sign-ins.
 */
export const WORKERS = Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism()));
if (!Number.isInteger(WORKERS) || WORKERS < 1)
  throw new Error(`E2E_WORKERS: eine ganze Zahl ab 1, nicht „${process.env.E2E_WORKERS}“`);
export const portFor = (slot: number): number => FIRST_PORT + slot;
export const PORT = portFor(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const baseUrlFor = (port: number): string => `http://127.0.0.1:${port}`;
export const BASE_URL = baseUrlFor(PORT);
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const stateFile = (port: number): string =>
  fileURLToPath(new URL(`../../.tmp/portal-state-${port}.json`, import.meta.url));

export type RoleKey = 'superAdmin' | 'admin' | 'aufsichtsrat' | 'vertreter';
/**
 * Accounts whose password or second factor a journey changes, so the role accounts above stay
 * usable (loginAs expects no second step).
 */
export type SpareKey = 'resetUser' | 'passwordUser' | 'twoFactorUser';

export interface Account {
  email: string;
  password: string;
  firstname: string;
  lastname: string;
  roles: string[];
}

/** The accounts the global setup creates: one per role and three spares. */
export const ACCOUNTS: Record<RoleKey | SpareKey, Account> = {
  superAdmin: {
    email: 'admin@example.org',
    password: 'Start-Passwort-123',
    firstname: 'Portal',
    lastname: 'Administrator',
    roles: ['Super-Admin'],
  },
  admin: {
    email: 'geschaeftsstelle@example.org',
    password: 'Geschaefts-Stelle-9',
    firstname: 'Gesa',
    lastname: 'Schäfer',
    roles: ['Admin'],
  },
  aufsichtsrat: {
    email: 'aufsicht@example.org',
    password: 'Aufsichts-Rat-77',
    firstname: 'Anton',
    lastname: 'Aufsicht',
    roles: ['Aufsichtsrat'],
  },
  vertreter: {
    email: 'vertreterin@example.org',
    password: 'Vertreter-In-55',
    firstname: 'Vera',
    lastname: 'Treter',
    roles: ['Vertreter'],
  },
  resetUser: {
    email: 'vergesslich@example.org',
    password: 'Vergessen-Pass-31',
    firstname: 'Volker',
    lastname: 'Vergesslich',
    roles: ['Vertreter'],
  },
  passwordUser: {
    email: 'wechsel@example.org',
    password: 'Wechsel-Pass-42',
    firstname: 'Wiebke',
    lastname: 'Wechsel',
    roles: ['Aufsichtsrat'],
  },
  twoFactorUser: {
    email: 'zweifaktor@example.org',
    password: 'Zwei-Faktor-Pass-18',
    firstname: 'Zora',
    lastname: 'Zweifaktor',
    roles: ['Vertreter'],
  },
};

export interface PortalState {
  dataDir: string;
  pid: number;
}

/** Where the running portal keeps its data (mail files are in `${dataDir}/mail`). */
export const portalStateAt = (port: number): PortalState =>
  JSON.parse(readFileSync(stateFile(port), 'utf8')) as PortalState;
export const portalState = (): PortalState => portalStateAt(PORT);
