// The set-ups of docs/deployment.md, tested end to end with the guide's own environment files,
// systemd unit, nginx site and backup commands:
// - one machine: one instance on SQLite and disk behind nginx with TLS, backup and restore;
// - scale-out: two instances on one PostgreSQL database, documents in an S3-compatible store
//   (s3rver), counters in Redis, mail by SMTP, nginx balancing between them. The API journeys of
//   users, files and events run through nginx; midway one instance is killed and they go on
//   through the other.
//
// Over 300 lines: the guide check and both set-ups share one cleanup list and the guide's files, and the
// scale-out steps build on each other before and after the instance kill, so they stay in one file.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDatabase,
  ensureRedis,
  guideBlock,
  makeCertificate,
  parseEnvFile,
  portalClient,
  REPO_ROOT,
  siteFromGuide,
  startInstance,
  startNginx,
  startS3rver,
  startSmtpSink,
  waitFor,
  type Answer,
  type Child,
  type DeliveredMail,
} from './harness.ts';

const run = randomBytes(4).toString('hex');
const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
/** The guide's rule for nginx: MAX_UPLOAD_MB × 1.4 and a little. */
const bodyLimitFor = (maxUploadMb: number) => Math.ceil(maxUploadMb * 1.4) + 1;

type Instance = Child & { port: number; dir: string };
type Client = ReturnType<typeof portalClient>;

/** Everything started is stopped again, in reverse order, whatever happened. */
const cleanups: (() => Promise<unknown>)[] = [];
const running: Child[] = [];
let certificate: { cert: string; key: string };
let ca: Buffer;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-tls-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  certificate = await makeCertificate(dir);
  ca = await readFile(certificate.cert);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((error: unknown) => console.error('Aufräumen fehlgeschlagen:', error));
  }
}, 60_000);

beforeEach(({ onTestFailed }) => {
  // What the instances and nginx said, for the failure report.
  onTestFailed(() => {
    for (const child of running)
      console.error(`--- ${child.name} ---\n${child.output() || '(keine Ausgabe)'}`);
  });
});

function track<T extends Child & { dir: string }>(child: T, signal: NodeJS.Signals = 'SIGTERM'): T {
  running.push(child);
  cleanups.push(() => child.stop(signal));
  cleanups.push(() => rm(child.dir, { recursive: true, force: true }));
  return child;
}

function fileForm(
  fields: Record<string, string | string[]>,
  file?: { name: string; data: Buffer; type: string },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return form;
}

async function login(client: Client, email: string, password: string): Promise<string> {
  const answer = await client.call('POST', '/api/v1/auth/login', { json: { email, password } });
  expect(answer.status, answer.body.toString()).toBe(200);
  return answer.json().access_token as string;
}

describe('the guide', () => {
  it('has environment files the portal accepts, with no unknown variable', async () => {
    const { configSchema, loadConfig } = (await import(
      pathToFileURL(join(REPO_ROOT, 'server', 'dist', 'config.js')).href
    )) as { configSchema: { shape: Record<string, unknown> }; loadConfig: (env: object) => unknown };
    const known = new Set([
      ...Object.keys(configSchema.shape),
      'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
    ]);
    for (const name of ['env-single', 'env-cluster']) {
      const env = parseEnvFile(await guideBlock(name));
      expect(
        Object.keys(env).filter((key) => !known.has(key)),
        name,
      ).toEqual([]);
      expect(() => loadConfig(env), name).not.toThrow();
    }
    const cluster = loadConfig(parseEnvFile(await guideBlock('env-cluster')));
    expect(cluster).toMatchObject({ STORAGE: 's3', S3_FORCE_PATH_STYLE: true, TRUST_PROXY: '10.0.0.10' });
  });

  it('has a systemd unit that systemd accepts', async () => {
    const unit = await guideBlock('systemd-unit');
    for (const line of [
      'EnvironmentFile=/etc/gremienportal/portal.env',
      'ExecStart=/usr/bin/node server/dist/server.js',
      'KillSignal=SIGTERM',
      'ReadWritePaths=/var/lib/gremienportal',
      'WantedBy=multi-user.target',
    ]) {
      expect(unit.split('\n')).toContain(line);
    }
    const analyze = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' });
    if (analyze.status === 0) {
      const dir = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-unit-'));
      try {
        const file = join(dir, 'gremienportal.service');
        // The path of node differs between machines; everything else is checked as written.
        await writeFile(file, unit.replace('/usr/bin/node', process.execPath));
        const verified = spawnSync(analyze.stdout.trim(), ['verify', file], { encoding: 'utf8' });
        const complaints = `${verified.stdout}${verified.stderr}`
          .split('\n')
          .filter((line) => line.includes('gremienportal.service'));
        expect(complaints).toEqual([]);
        expect(verified.status).toBe(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });
});

describe('one machine: SQLite and disk behind nginx with TLS', () => {
  const MAX_UPLOAD_MB = 5;
  let env: Record<string, string>;
  let instance: Instance;
  let client: Client;
  let httpPort: number;
  let dataDir: string;
  let adminEmail: string;
  let adminToken: string;
  const kept = Buffer.from(`%PDF-1.4\nSatzung der Genossenschaft ${run}\n%%EOF\n`);
  let keptFile: { id: number; external: string };

  beforeAll(async () => {
    const guide = parseEnvFile(await guideBlock('env-single'));
    const home = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-single-'));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    // nginx's workers pass through here to DATA_DIR/files, as they pass /var/lib on a real machine.
    await chmod(home, 0o710);
    dataDir = join(home, 'data');
    env = {
      ...guide,
      DATA_DIR: dataDir,
      // No SMTP server here: mails become files in DATA_DIR/mail.
      SMTP_URL: '',
      MAX_UPLOAD_MB: String(MAX_UPLOAD_MB),
      LOG_LEVEL: 'warn',
      // A test installation: the cluster test signs in as the initial admin without a second factor.
      TWO_FACTOR_REQUIRED_ROLES: '',
      // nginx sends the documents (decision 135), with the guide's offload location.
      DOWNLOAD_OFFLOAD: 'nginx',
    };
    adminEmail = guide.INITIAL_ADMIN_EMAIL!;
    instance = track(await startInstance('einzeln', env));
    const site = await siteFromGuide({
      upstreamPorts: [instance.port],
      certificate,
      clientMaxBodyMb: bodyLimitFor(MAX_UPLOAD_MB),
      offloadFilesDir: join(dataDir, 'files'),
    });
    httpPort = site.httpPort;
    track(await startNginx(site), 'SIGQUIT');
    client = portalClient(`https://127.0.0.1:${site.tlsPort}`, ca);
    cleanups.push(async () => client.close());
  }, 120_000);

  it('prints the first Super-Admin password once, which signs in over TLS', async () => {
    const printed = /Passwort: (\S+) {2}\(nur jetzt angezeigt/.exec(instance.output());
    expect(printed, instance.output()).not.toBeNull();
    adminToken = await login(client, adminEmail, printed![1]!);
    const health = await client.call('GET', '/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('sends plain HTTP to HTTPS', async () => {
    const response = await fetch(`http://127.0.0.1:${httpPort}/files/show/1`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('https://127.0.0.1/files/show/1');
  });

  it('stores and serves documents; refuses oversized uploads with a German message', async () => {
    const created = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        { title: `Satzung ${run}`, folder_id: '4', permissions: ['Vertreter', 'Aufsichtsrat'] },
        { name: 'satzung.pdf', data: kept, type: 'application/pdf' },
      ),
    });
    expect(created.status, created.body.toString()).toBe(201);
    keptFile = created.json().file;
    const download = await client.call('GET', `/api/v1/download/${keptFile.external}`, { token: adminToken });
    expect(download.status).toBe(200);
    expect(download.body.equals(kept)).toBe(true);

    // Over MAX_UPLOAD_MB but within nginx's limit: the portal answers.
    const tooLarge = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        { title: `Zu groß ${run}`, folder_id: '4', permissions: ['Vertreter'] },
        { name: 'gross.bin', data: Buffer.alloc(MAX_UPLOAD_MB * MiB + 1), type: 'application/octet-stream' },
      ),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json().message).toBe(
      `Die Datei ist zu groß. Erlaubt sind höchstens ${MAX_UPLOAD_MB} MB.`,
    );
    // Over nginx's limit: nginx answers at once, in German too.
    const refused = await client.announceUpload(
      '/api/v1/files',
      (bodyLimitFor(MAX_UPLOAD_MB) + 1) * MiB,
      adminToken,
    );
    expect(refused.status).toBe(413);
    expect(refused.json()).toEqual({ message: 'Die Datei ist zu groß.' });
  });

  it("hands downloads to nginx, which sends the bytes with the portal's headers and ranges", async () => {
    // The instance itself answers with X-Accel-Redirect and no bytes…
    const direct = await fetch(`http://127.0.0.1:${instance.port}/api/v1/download/${keptFile.external}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('x-accel-redirect')).toMatch(/^\/_offload\/[A-Za-z0-9_-]{16,64}$/);
    expect((await direct.arrayBuffer()).byteLength).toBe(0);
    const etag = direct.headers.get('etag')!;

    // …and through nginx the client gets the file with every header of the direct answer.
    const whole = await client.call('GET', `/api/v1/download/${keptFile.external}`, { token: adminToken });
    expect(whole.status).toBe(200);
    expect(whole.body.equals(kept)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="Satzung ${run}.pdf"; filename*=UTF-8''Satzung%20${run}.pdf`,
      'content-length': String(kept.length),
      'x-content-type-options': 'nosniff',
      'content-security-policy':
        "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
      'cache-control': 'private, no-store',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'accept-ranges': 'bytes',
      'strict-transport-security': 'max-age=31536000',
      etag,
    });
    expect(whole.headers['last-modified']).toBeUndefined();
    expect(whole.headers['x-accel-redirect']).toBeUndefined();

    const part = await client.call('GET', `/api/v1/download/${keptFile.external}`, {
      token: adminToken,
      headers: { range: 'bytes=5-14', 'if-range': etag },
    });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 5-14/${kept.length}`);
    expect(part.body.equals(kept.subarray(5, 15))).toBe(true);
    const stale = await client.call('GET', `/api/v1/download/${keptFile.external}`, {
      token: adminToken,
      headers: { range: 'bytes=5-14', 'if-range': '"veraltet"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(kept)).toBe(true);

    // The location is nginx's alone: asked for directly, it does not exist; without a token the
    // portal answers as always.
    const key = direct.headers.get('x-accel-redirect')!;
    expect((await client.call('GET', key)).status).toBe(404);
    expect((await client.call('GET', `/api/v1/download/${keptFile.external}`)).status).toBe(401);
  });

  it('backs up while serving, restores into an empty data folder and starts from it', async () => {
    const backupRoot = await mkdtemp(join(tmpdir(), 'gremienportal-cluster-backup-'));
    cleanups.push(() => rm(backupRoot, { recursive: true, force: true }));
    const backup = spawnSync('bash', ['-c', await guideBlock('backup')], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, BACKUP_DIR: backupRoot, PORTAL_HOME: REPO_ROOT },
    });
    expect(backup.status, backup.stderr).toBe(0);
    const backupDir = backup.stdout.trim().split('\n').at(-1)!;

    // A document added after the backup is not in it.
    const later = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        { title: `Nachtrag ${run}`, folder_id: '4', permissions: ['Vertreter'] },
        { name: 'nachtrag.txt', data: Buffer.from('nach der Sicherung'), type: 'text/plain' },
      ),
    });
    expect(later.status).toBe(201);

    await instance.stop('SIGTERM');
    expect(await instance.exited).toBe(0);
    const restoredDir = join(await mkdtemp(join(tmpdir(), 'gremienportal-cluster-restored-')), 'data');
    cleanups.push(() => rm(join(restoredDir, '..'), { recursive: true, force: true }));
    const restore = spawnSync('bash', ['-c', await guideBlock('restore')], {
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: restoredDir, BACKUP: backupDir, PORTAL_HOME: REPO_ROOT },
    });
    expect(restore.status, restore.stderr).toBe(0);

    // nginx's offload location names the first data folder: the restored instance, in another
    // folder, sends the documents itself.
    instance = track(
      await startInstance(
        'wiederhergestellt',
        { ...env, DATA_DIR: restoredDir, DOWNLOAD_OFFLOAD: 'none' },
        { port: instance.port },
      ),
    );
    // The restored database already has its Super-Admin: nothing new is created or printed.
    expect(instance.output()).not.toContain('Erster Start');
    const token = await waitFor('Anmeldung nach der Wiederherstellung', async () => {
      const answer = await client.call('POST', '/api/v1/auth/login', {
        json: { email: adminEmail, password: /Passwort: (\S+)/.exec(running[0]!.output())![1] },
      });
      return answer.status === 200 ? (answer.json().access_token as string) : undefined;
    });
    const download = await client.call('GET', `/api/v1/download/${keptFile.external}`, { token });
    expect(download.status).toBe(200);
    expect(download.body.equals(kept)).toBe(true);
    const missing = await client.call('GET', `/api/v1/download/${later.json().file.external}`, { token });
    expect(missing.status).toBe(404);
  });
});

describe('scale-out: two instances behind nginx', () => {
  const MAX_UPLOAD_MB = 40;
  let guideEnv: Record<string, string>;
  let bucket: string;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let s3: S3Client;
  let db: pg.Pool;
  let instanceA: Instance;
  let instanceB: Instance;
  let client: Client;
  let adminEmail: string;
  const adminPassword = 'Cluster-Start-Passwort-1';
  const memberPassword = 'Vertreter-Passwort-2026';

  const upstreamOf = (instance: Instance) => `127.0.0.1:${instance.port}`;
  let storeEndpoint: string;

  /**
   * A download as a browser makes it: with DOWNLOAD_OFFLOAD=s3 the portal (through nginx) answers
   * 303 to a presigned address, uncacheable and valid at most 60 s, and the store sends the bytes
   * with the portal's media type and name (decision 135). Refusals come from the portal itself.
   */
  async function download(
    path: string,
    options: { token: string; headers?: Record<string, string> },
  ): Promise<Answer & { fromStore: boolean }> {
    const answer = await client.call('GET', path, options);
    if (answer.status !== 303) return { ...answer, fromStore: false };
    expect(answer.headers['cache-control']).toBe('no-store');
    const location = new URL(String(answer.headers.location));
    expect(location.origin).toBe(storeEndpoint);
    expect(location.pathname.startsWith(`/${bucket}/`)).toBe(true);
    expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(60);
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // No bearer header to another origin (browsers drop it on such a redirect), the rest as asked.
    const stored = await fetch(location, { headers: options.headers ?? {} });
    const body = Buffer.from(await stored.arrayBuffer());
    const headers: Record<string, string> = {};
    stored.headers.forEach((value, name) => (headers[name] = value));
    return {
      status: stored.status,
      headers,
      body,
      upstream: answer.upstream,
      json: () => JSON.parse(body.toString('utf8')),
      fromStore: true,
    };
  }

  async function bucketKeys(): Promise<string[]> {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  }

  async function unsentMails(): Promise<number> {
    const { rows } = await db.query<{ n: string }>('select count(*) as n from outbox where sent_at is null');
    return Number(rows[0]!.n);
  }

  async function mailTo(address: string, subjectPart: string): Promise<DeliveredMail> {
    return waitFor(`E-Mail „${subjectPart}“ an ${address}`, async () =>
      smtp.delivered.find((mail) => mail.to === address && mail.subject.includes(subjectPart)),
    );
  }

  /** Invites a member through the API, follows the link from the mail and signs in. */
  async function inviteAndSignIn(adminToken: string, firstname: string, roles: string[]) {
    const email = `${firstname.toLowerCase()}-${run}@example.org`;
    const created = await client.call('POST', '/api/v1/user', {
      token: adminToken,
      json: { title: 'Frau', firstname, lastname: 'Muster', email, roles },
    });
    expect(created.status, created.body.toString()).toBe(201);
    expect(created.json().user).toMatchObject({ email, roles, status: 'eingeladen' });
    const invitation = await mailTo(email, 'Einladung');
    const link = new URL(/https?:\/\/\S+willkommen\?\S+/.exec(invitation.text)![0]);
    expect(link.origin).toBe(guideEnv.PUBLIC_URL);
    const accepted = await client.call('POST', '/api/v1/auth/password-reset', {
      json: {
        id: Number(link.searchParams.get('id')),
        token: link.searchParams.get('token'),
        password: memberPassword,
        password_confirmation: memberPassword,
      },
    });
    expect(accepted.status, accepted.body.toString()).toBe(200);
    return { id: created.json().user.id as number, email, token: await login(client, email, memberPassword) };
  }

  beforeAll(async () => {
    guideEnv = parseEnvFile(await guideBlock('env-cluster'));
    bucket = guideEnv.S3_BUCKET!;
    adminEmail = guideEnv.INITIAL_ADMIN_EMAIL!;

    const database = await createDatabase(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    );
    cleanups.push(() => database.drop());
    db = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanups.push(() => db.end());
    const redis = await ensureRedis();
    cleanups.push(() => redis.stop());
    const store = await startS3rver(bucket);
    cleanups.push(() => store.stop());
    storeEndpoint = store.endpoint;
    s3 = new S3Client({
      region: guideEnv.S3_REGION,
      endpoint: store.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    cleanups.push(async () => s3.destroy());
    smtp = await startSmtpSink();
    cleanups.push(() => smtp.stop());

    // The guide's environment; only the addresses and secrets of this test differ.
    const env = (name: string) => ({
      ...guideEnv,
      DATABASE_URL: database.url,
      S3_ENDPOINT: store.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      REDIS_URL: redis.url,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      // Tells which instance sent a mail.
      MAIL_FROM: `Gremienportal <instanz-${name}@example.org>`,
      INITIAL_ADMIN_PASSWORD: adminPassword,
      MAX_UPLOAD_MB: String(MAX_UPLOAD_MB),
      LOG_LEVEL: 'warn',
      // A test installation: the admin signs in without a second factor (decision 126).
      TWO_FACTOR_REQUIRED_ROLES: '',
      // The store sends the documents (decision 135).
      DOWNLOAD_OFFLOAD: 's3',
    });
    // One after the other, as a rolling start does; several instances starting at once on an
    // empty database is covered by server/test/cluster/concurrent-start.test.ts.
    instanceA = track(await startInstance('a', env('a')));
    instanceB = track(await startInstance('b', env('b')));
    const site = await siteFromGuide({
      upstreamPorts: [instanceA.port, instanceB.port],
      certificate,
      clientMaxBodyMb: bodyLimitFor(MAX_UPLOAD_MB),
    });
    track(await startNginx(site), 'SIGQUIT');
    client = portalClient(`https://127.0.0.1:${site.tlsPort}`, ca);
    cleanups.push(async () => client.close());
  }, 120_000);

  let adminToken: string;
  const members: Record<string, { id: number; email: string; token: string }> = {};
  const files: Record<string, { id: number; external: string; data: Buffer }> = {};
  let killedAt: string;

  it('balances requests over both instances', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const health = await client.call('GET', '/api/v1/health');
      expect(health.status).toBe(200);
      seen.add(health.upstream);
    }
    expect([...seen].sort()).toEqual([upstreamOf(instanceA), upstreamOf(instanceB)].sort());
    // One database: one Super-Admin, created by whichever instance seeded it.
    const { rows } = await db.query('select email from users');
    expect(rows).toEqual([{ email: adminEmail }]);
    adminToken = await login(client, adminEmail, adminPassword);
  });

  it('users: the admin invites members, who set their password and sign in', async () => {
    members.vera = await inviteAndSignIn(adminToken, 'Vera', ['Vertreter']);
    members.viktor = await inviteAndSignIn(adminToken, 'Viktor', ['Vertreter']);
    members.anna = await inviteAndSignIn(adminToken, 'Anna', ['Aufsichtsrat']);
    const list = await client.call('GET', '/api/v1/user', { token: adminToken });
    expect(list.status).toBe(200);
    const listed = (list.json().data as { email: string; status: string }[])
      .filter((user) => user.email.endsWith(`-${run}@example.org`))
      .map((user) => [user.email, user.status]);
    expect(listed.sort()).toEqual(
      [members.anna, members.vera, members.viktor].map((m) => [m!.email, 'aktiv']).sort(),
    );
  });

  it('committees: a membership given or ended through one instance shows on the other at once', async () => {
    // Straight to one instance, not through nginx: which one answers matters here.
    const direct = async (
      instance: Instance,
      method: string,
      path: string,
      token: string,
      json?: unknown,
    ) => {
      const res = await fetch(`http://127.0.0.1:${instance.port}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(json ? { 'content-type': 'application/json' } : {}),
        },
        ...(json ? { body: JSON.stringify(json) } : {}),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> | null };
    };
    const day = (offsetDays: number) =>
      new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const name = `Ausschuss ${run}`;
    const committee = await direct(instanceA, 'POST', '/committees', adminToken, { name, kind: 'ausschuss' });
    expect(committee.status, JSON.stringify(committee.body)).toBe(201);
    const { id: committeeId, folder } = committee.body!.data as { id: number; folder: { id: number } };
    const term = await direct(instanceA, 'POST', `/committees/${committeeId}/terms`, adminToken, {
      start: day(-400),
      end: day(400),
    });
    expect(term.status, JSON.stringify(term.body)).toBe(201);
    // The committee's folder (its role only) stands for its papers; no document, so the bucket's
    // counts of the file tests stay as they are.
    const member = members.viktor!;
    // Within the principal cache's second at most (with Redis at once): poll for 1.5 s.
    const answerOnB = async (status: number) =>
      waitFor(
        `Instanz b antwortet ${status}`,
        async () =>
          (await direct(instanceB, 'GET', `/folders/${folder.id}/files`, member.token)).status === status,
        1_500,
      );
    expect((await direct(instanceB, 'GET', `/folders/${folder.id}/files`, member.token)).status).toBe(404);

    const given = await direct(instanceA, 'POST', `/committees/${committeeId}/members`, adminToken, {
      term_id: term.body!.data.id,
      user_id: member.id,
      function: 'mitglied',
      from: day(-400),
    });
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    await answerOnB(200);

    const ended = await direct(instanceA, 'PUT', `/memberships/${given.body!.data.id}`, adminToken, {
      function: 'mitglied',
      from: day(-400),
      until: day(-1),
      reason: 'ruecktritt',
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    await answerOnB(404);
    expect((await direct(instanceB, 'GET', `/committees/${committeeId}`, member.token)).status).toBe(404);
  });

  it('files: a folder, uploads (one in parts) and downloads through either instance', async () => {
    const folder = await client.call('POST', '/api/v1/folders', {
      token: adminToken,
      json: { title: `Sitzungen ${run}`, folder_id: 4 },
    });
    expect(folder.status, folder.body.toString()).toBe(201);
    const folderId = folder.json().folder.id as number;

    const small = Buffer.from(`%PDF-1.4\nEinladung zur Vertreterversammlung ${run}\n%%EOF\n`);
    const created = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        {
          title: `Einladung ${run}`,
          folder_id: String(folderId),
          permissions: ['Vertreter', 'Aufsichtsrat'],
          notifications: ['Vertreter'],
        },
        { name: 'einladung.pdf', data: small, type: 'application/pdf' },
      ),
    });
    expect(created.status, created.body.toString()).toBe(201);
    const smallFile = { ...created.json().file, data: small } as {
      id: number;
      external: string;
      data: Buffer;
    };
    files.small = smallFile;

    // Larger than one part (8 MiB): stored with a multipart upload.
    const large = randomBytes(12 * MiB + 321);
    const bigUpload = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        {
          title: `Jahresabschluss ${run}`,
          folder_id: '2',
          permissions: ['Aufsichtsrat'],
          notifications: ['Aufsichtsrat'],
        },
        { name: 'jahresabschluss.bin', data: large, type: 'application/octet-stream' },
      ),
    });
    expect(bigUpload.status, bigUpload.body.toString()).toBe(201);
    const largeFile = { ...bigUpload.json().file, data: large } as {
      id: number;
      external: string;
      data: Buffer;
    };
    files.large = largeFile;
    expect(bigUpload.json().file.size_bytes).toBe(large.length);
    expect(await bucketKeys()).toHaveLength(2);

    // Every instance reads every document: the storage is shared.
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i += 1) {
      const answer = await download(`/api/v1/download/${smallFile.external}`, {
        token: members.vera!.token,
      });
      expect(answer.fromStore).toBe(true);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(small)).toBe(true);
      expect(answer.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="Einladung ${run}.pdf"; filename*=UTF-8''Einladung%20${run}.pdf`,
        'cache-control': 'private, no-store',
      });
      servedBy.add(answer.upstream);
    }
    expect(servedBy.size).toBe(2);
    // HEAD moves no bytes: the portal answers it itself, with its headers.
    const head = await client.call('HEAD', `/api/v1/download/${smallFile.external}`, {
      token: members.vera!.token,
    });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(small.length));
    expect(head.headers['x-content-type-options']).toBe('nosniff');

    const whole = await download(`/api/v1/download/${largeFile.external}`, {
      token: members.anna!.token,
    });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-disposition']).toMatch(/^attachment; filename="Jahresabschluss /);
    expect(sha256(whole.body)).toBe(sha256(large));
    // Not `bytes=0-0`: s3rver answers that one with the whole object (AWS S3 does not), and with
    // DOWNLOAD_OFFLOAD=s3 the store's answer reaches the client unchanged; the portal's own guard
    // against it (direct downloads) is tested in server/test/storage.
    const firstBytes = await download(`/api/v1/download/${largeFile.external}`, {
      token: members.anna!.token,
      headers: { range: 'bytes=0-9' },
    });
    expect(firstBytes.status).toBe(206);
    expect(firstBytes.body.equals(large.subarray(0, 10))).toBe(true);
    const middle = await download(`/api/v1/download/${largeFile.external}`, {
      token: members.anna!.token,
      headers: { range: `bytes=${8 * MiB - 5}-${8 * MiB + 4}` },
    });
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes ${8 * MiB - 5}-${8 * MiB + 4}/${large.length}`);
    expect(middle.body.equals(large.subarray(8 * MiB - 5, 8 * MiB + 5))).toBe(true);

    // Aufsichtsrat papers stay invisible to a Vertreter, whichever instance answers.
    for (let i = 0; i < 2; i += 1) {
      const hidden = await client.call('GET', `/api/v1/download/${largeFile.external}`, {
        token: members.vera!.token,
      });
      expect(hidden.status).toBe(404);
      expect(hidden.headers.location).toBeUndefined();
    }

    const tooLarge = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        { title: `Zu groß ${run}`, folder_id: String(folderId), permissions: ['Vertreter'] },
        {
          name: 'zu-gross.bin',
          data: Buffer.alloc(MAX_UPLOAD_MB * MiB + 1),
          type: 'application/octet-stream',
        },
      ),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json().message).toMatch(/zu groß/);
    expect(await bucketKeys()).toHaveLength(2);
  });

  it('search: each document is read once by one of the instances and found through either', async () => {
    const word = `Zitronenfalter${run.replace(/[^a-z0-9]/gi, '')}`;
    const uploads = [];
    for (let i = 0; i < 6; i += 1) {
      const created = await client.call('POST', '/api/v1/files', {
        token: adminToken,
        form: fileForm(
          { title: `Protokoll ${i} ${run}`, folder_id: '4', permissions: ['Vertreter'] },
          {
            name: `protokoll-${i}.txt`,
            data: Buffer.from(`Sitzung ${i}: ${word} im März`),
            type: 'text/plain',
          },
        ),
      });
      expect(created.status, created.body.toString()).toBe(201);
      uploads.push(created.json().file.id as number);
    }
    const { rows: before } = await db.query<{ n: string }>(
      "select count(*) as n from search_texts where kind = 'file' and item_id = any($1)",
      [uploads],
    );
    expect(Number(before[0]!.n)).toBe(6);
    // Both instances read the queue; every request below may reach either.
    await waitFor(
      'Texte gelesen und gefunden',
      async () => {
        const res = await client.call('GET', `/api/v1/search?q=${encodeURIComponent(word.toLowerCase())}`, {
          token: adminToken,
        });
        return res.status === 200 && res.json().meta.total === 6;
      },
      60_000,
    );
    const { rows } = await db.query<{ state: string; attempts: number }>(
      "select state, attempts from search_texts where kind = 'file' and item_id = any($1)",
      [uploads],
    );
    expect(rows.map((row) => [row.state, Number(row.attempts)])).toEqual(rows.map(() => ['done', 1]));
    // Gone for good again, so the bucket holds what the later cases count.
    for (const id of uploads) {
      const removed = await client.call('DELETE', `/api/v1/files/${id}`, { token: adminToken });
      expect(removed.status).toBe(204);
      const purged = await client.call('DELETE', `/api/v1/trash/file/${id}`, { token: adminToken });
      expect(purged.status, purged.body.toString()).toBe(204);
    }
  });

  it('the login throttle counts failed sign-ins across both instances', async () => {
    const email = `ratlos-${run}@example.org`;
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      answers.push(
        await client.call('POST', '/api/v1/auth/login', {
          json: { email, password: 'falsch-geraten' },
          // A made-up client address changes nothing: nginx passes the one it saw.
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        }),
      );
    }
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
    // Round robin: the attempts were spread over both instances, yet counted together.
    expect(new Set(answers.map((a) => a.upstream)).size).toBe(2);
    expect(Number(answers[5]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers[5]!.json().message).toMatch(/Minute/);

    // A member's account: five failures, then even the right password waits.
    for (let i = 0; i < 5; i += 1) {
      const failed = await client.call('POST', '/api/v1/auth/login', {
        json: { email: members.viktor!.email, password: 'falsch-geraten' },
      });
      expect(failed.status).toBe(401);
    }
    const locked = await client.call('POST', '/api/v1/auth/login', {
      json: { email: members.viktor!.email, password: memberPassword },
    });
    expect(locked.status).toBe(429);
  });

  it('keeps serving through nginx when one instance is killed', async () => {
    // Mails leased by the instance at the moment it dies wait for their lease to run out
    // (2 minutes); let the queue drain first so the test stays short.
    await waitFor('alle bisherigen E-Mails versandt', async () => (await unsentMails()) === 0, 30_000);
    killedAt = new Date().toISOString();
    instanceA.process.kill('SIGKILL');
    await instanceA.exited;

    for (let i = 0; i < 6; i += 1) {
      const health = await client.call('GET', '/api/v1/health');
      expect(health.status).toBe(200);
      expect(health.upstream).toBe(upstreamOf(instanceB));
    }
    // Sessions live in the database: the admin stays signed in.
    const list = await client.call('GET', '/api/v1/files', { token: adminToken });
    expect(list.status).toBe(200);
  });

  it('files after the kill: upload, replace, download and delete', async () => {
    const content = Buffer.from(`Protokoll ${run} nach dem Ausfall\n`);
    const created = await client.call('POST', '/api/v1/files', {
      token: adminToken,
      form: fileForm(
        {
          title: `Protokoll ${run}`,
          folder_id: '3',
          permissions: ['Vertreter'],
          notifications: ['Vertreter'],
        },
        { name: 'protokoll.txt', data: content, type: 'text/plain' },
      ),
    });
    expect(created.status, created.body.toString()).toBe(201);
    const file = created.json().file as { id: number; external: string };

    const replacement = Buffer.from(`Protokoll ${run}, berichtigte Fassung\n`);
    const replaced = await client.call('PUT', `/api/v1/files/${file.id}`, {
      token: adminToken,
      form: fileForm({}, { name: 'protokoll.txt', data: replacement, type: 'text/plain' }),
    });
    expect(replaced.status, replaced.body.toString()).toBe(200);
    const replacedDownload = await download(`/api/v1/download/${replaced.json().file.external}`, {
      token: members.vera!.token,
    });
    expect(replacedDownload.status).toBe(200);
    expect(replacedDownload.body.equals(replacement)).toBe(true);

    const removed = await client.call('DELETE', `/api/v1/files/${files.small!.id}`, { token: adminToken });
    expect(removed.status).toBe(204);
    const gone = await client.call('GET', `/api/v1/download/${files.small!.external}`, {
      token: members.vera!.token,
    });
    expect(gone.status).toBe(404);
    // The replaced content stays as version 1 and the deleted file waits in the Papierkorb
    // (decision 125): nothing leaves the bucket until a Super-Admin removes it for good.
    expect(await bucketKeys()).toHaveLength(4);
    const purged = await client.call('DELETE', `/api/v1/trash/file/${files.small!.id}`, {
      token: adminToken,
    });
    expect(purged.status, purged.body.toString()).toBe(204);
    // Left: the large file and the protocol's two versions; the purged content is gone.
    await waitFor('Speicher aufgeräumt', async () => (await bucketKeys()).length === 3, 10_000);
  });

  it('events: created with an information file, notifications mailed to the roles', async () => {
    const info = Buffer.from(`%PDF-1.4\nTagesordnung ${run}\n%%EOF\n`);
    const created = await client.call('POST', '/api/v1/events', {
      token: adminToken,
      form: fileForm(
        {
          title: `Vertreterversammlung ${run}`,
          start: '2026-11-21 18:00',
          end: '2026-11-21 21:00',
          location: 'Saal der Genossenschaft',
          description: 'Ordentliche Vertreterversammlung mit Wahlen.',
          roles: ['Vertreter', 'Aufsichtsrat'],
          notifications: ['Vertreter', 'Aufsichtsrat'],
        },
        { name: 'tagesordnung.pdf', data: info, type: 'application/pdf' },
      ),
    });
    expect(created.status, created.body.toString()).toBe(201);
    const event = created.json().event as { id: number; external: string };
    expect(event.external).toBeTruthy();

    const seen = await client.call('GET', '/api/v1/events', { token: members.anna!.token });
    expect(seen.status).toBe(200);
    expect((seen.json().data as { id: number }[]).map((e) => e.id)).toContain(event.id);
    const infoDownload = await download(`/api/v1/info/${event.external}`, {
      token: members.viktor!.token,
    });
    expect(infoDownload.fromStore).toBe(true);
    expect(infoDownload.status).toBe(200);
    expect(infoDownload.body.equals(info)).toBe(true);
    expect(infoDownload.headers['content-type']).toBe('application/pdf');

    for (const member of [members.vera!, members.viktor!, members.anna!]) {
      await mailTo(member.email, `Vertreterversammlung ${run}`);
    }
  });

  it('users after the kill: a new member is invited and signs in', async () => {
    members.paul = await inviteAndSignIn(adminToken, 'Paul', ['Vertreter']);
    const list = await client.call('GET', '/api/v1/files', { token: members.paul.token });
    expect(list.status).toBe(200);
  });

  it('sent every queued e-mail exactly once', async () => {
    await waitFor('alle E-Mails versandt', async () => (await unsentMails()) === 0, 30_000);
    const { rows } = await db.query<{
      to_address: string;
      subject: string;
      text_body: string;
      created_at: string;
    }>('select to_address, subject, text_body, created_at from outbox order by id');
    const fingerprint = (to: string, subject: string, text: string) => `${to}\n${subject}\n${text.trimEnd()}`;
    const queued = rows.map((row) => fingerprint(row.to_address, row.subject, row.text_body));
    // Every queued mail is distinct in this test, so a second delivery would show as a repeat.
    expect(new Set(queued).size).toBe(queued.length);
    const delivered = smtp.delivered.map((mail) => fingerprint(mail.to, mail.subject, mail.text));
    expect(delivered.length).toBe(queued.length);
    expect([...delivered].sort()).toEqual([...queued].sort());

    // What was queued after the kill went out through the surviving instance.
    const afterKill = new Set(
      rows
        .filter((row) => row.created_at > killedAt)
        .map((row) => fingerprint(row.to_address, row.subject, row.text_body)),
    );
    expect(afterKill.size).toBeGreaterThan(0);
    for (const mail of smtp.delivered) {
      if (afterKill.has(fingerprint(mail.to, mail.subject, mail.text))) {
        expect(mail.envelopeFrom).toBe('instanz-b@example.org');
      }
    }
  });
});
