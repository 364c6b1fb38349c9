import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onServerCore } from './pinning.ts';
import { descendantsOf } from './processes.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Service {
  url: string;
  pid: number;
  /** Resident set size of the process and its helper processes now, in bytes. */
  rss(): number;
  /** Resident set size of the process alone, without its helpers, in bytes. */
  ownRss(): number;
  stop(): Promise<void>;
}

/** Resident set size of a process and (unless `alone`) its helper processes from /proc (Linux), in bytes. */
export function rssOf(pid: number, alone = false): number {
  let bytes = 0;
  for (const id of alone ? [pid] : [pid, ...descendantsOf(pid)]) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'));
      bytes += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // A helper that ended meanwhile holds no memory.
    }
  }
  return bytes;
}

/** A port on 127.0.0.1 nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, log: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Dienst unter ${url} startete nicht (Log: ${log})`);
}

/**
 * Runs a server process until `stop`, its output in `log`; resolves once `readyUrl` answers. With
 * core pinning (pinning.ts) it runs on the server core through `taskset`, which replaces itself
 * with the command: `pid` is the server's own.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; log: string; readyUrl: string; url: string },
): Promise<Service> {
  const out = openSync(options.log, 'a');
  const [program, programArgs] = onServerCore(command, args);
  const child = spawn(program, programArgs, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', out, out],
  });
  await waitFor(options.readyUrl, child, options.log);
  // Something else may have answered on the port: the process must still be running.
  await new Promise((resolve) => setTimeout(resolve, 200));
  if (child.exitCode !== null) throw new Error(`${command} endete beim Start (Log: ${options.log})`);
  return {
    url: options.url,
    pid: child.pid!,
    rss: () => rssOf(child.pid!),
    ownRss: () => rssOf(child.pid!, true),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The built portal (`npm run build`) on `dataDir`, as `npm run serve` starts it in production. */
export async function startPortal(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startProcess(process.execPath, ['server/dist/server.js'], {
    env: {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      // Many simulated people share one address; the throttle would turn them away.
      LOGIN_MAX_ATTEMPTS: '100000',
      LOGIN_MAX_FAILURES_PER_CLIENT: '100000',
      // Measures the portal's work, not the setting-up of a second factor (decision 126).
      TWO_FACTOR_REQUIRED_ROLES: '',
      ...env,
    },
    log: join(dataDir, 'server.log'),
    readyUrl: `${url}/api/v1/health`,
    url,
  });
}

export async function login(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200)
    throw new Error(`Anmeldung von ${email} scheiterte: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A JSON call to the portal's API with a bearer token; anything but 2xx fails the bench. */
export async function apiCall(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, any>> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, any>>;
}
