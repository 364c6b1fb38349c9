// Starts what a scaled-out portal needs, each on a free port with its own temporary folder:
// PostgreSQL database, Redis, s3rver (S3 protocol), an SMTP sink, portal instances and nginx.
//
// Over 300 lines: the one harness of cluster.test.ts; each starter is short and all share waitFor,
// freePort and startChild, so the test's whole environment is in one place.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { createServer, Socket, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_ENTRY = join(REPO_ROOT, 'server', 'dist', 'server.js');
export const DEPLOYMENT_GUIDE = join(REPO_ROOT, 'docs', 'deployment.md');
export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repeats `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Zeitüberschreitung: ${what}${lastError ? ` (${String(lastError)})` : ''}`);
    }
    await sleep(intervalMs);
  }
}

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

export async function reachable(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, host);
  });
}

/** A child process whose output is kept for the failure report. */
export interface Child {
  name: string;
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      keep(Buffer.from(String(error)));
      resolve(null);
    });
  });
  return {
    name,
    process: child,
    output: () => output,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A fresh PostgreSQL database, dropped again by `drop()`. */
export async function createDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gp_cluster_${randomBytes(6).toString('hex')}`;
  const run = async (query: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/** The local Redis when it answers, else a private `redis-server` on a free port. */
export async function ensureRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  // A database number of its own keeps the test's keys away from anything else on that Redis.
  const db = 1 + Math.floor(Math.random() * 15);
  if (await reachable(6379)) return { url: `redis://127.0.0.1:6379/${db}`, stop: async () => undefined };
  if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0) {
    throw new Error('Kein Redis erreichbar und redis-server fehlt: apt-get install -y redis-server');
  }
  const port = await freePort();
  const redis = startChild('redis-server', 'redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await waitFor(
    'redis-server startet (Debian-Paket redis-server installiert?)',
    async () => {
      if (redis.process.exitCode !== null) throw new Error(redis.output());
      return reachable(port);
    },
    10_000,
  );
  return { url: `redis://127.0.0.1:${port}/${db}`, stop: () => redis.stop() };
}

/** s3rver ships no types; this is the part the test uses. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

export async function startS3rver(
  bucket: string,
): Promise<{ endpoint: string; directory: string; stop(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
  const directory = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: await freePort(),
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    directory,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export interface DeliveredMail {
  /** Envelope sender: tells which instance sent it. */
  envelopeFrom: string;
  to: string;
  subject: string;
  text: string;
}

/** An SMTP server that records every mail it accepts. */
export async function startSmtpSink(): Promise<{
  port: number;
  delivered: DeliveredMail[];
  stop(): Promise<void>;
}> {
  const delivered: DeliveredMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback interface; a self-signed STARTTLS offer would be refused.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const from = session.envelope.mailFrom;
          for (const recipient of session.envelope.rcptTo) {
            delivered.push({
              envelopeFrom: from ? from.address : '',
              to: recipient.address,
              subject: parsed.subject ?? '',
              text: (parsed.text ?? '').replace(/\r\n/g, '\n').trimEnd(),
            });
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    delivered,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * One portal instance: the built server in a working folder of its own, configured from `env`
 * (which may set `DATA_DIR`); it listens on 127.0.0.1 and `port` (default: a free one).
 */
export async function startInstance(
  name: string,
  env: Record<string, string>,
  options: { port?: number } = {},
): Promise<Child & { port: number; dir: string }> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(
      `${SERVER_ENTRY} fehlt: zuerst bauen (npm run build -w contracts && npm run build -w server)`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), `gremienportal-cluster-${name}-`));
  const port = options.port ?? (await freePort());
  const child = startChild(name, process.execPath, [SERVER_ENTRY], {
    // Its own working folder: no `.env` of the checkout is read.
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DATA_DIR: join(dir, 'data'),
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
  });
  await waitFor(
    `Instanz ${name} antwortet auf /api/v1/health`,
    async () => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) {
        throw new Error(`Instanz ${name} ist beendet:\n${child.output()}`);
      }
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      return response.status === 200;
    },
    60_000,
  );
  return Object.assign(child, { port, dir });
}

/** The fenced block after `<!-- test:<name> -->` in docs/deployment.md: the tests run what the guide says. */
export async function guideBlock(name: string): Promise<string> {
  const guide = await readFile(DEPLOYMENT_GUIDE, 'utf8');
  const marker = `<!-- test:${name} -->`;
  const at = guide.indexOf(marker);
  if (at < 0) throw new Error(`${marker} fehlt in docs/deployment.md`);
  const block = /```[a-z]*\n([\s\S]*?)\n```/.exec(guide.slice(at + marker.length));
  if (!block) throw new Error(`Kein Codeblock nach ${marker} in docs/deployment.md`);
  return block[1]!;
}

/** `KEY=value` lines as systemd's EnvironmentFile reads them (comments and blank lines skipped). */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) throw new Error(`Zeile ohne KEY=Wert: ${line}`);
    env[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return env;
}

/** A throw-away CA-less certificate for 127.0.0.1 (what certbot would provide). */
export async function makeCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, 'fullchain.pem');
  const key = join(dir, 'privkey.pem');
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=portal.example.org',
      '-addext',
      'subjectAltName=DNS:portal.example.org,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`openssl fehlgeschlagen: ${result.stderr || String(result.error)}`);
  return { cert, key };
}

export interface NginxSite {
  /** The site of docs/deployment.md with ports and paths of this test. */
  conf: string;
  httpPort: number;
  tlsPort: number;
}

/**
 * Makes the guide's nginx site runnable here: the upstream lines point at the test's instances
 * (with the guide's parameters), it listens on free loopback ports, uses the test certificate and
 * the test's upload limit, and adds `X-Upstream` so the test sees which instance answered.
 */
export async function siteFromGuide(options: {
  upstreamPorts: number[];
  certificate: { cert: string; key: string };
  clientMaxBodyMb: number;
  /** DOWNLOAD_OFFLOAD=nginx: the guide's offload location, reading the documents from here. */
  offloadFilesDir?: string;
}): Promise<NginxSite> {
  let site = await guideBlock('nginx-site');
  if (options.offloadFilesDir) {
    // Into the TLS server block, where the guide says, with this test's storage folder.
    const location = (await guideBlock('nginx-offload')).replace(
      /^(\s*)alias\s+\S+;/m,
      `$1alias ${options.offloadFilesDir}/;`,
    );
    const anchor = /^(\s*error_page 413 = @too_large;\n)/m;
    if (!anchor.test(site) || !location.includes(options.offloadFilesDir)) {
      throw new Error('Offload-Block oder TLS-Block der Anleitung nicht wie erwartet');
    }
    site = site.replace(anchor, `$1\n${location}\n`);
  }
  const httpPort = await freePort();
  const tlsPort = await freePort();
  const lines = site.split('\n');
  const out: string[] = [];
  let upstreamDone = false;
  for (const line of lines) {
    const server = /^(\s*)server\s+[^\s;]+:\d+(\s[^;]*)?;\s*$/.exec(line);
    if (server) {
      if (!upstreamDone) {
        for (const port of options.upstreamPorts)
          out.push(`${server[1]}server 127.0.0.1:${port}${server[2] ?? ''};`);
        upstreamDone = true;
      }
      continue;
    }
    if (/^\s*listen\s+\[::\]/.test(line)) continue;
    const replaced = line
      .replace(/^(\s*)listen\s+80;/, `$1listen 127.0.0.1:${httpPort};`)
      .replace(/^(\s*)listen\s+443\s/, `$1listen 127.0.0.1:${tlsPort} `)
      .replace(/^(\s*)ssl_certificate\s+\S+;/, `$1ssl_certificate ${options.certificate.cert};`)
      .replace(/^(\s*)ssl_certificate_key\s+\S+;/, `$1ssl_certificate_key ${options.certificate.key};`)
      .replace(/^(\s*)client_max_body_size\s+\S+;/, `$1client_max_body_size ${options.clientMaxBodyMb}m;`)
      .replace(/^(\s*)root\s+\/var\/www\/html;/, `$1root ${tmpdir()};`);
    out.push(replaced);
    if (/^\s*add_header Strict-Transport-Security/.test(line)) {
      out.push(line.replace(/add_header.*/, 'add_header X-Upstream $upstream_addr always;'));
    }
  }
  const conf = out.join('\n');
  for (const expected of [
    `127.0.0.1:${httpPort}`,
    `127.0.0.1:${tlsPort}`,
    options.certificate.cert,
    'X-Upstream',
  ]) {
    if (!conf.includes(expected))
      throw new Error(`nginx-Site der Anleitung nicht wie erwartet (${expected} fehlt)`);
  }
  if (!upstreamDone) throw new Error('nginx-Site der Anleitung hat keinen upstream-server');
  return { conf, httpPort, tlsPort };
}

/** nginx as a foreground child with its own prefix, temp folders and logs, serving `site`. */
export async function startNginx(site: NginxSite): Promise<Child & { dir: string }> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx fehlt unter ${NGINX}: bitte das Debian-Paket installieren (apt-get install -y nginx)`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-nginx-'));
  // Worker processes run as an unprivileged user when nginx starts as root: they must reach
  // their temporary folders.
  await chmod(dir, 0o755);
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(dir, sub));
  // Started as root, the workers run as `nobody`; in the group of the portal's files, as the guide
  // has nginx's user join the portal's group for DOWNLOAD_OFFLOAD=nginx.
  const user = process.getuid?.() === 0 ? 'user nobody root;\n' : '';
  const conf = `${user}worker_processes 1;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type application/octet-stream;

${site.conf}
}
`;
  const confPath = join(dir, 'nginx.conf');
  await writeFile(confPath, conf);
  const args = ['-p', dir, '-e', `${dir}/error.log`, '-c', confPath];
  const check = spawnSync(NGINX, [...args, '-t', '-g', `pid ${dir}/nginx.pid;`], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx-Konfiguration ungültig:\n${check.stderr}\n${conf}`);
  const child = startChild('nginx', NGINX, [...args, '-g', `daemon off; pid ${dir}/nginx.pid;`]);
  await waitFor(
    'nginx nimmt Verbindungen an',
    async () => {
      if (child.process.exitCode !== null) throw new Error(`nginx ist beendet:\n${child.output()}`);
      return (await reachable(site.httpPort)) && (await reachable(site.tlsPort));
    },
    10_000,
  );
  return Object.assign(child, { dir });
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** `127.0.0.1:<port>` of the instance that answered (nginx's `X-Upstream`; after a retry the last one). */
  upstream: string;
  json(): any;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

/** An HTTPS client for the portal behind nginx that trusts the test certificate. */
export function portalClient(baseUrl: string, ca: Buffer) {
  const agent = new HttpsAgent({ keepAlive: true, ca });
  const call = async (method: string, path: string, options: RequestOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: Buffer | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(options.json));
    } else if (options.form) {
      // Encoded the way a browser sends it.
      const encoded = new Request('http://localhost/', { method: 'POST', body: options.form });
      headers['content-type'] = encoded.headers.get('content-type')!;
      body = Buffer.from(await encoded.arrayBuffer());
    }
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Answer>((resolve, reject) => {
      const request = httpsRequest(new URL(path, baseUrl), { method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const data = Buffer.concat(chunks);
          const upstream = String(response.headers['x-upstream'] ?? '');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: data,
            upstream: upstream.split(',').at(-1)!.trim(),
            json: () => JSON.parse(data.toString('utf8')),
          });
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  };

  /** Announces `bytes` of body and waits for nginx's answer before sending any of it. */
  const announceUpload = (path: string, bytes: number, token: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const request = httpsRequest(new URL(path, baseUrl), {
        method: 'POST',
        agent: false,
        ca,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(bytes),
        },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const data = Buffer.concat(chunks);
          request.destroy();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: data,
            upstream: String(response.headers['x-upstream'] ?? ''),
            json: () => JSON.parse(data.toString('utf8')),
          });
        });
      });
      request.on('error', reject);
      request.flushHeaders();
    });

  return { call, announceUpload, close: () => agent.destroy() };
}
