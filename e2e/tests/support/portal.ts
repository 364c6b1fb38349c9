import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** E2E_PORT lets two runs on one machine keep out of each other's way. */
export const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const STATE_FILE = fileURLToPath(new URL(`../../.tmp/portal-state-${PORT}.json`, import.meta.url));

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
export const portalState = (): PortalState => JSON.parse(readFileSync(STATE_FILE, 'utf8')) as PortalState;
