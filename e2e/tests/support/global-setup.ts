import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ACCOUNTS, baseUrlFor, portFor, REPO_ROOT, stateFile, WORKERS, type PortalState } from './portal.ts';

const execFileAsync = promisify(execFile);

/** Starts one built portal per worker, each on a fresh data folder with one account per role. */
export default async function globalSetup(): Promise<void> {
  const slots = Array.from({ length: WORKERS }, (_, slot) => portFor(slot));
  await Promise.all(slots.map((port) => startPortal(port)));
}

async function startPortal(port: number): Promise<void> {
  const baseUrl = baseUrlFor(port);
  const dataDir = mkdtempSync(join(tmpdir(), 'gremienportal-e2e-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    INITIAL_ADMIN_EMAIL: ACCOUNTS.superAdmin.email,
    INITIAL_ADMIN_PASSWORD: ACCOUNTS.superAdmin.password,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // A test installation; the second factor's own journey sets its requirement up itself.
    TWO_FACTOR_REQUIRED_ROLES: '',
  };
  const { superAdmin: _initial, ...others } = ACCOUNTS;
  for (const account of Object.values(others)) {
    const args = [
      'server/dist/cli.js',
      'create-user',
      '--email',
      account.email,
      '--firstname',
      account.firstname,
    ];
    args.push('--lastname', account.lastname, ...account.roles.flatMap((role) => ['--role', role]));
    // Not spawnSync: the portals' set-ups run side by side (each CLI start is about a second).
    await execFileAsync(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...env, PORTAL_PASSWORD: account.password },
      encoding: 'utf8',
    }).catch((error: { stderr?: string }) => {
      throw new Error(`Konto ${account.email} nicht angelegt: ${error.stderr ?? String(error)}`);
    });
  }
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const server = spawn(process.execPath, ['server/dist/server.js'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
    detached: false,
  });
  mkdirSync(dirname(stateFile(port)), { recursive: true });
  const state: PortalState = { dataDir, pid: server.pid! };
  writeFileSync(stateFile(port), JSON.stringify(state));

  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Portal startete nicht (Log: ${join(dataDir, 'server.log')})`);
}
