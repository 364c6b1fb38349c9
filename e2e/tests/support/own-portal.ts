import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PORT, REPO_ROOT } from './portal.ts';

/** The Super-Admin an own portal creates on its first start. */
export const OWN_PORTAL_ADMIN = {
  email: 'erstadmin@example.org',
  password: 'Erst-Admin-Pass-24',
  firstname: 'Portal',
  lastname: 'Administrator',
} as const;

export interface OwnPortal {
  /** `http://localhost:<port>`: a host name, as WebAuthn accepts no IP address as relying party. */
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Own portals use 3350–3399; the start depends on E2E_PORT, so parallel runs begin apart. */
const FIRST_PORT = 3350;
const PORT_COUNT = 50;

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

async function freePort(): Promise<number> {
  for (let i = 0; i < PORT_COUNT; i += 1) {
    const port = FIRST_PORT + ((PORT + i) % PORT_COUNT);
    if (await isFree(port)) return port;
  }
  throw new Error(`Kein freier Port zwischen ${FIRST_PORT} und ${FIRST_PORT + PORT_COUNT - 1}`);
}

const exited = (child: ChildProcess, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(true);
      return;
    }
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * A portal of a journey's own, for settings the shared one (global setup) does not have: the
 * built server on a fresh data folder with the production defaults, e.g. the second factor
 * required for Admin and Super-Admin. `env` adds or overrides variables.
 */
export async function startOwnPortal({
  env = {},
}: { env?: Record<string, string> } = {}): Promise<OwnPortal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gremienportal-own-'));
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const logFile = join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  // Not inherited: the shared portal's settings (TWO_FACTOR_REQUIRED_ROLES and the like) stay out.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'].includes(key)),
  );
  const server = spawn(process.execPath, ['server/dist/server.js'], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      INITIAL_ADMIN_EMAIL: OWN_PORTAL_ADMIN.email,
      INITIAL_ADMIN_PASSWORD: OWN_PORTAL_ADMIN.password,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', log, log],
  });

  const stop = async () => {
    server.kill('SIGTERM');
    if (!(await exited(server, 10_000))) {
      server.kill('SIGKILL');
      await exited(server, 5_000);
    }
    if (!process.env.KEEP_E2E_DATA) rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && server.exitCode === null) {
    try {
      // 127.0.0.1, where the server listens: Node may try ::1 first for "localhost".
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.ok) return { baseUrl, dataDir, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const output = readFileSync(logFile, 'utf8');
  await stop();
  throw new Error(`Eigenes Portal startete nicht auf Port ${port}:\n${output}`);
}

/** The own portal's first Super-Admin enters the password on its login page. */
export async function ownPortalPasswordStep(page: Page, portal: OwnPortal): Promise<void> {
  await page.goto(`${portal.baseUrl}/login`);
  await page.getByLabel('E-Mail-Adresse').fill(OWN_PORTAL_ADMIN.email);
  await page.getByLabel(/^Passwort\s*\*?$/).fill(OWN_PORTAL_ADMIN.password);
  await page.getByRole('button', { name: 'Einloggen' }).click();
}
