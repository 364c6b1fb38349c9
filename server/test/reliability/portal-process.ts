import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The real portal as a child process, for tests that must kill it or run it next to an operator
 * command. It runs from the sources through tsx, so no build is needed and a build running at the
 * same time cannot change what is tested.
 */

/** The server package folder (holds `src/`). */
export const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export const ADMIN_EMAIL = 'admin@example.org';
export const ADMIN_PASSWORD = 'Start-Passwort-123';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Every variable the portal reads, set explicitly: a developer's `.env` must not leak in (set
 * variables win over the file, also empty ones).
 */
export function portalEnv(options: {
  dataDir: string;
  port: number;
  databaseUrl?: string;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TEST_DATABASE_URL;
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    PUBLIC_URL: 'http://portal.test',
    INITIAL_ADMIN_EMAIL: ADMIN_EMAIL,
    INITIAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    // A test installation: these tests are about storage, not the second factor (decision 126).
    TWO_FACTOR_REQUIRED_ROLES: '',
    MAX_UPLOAD_MB: '20',
    DATABASE_URL: options.databaseUrl ?? '',
    STORAGE: 'disk',
    SMTP_URL: '',
    REDIS_URL: '',
    DEMO: '',
    TRUST_PROXY: '',
  };
}

/**
 * Runs a TypeScript entry of the server package (`src/server.ts`, `src/cli.ts`) with tsx.
 * `readStdout: false` leaves its standard output pipe unread, as a careless supervisor would.
 */
export function spawnServerScript(
  entry: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  { readStdout = true }: { readStdout?: boolean } = {},
): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', entry, ...args], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  if (readStdout) child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      keep(Buffer.from(String(error)));
      resolve(null);
    });
  });
  return { child, output: () => output, exited };
}

export interface PortalProcess {
  url: string;
  pid: number;
  output(): string;
  /** Ends the process at once, as a crash or power cut of the process would. */
  kill(): Promise<void>;
  /** Graceful stop (what a service manager does). */
  stop(): Promise<void>;
}

/** Starts the portal on `dataDir` and waits until it answers (migrations and the sweep are done). */
export async function startPortal(options: {
  dataDir: string;
  databaseUrl?: string;
}): Promise<PortalProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const run = spawnServerScript('src/server.ts', [], portalEnv({ ...options, port }));
  let exitCode: number | null | undefined;
  void run.exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`Portal beendet beim Start (Code ${exitCode}):\n${run.output()}`);
    }
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      run.child.kill('SIGKILL');
      throw new Error(`Portal antwortet nicht:\n${run.output()}`);
    }
    await sleep(50);
  }
  const stopWith = async (signal: NodeJS.Signals) => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
    await run.exited;
  };
  return {
    url,
    pid: run.child.pid!,
    output: run.output,
    kill: () => stopWith('SIGKILL'),
    stop: () => stopWith('SIGTERM'),
  };
}

/** A signed-in API client of a running portal. */
export interface ApiClient {
  url: string;
  token: string;
  request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response>;
}

export async function signIn(
  url: string,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<ApiClient> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`Anmeldung fehlgeschlagen: ${res.status} ${await res.text()}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return clientFor(url, token);
}

export function clientFor(url: string, token: string): ApiClient {
  return {
    url,
    token,
    request(method, path, body, signal) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      let payload: FormData | string | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
      return fetch(`${url}/api/v1${path}`, { method, headers, body: payload, ...(signal ? { signal } : {}) });
    },
  };
}

/** The multipart form the web app sends for a document upload or replacement. */
export function fileForm(
  fields: { title?: string; roles?: string[]; notify?: string[]; folderId?: number },
  content?: Buffer,
  name = 'dokument.pdf',
): FormData {
  const form = new FormData();
  if (fields.title !== undefined) form.append('title', fields.title);
  for (const role of fields.roles ?? []) form.append('permissions', role);
  for (const role of fields.notify ?? []) form.append('notifications', role);
  if (fields.folderId !== undefined) form.append('folder_id', String(fields.folderId));
  if (content) form.append('file', new Blob([content], { type: 'application/pdf' }), name);
  return form;
}
