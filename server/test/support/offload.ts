/**
 * The download tests under every DOWNLOAD_OFFLOAD mode (decision 135): the app's environment for a
 * mode, and a client that receives what a browser would. `none` asks the app itself; `nginx` goes
 * through a real nginx in front of the app, configured with the offload location of
 * docs/deployment.md, which sends the file after the portal's `X-Accel-Redirect`; `s3` runs the
 * app on s3rver and follows the portal's 303 to the presigned address.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { S3rver, type S3rverInstance } from './s3rver.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { s3ClientFromConfig } from '../../src/storage/s3-storage.ts';
import type { TestApp } from './build-test-app.ts';

export const OFFLOAD_MODES = ['none', 'nginx', 's3'] as const;
export type OffloadMode = (typeof OFFLOAD_MODES)[number];

const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const GUIDE = fileURLToPath(new URL('../../../docs/deployment.md', import.meta.url));
const S3_KEYS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/** What a client ends up with. */
export interface Received {
  status: number;
  /** Lower-case names; a header sent twice is joined with ", ". */
  headers: Record<string, string | undefined>;
  body: Buffer;
  text: string;
  json(): any;
}

export interface DownloadRequest {
  method?: 'GET' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
}

/** The fenced block after `<!-- test:<name> -->` in docs/deployment.md. */
export async function guideBlock(name: string): Promise<string> {
  const guide = await readFile(GUIDE, 'utf8');
  const marker = `<!-- test:${name} -->`;
  const at = guide.indexOf(marker);
  if (at < 0) throw new Error(`${marker} fehlt in docs/deployment.md`);
  const block = /```[a-z]*\n([\s\S]*?)\n```/.exec(guide.slice(at + marker.length));
  if (!block) throw new Error(`Kein Codeblock nach ${marker} in docs/deployment.md`);
  return block[1]!;
}

/** The guide's offload location with this test's storage folder. */
export async function offloadLocation(filesDir: string): Promise<string> {
  const block = await guideBlock('nginx-offload');
  const located = block.replace(/^(\s*)alias\s+\S+;/m, `$1alias ${filesDir}/;`);
  if (!located.includes(`alias ${filesDir}/;`)) throw new Error('Offload-Block der Anleitung ohne alias');
  return located;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = (server.address() as AddressInfo) ?? { port: 0 };
      server.close(() => resolve(port));
    });
  });
}

function plainHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

async function receivedFrom(response: Response): Promise<Received> {
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: plainHeaders(response.headers),
    body,
    text: body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')),
  };
}

/** nginx in the foreground with its own prefix, proxying to the app and serving the offload location. */
async function startNginx(upstreamPort: number, filesDir: string) {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx fehlt unter ${NGINX}: apt-get install -y nginx (die Tests von DOWNLOAD_OFFLOAD=nginx brauchen es)`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'gremienportal-test-nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(dir, sub));
  const port = await freePort();
  // Started as root, nginx's workers run as an unprivileged user: as on a real machine, where
  // nginx's user is in the portal's group, they read the documents through the group's rights.
  const user = process.getuid?.() === 0 ? 'user nobody root;' : '';
  const conf = `${user}
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
daemon off;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    add_header Strict-Transport-Security "max-age=31536000" always;
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
${await offloadLocation(filesDir)}
  }
}
`;
  const confPath = join(dir, 'nginx.conf');
  await writeFile(confPath, conf);
  const check = spawnSync(NGINX, ['-p', dir, '-c', confPath, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx-Konfiguration ungültig:\n${check.stderr}\n${conf}`);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', confPath], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(
        `nginx startet nicht:\n${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One test file's set-up for one mode. */
export class Offload {
  private nginx?: Awaited<ReturnType<typeof startNginx>>;
  private t?: TestApp;

  private constructor(
    readonly mode: OffloadMode,
    readonly env: Record<string, string>,
    private readonly s3?: { server: S3rverInstance; dir: string; endpoint: string; bucket: string },
  ) {}

  static async create(mode: OffloadMode): Promise<Offload> {
    if (mode === 'nginx') return new Offload(mode, { DOWNLOAD_OFFLOAD: 'nginx' });
    if (mode === 'none') return new Offload(mode, {});
    const dir = await mkdtemp(join(tmpdir(), 'gremienportal-s3rver-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
    const endpoint = `http://127.0.0.1:${(await server.run()).port}`;
    const bucket = `offload-${randomBytes(4).toString('hex')}`;
    const env = {
      STORAGE: 's3',
      DOWNLOAD_OFFLOAD: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      ...S3_KEYS,
    };
    const client = s3ClientFromConfig(configSchema.parse(env));
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    return new Offload(mode, env, { server, dir, endpoint, bucket });
  }

  /** Puts nginx in front of the app (nginx mode). */
  async attach(t: TestApp): Promise<void> {
    this.t = t;
    if (this.mode !== 'nginx') return;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    this.nginx = await startNginx(port, join(t.dataDir, 'files'));
  }

  /** The request as a browser would send it, and what it receives in the end. */
  async request(request: DownloadRequest): Promise<Received> {
    const t = this.t!;
    const method = request.method ?? 'GET';
    const headers = request.headers ?? {};
    if (this.nginx) {
      return receivedFrom(await fetch(`${this.nginx.url}${request.url}`, { method, headers }));
    }
    const res = await t.app.inject({ method, url: request.url, headers });
    if (this.mode === 's3' && res.statusCode === 303) {
      const location = this.checkRedirect(res.headers);
      // A browser drops the bearer header on the way to another origin and keeps the rest.
      const { authorization: _dropped, ...forwarded } = headers;
      return receivedFrom(await fetch(location, { method, headers: forwarded }));
    }
    const flat: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      flat[name] = Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
    }
    return {
      status: res.statusCode,
      headers: flat,
      body: res.rawPayload,
      text: res.body,
      json: () => res.json(),
    };
  }

  /** The 303 of DOWNLOAD_OFFLOAD=s3: uncacheable, to a presigned GET of this bucket valid ≤ 60 s. */
  checkRedirect(headers: Record<string, unknown>): string {
    const location = String(headers.location);
    const url = new URL(location);
    expect(url.origin).toBe(this.s3!.endpoint);
    expect(url.pathname).toMatch(new RegExp(`^/${this.s3!.bucket}/[A-Za-z0-9_-]{16,64}$`));
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeGreaterThan(0);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(60);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-disposition']).toBeUndefined();
    return location;
  }

  async close(): Promise<void> {
    await this.nginx?.stop();
    if (this.s3) {
      await this.s3.server.close();
      await rm(this.s3.dir, { recursive: true, force: true });
    }
  }
}
