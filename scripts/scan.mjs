// `npm run scan`: starts a demo portal on loopback with a fresh data folder, signs in as a
// Super-Admin and as a Vertreter, runs sqlmap and wapiti (Debian packages) against it and writes
// short summaries to docs/security-scan/. Not part of CI; takes about 10 to 15 minutes.
//
// Every request goes to 127.0.0.1. Where the machine allows it (Linux, `unshare` and `ip`), the
// whole run happens in a network namespace of its own that has nothing but loopback, so not even
// a scanner's own update check can leave the machine. SCAN_ISOLATION=0 turns that off.
//
// Settings (environment): SCAN_SQLMAP_LEVEL (3), SCAN_SQLMAP_RISK (2), SCAN_SQLMAP_TARGET_SECONDS
// (120, per target), SCAN_SQLMAP_BUDGET_SECONDS (600, all targets), SCAN_WAPITI_CRAWL_SECONDS (60),
// SCAN_WAPITI_ATTACK_SECONDS (30, per module); SCAN_BUILD=0 uses the build as it is, =1 always
// builds (default: build when a source is newer than the build); SCAN_KEEP_WORK=1 keeps the logs.
// Exit code 1 when a scanner reports an injection or the portal answered any request with a 5xx.
//
// Over 300 lines: one `npm run scan` run from build to summaries; sqlmap and wapiti use the same demo
// portal, tokens and scanned objects, and both summaries pass through one scrubber of those secrets.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'docs', 'security-scan');
const HOST = '127.0.0.1';

const envInt = (name, fallback) => {
  const value = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const settings = {
  sqlmapLevel: Math.min(envInt('SCAN_SQLMAP_LEVEL', 3), 5),
  sqlmapRisk: Math.min(envInt('SCAN_SQLMAP_RISK', 2), 3),
  sqlmapTargetSeconds: envInt('SCAN_SQLMAP_TARGET_SECONDS', 120),
  sqlmapBudgetSeconds: envInt('SCAN_SQLMAP_BUDGET_SECONDS', 600),
  wapitiCrawlSeconds: envInt('SCAN_WAPITI_CRAWL_SECONDS', 60),
  wapitiAttackSeconds: envInt('SCAN_WAPITI_ATTACK_SECONDS', 30),
};

/** Wapiti modules that fit a JSON API behind a single-page app, and none that reach the internet. */
const WAPITI_MODULES = [
  'sql',
  'blindsql',
  'exec',
  'file',
  'xss',
  'permanentxss',
  'crlf',
  'htaccess',
  'methods',
  'http_headers',
  'csp',
  'cookieflags',
  'csrf',
];
/** Wapiti 3.0 categories that mean an exploitable flaw (stored XSS included); the others are advice. */
const SERIOUS_WAPITI = [
  'SQL Injection',
  'Blind SQL Injection',
  'Command execution',
  'Path Traversal',
  'Cross Site Scripting',
  'CRLF Injection',
  'Htaccess Bypass',
];

/** Known wapiti results and why they are what they are (see docs/security.md, "Scan results"). */
const WAPITI_ASSESSMENT = [
  [
    /Strict-Transport-Security/i,
    'Expected: the portal speaks plain HTTP on loopback; HSTS is set by the TLS proxy (decision 006).',
  ],
  [
    /X-XSS-Protection/i,
    'False positive: the portal sends `X-XSS-Protection: 0` on purpose (the filter is deprecated and ' +
      'can be abused); the strict CSP protects instead.',
  ],
  [
    /unsafe-inline/i,
    'Known: `style-src` allows inline styles because the UI library sets style attributes; ' +
      '`script-src` is `self` only (decision 006).',
  ],
];

const log = (message) => process.stdout.write(`${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function which(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

// ---------------------------------------------------------------------------------------------
// Build and isolation (before anything starts)

/** The newest modification time of the files below `path`, in ms (tests and dependencies left out). */
function newestFile(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') newest = Math.max(newest, newestFile(join(path, entry)));
  }
  return newest;
}

/** Builds when a part's build is missing or older than its sources (SCAN_BUILD=0 never, =1 always). */
function buildIfNeeded() {
  if (process.env.SCAN_BUILD === '0') return;
  const parts = [
    { output: 'contracts/dist', sources: ['contracts/src'] },
    { output: 'server/dist', sources: ['server/src'] },
    { output: 'web/dist', sources: ['web/src', 'web/public', 'web/index.html'] },
  ];
  const stale = parts.some(({ output, sources }) => {
    const built = newestFile(join(root, output));
    return built === 0 || Math.max(...sources.map((path) => newestFile(join(root, path)))) > built;
  });
  if (!stale && process.env.SCAN_BUILD !== '1') return;
  log('Baue das Portal …');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs this script again inside a network namespace with only loopback, if the machine can. */
function runIsolated() {
  if (process.env.SCAN_ISOLATED === '1' || process.env.SCAN_ISOLATION === '0') return null;
  if (process.platform !== 'linux' || !which('unshare') || !which('ip')) return null;
  const flags = process.getuid?.() === 0 ? ['--net'] : ['--net', '--map-root-user'];
  const probe = spawnSync('unshare', [...flags, 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  if (probe.status !== 0) return null;
  log('Netzwerk-Namensraum nur mit Loopback: kein Paket verlässt diesen Rechner.');
  const script = fileURLToPath(import.meta.url);
  const result = spawnSync(
    'unshare',
    [...flags, 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, script],
    { stdio: 'inherit', env: { ...process.env, SCAN_ISOLATED: '1' } },
  );
  return result.status ?? 1;
}

// ---------------------------------------------------------------------------------------------
// The demo portal

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startPortal(work) {
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const admin = {
    email: 'scan-admin@example.org',
    password: `Scan-${randomBytes(12).toString('base64url')}`,
  };
  const logFile = join(work, 'portal.log');
  const logStream = createWriteStream(logFile);
  // A minimal environment: no DATABASE_URL, SMTP_URL, REDIS_URL or S3 settings of the caller leak in,
  // and the working directory is the data folder, so no `.env` file is read either.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    HOST,
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    DEMO: '1',
    INITIAL_ADMIN_EMAIL: admin.email,
    INITIAL_ADMIN_PASSWORD: admin.password,
    // Throttling would answer 429 after five tries and hide the login code from the scanners.
    LOGIN_MAX_ATTEMPTS: '1000000',
    LOGIN_MAX_FAILURES_PER_CLIENT: '1000000',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000000',
    // Request logs: the status of every answer is counted below.
    LOG_LEVEL: 'info',
    // The scanners sign in with a password only; the second factor is tested on its own.
    TWO_FACTOR_REQUIRED_ROLES: '',
  };
  const child = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
    cwd: dataDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk) => {
    if (printed.length < 10_000) printed += chunk.toString();
    logStream.write(chunk);
  });
  child.stderr.on('data', (chunk) => logStream.write(chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stopped;

  let member;
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error('Das Portal ist beim Start beendet worden.');
      try {
        const response = await fetch(`${base}/api/v1/health`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('Das Portal antwortet nicht auf /api/v1/health.');
      await sleep(250);
    }
    member = /^\s+Vertreter\s+(\S+@\S+)\s+(\S+)\s*$/m.exec(printed);
    if (!member) throw new Error('Kein Demo-Konto mit der Rolle Vertreter in der Ausgabe des Portals.');
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    logStream.end();
    throw error;
  }

  return {
    base,
    port,
    admin,
    member: { email: member[1], password: member[2] },
    logFile,
    async stop() {
      if (stopped) return stopped;
      stopped = (async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        }
        await new Promise((resolve) => logStream.end(resolve));
      })();
      return stopped;
    },
  };
}

/**
 * Counts the portal's answers by status from its request log and lists the 5xx ones; `phases`
 * ({ name: start time in ms }, in order) says how many requests arrived during each phase.
 */
async function readPortalLog(logFile, phases) {
  const statuses = {};
  const perPhase = {};
  const starts = Object.entries(phases).sort(([, a], [, b]) => a - b);
  const serverErrors = [];
  const requests = new Map();
  const lines = createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.req && entry.reqId) {
      requests.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
      const phase = starts.findLast(([, start]) => entry.time >= start)?.[0];
      if (phase) perPhase[phase] = (perPhase[phase] ?? 0) + 1;
    }
    if (entry.res && typeof entry.res.statusCode === 'number') {
      const status = entry.res.statusCode;
      statuses[status] = (statuses[status] ?? 0) + 1;
      const request = requests.get(entry.reqId);
      requests.delete(entry.reqId);
      if (status >= 500 && serverErrors.length < 50) serverErrors.push({ status, request: request ?? '?' });
    }
    if (entry.level >= 50 && entry.err && serverErrors.length < 50) {
      serverErrors.push({ status: 'log', request: `${entry.msg}: ${entry.err.type}: ${entry.err.message}` });
    }
  }
  // Fastify's router answers overlong path parameters and broken percent-encoding itself (404 and
  // 400 from `frameworkErrorHandler`), without a "request completed" line.
  return { statuses, serverErrors, perPhase, unlogged: requests.size };
}

// ---------------------------------------------------------------------------------------------
// API helpers (sign-in and the objects the scanners work on)

async function call(base, token, method, path, body) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function signIn(base, account) {
  const answer = await call(base, null, 'POST', '/auth/login', account);
  return { token: answer.access_token, id: answer.user.id };
}

const PDF_DATA_URL = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;

/** Demo content plus one folder, file, event and user of the scan's own, for updates. */
async function prepareObjects(base, adminToken) {
  const api = (method, path, body) => call(base, adminToken, method, path, body);
  const folders = (await api('GET', '/folders')).data;
  const general = folders.find((folder) => folder.breadcrumb === '/Allgemein');
  const files = (await api('GET', '/files')).data;
  const boardFile = files.find((file) => file.roles.length === 1 && file.roles[0] === 'Aufsichtsrat');
  if (!general || !boardFile)
    throw new Error('Demo-Inhalte fehlen (Ordner /Allgemein, Datei des Aufsichtsrats).');
  const folder = (await api('POST', '/folders', { title: 'Scan-Ordner', folder_id: general.id })).folder;
  // New folders, files and periods go here, so that renaming the folder above stays cheap.
  const parent = (await api('POST', '/folders', { title: 'Scan-Ablage', folder_id: general.id })).folder;
  const file = (
    await api('POST', '/files', {
      title: 'Scan-Datei',
      permissions: ['Vertreter'],
      folder_id: folder.id,
      file: PDF_DATA_URL,
    })
  ).file;
  const event = (
    await api('POST', '/events', {
      title: 'Scan-Event',
      roles: ['Vertreter'],
      start: '2026-12-01T10:00',
      end: '2026-12-01T12:00',
      location: 'Scan-Raum',
      description: 'Ein Event für den Sicherheitsscan.',
      data: PDF_DATA_URL,
    })
  ).event;
  const user = (
    await api('POST', '/user', {
      title: 'Herr',
      firstname: 'Sam',
      lastname: 'Scanner',
      email: 'scan.user@example.org',
      roles: ['Vertreter'],
    })
  ).user;
  return { folder, parent, file, event, user, boardFile };
}

// ---------------------------------------------------------------------------------------------
// sqlmap

/**
 * The endpoints and parameters sqlmap tries. `*` marks an injection point; `names` says what
 * each marker is, in order. A target marks either its path or its body, never both (sqlmap's
 * report would not say which is which); path ids of PUT routes go through the same schema as
 * those of the GET routes tested here. Without markers sqlmap tests every query parameter and,
 * from level 3 on, the User-Agent and Referer headers. Reads come first, then changes, and last
 * the creations, which grow the data every later request has to go through.
 */
function sqlmapTargets(o) {
  const target = (as, method, path, names, options = {}) => ({ as, method, path, names, ...options });
  return [
    target('public', 'POST', '/auth/login', ['email', 'password'], {
      body: { email: `${o.memberEmail}*`, password: 'falsches-Passwort*' },
      ignore: [401],
    }),
    target('public', 'POST', '/auth/forgot-password', ['email'], { body: { email: `${o.memberEmail}*` } }),
    target('public', 'POST', '/auth/password-reset', ['id', 'token'], {
      body: {
        id: `${o.memberId}*`,
        token: 'ungueltiges-Token*',
        password: 'Scan-Passwort-2026',
        password_confirmation: 'Scan-Passwort-2026',
      },
    }),
    target('member', 'GET', `/files/${o.fileId}*`, ['id']),
    target('member', 'GET', `/files/${o.boardFileId}*`, ['id (file hidden from the role)'], {
      ignore: [404],
    }),
    target('member', 'GET', `/download/${o.fileKey}*?purpose=view*`, ['key', 'purpose']),
    target('member', 'GET', `/download/${o.boardFileKey}*`, ['key (file hidden from the role)'], {
      ignore: [404],
    }),
    target('member', 'GET', `/folders/${o.folderId}*`, ['id']),
    target('member', 'GET', `/events/${o.eventId}*`, ['id']),
    target('member', 'GET', `/events/${o.eventId}*/ics`, ['id']),
    target('member', 'GET', `/info/${o.eventKey}*`, ['key']),
    target('member', 'GET', `/user/${o.memberId}*`, ['id']),
    target(
      'admin',
      'GET',
      '/audit?q=example.org&action=auth.login&object_type=user&from=2020-01-01&to=2099-12-31&page=1&per_page=10',
      [],
    ),
    target('admin', 'GET', `/audit.csv?q=example.org*&actor_id=${o.adminId}*`, ['q', 'actor_id']),
    target('admin', 'GET', `/audit/object/file/${o.fileId}*?page=1*`, ['id', 'page']),
    target('admin', 'GET', `/audit/visible-to/folder*/${o.folderId}*`, ['type', 'id']),
    target('admin', 'GET', `/user/${o.userId}*`, ['id']),
    target('admin', 'GET', `/folders/${o.folderId}*/files`, ['id']),
    target('admin', 'GET', `/breadcrumbs/${o.folderId}*`, ['id']),
    target('admin', 'GET', '/files?limit=10*', ['limit']),
    target('admin', 'PUT', '/account', ['firstname', 'lastname'], {
      body: { firstname: 'Scan*', lastname: 'Admin*' },
    }),
    target('admin', 'PUT', `/user/${o.userId}`, ['firstname', 'lastname', 'email'], {
      body: { title: 'Herr', firstname: 'Sam*', lastname: 'Scanner*', email: 'scan.user@example.org*' },
    }),
    target('admin', 'PUT', `/folders/${o.folderId}`, ['title'], { body: { title: 'Scan-Ordner*' } }),
    target('admin', 'PUT', `/files/${o.fileId}`, ['title', 'folder_id'], {
      body: { title: 'Scan-Datei*', permissions: ['Vertreter'], folder_id: `${o.folderId}*` },
    }),
    target('admin', 'PUT', `/events/${o.eventId}`, ['title', 'location'], {
      body: {
        title: 'Scan-Event*',
        start: '2026-12-01T10:00',
        end: '2026-12-01T12:00',
        location: 'Scan-Raum*',
        description: 'Ein Event für den Sicherheitsscan.',
      },
    }),
    target('admin', 'POST', '/user', ['firstname', 'lastname', 'email', 'roles[0]'], {
      body: {
        title: 'Herr',
        firstname: 'Sam*',
        lastname: 'Scanner*',
        email: 'sam.scanner@example.org*',
        roles: ['Vertreter*'],
      },
    }),
    target('admin', 'POST', '/files', ['title', 'permissions[0]', 'folder_id'], {
      body: {
        title: 'Scan-Datei*',
        permissions: ['Vertreter*'],
        folder_id: `${o.parentId}*`,
        file: PDF_DATA_URL,
      },
    }),
    target('admin', 'POST', '/events', ['title', 'start', 'location', 'description'], {
      body: {
        title: 'Scan-Event*',
        roles: ['Vertreter'],
        start: '2026-12-01T10:00*',
        end: '2026-12-01T12:00',
        location: 'Scan-Raum*',
        description: 'Ein Event für den Sicherheitsscan.*',
      },
    }),
    target('admin', 'POST', '/folders', ['title', 'folder_id'], {
      body: { title: 'Scan-Unterordner*', folder_id: `${o.parentId}*` },
    }),
    target('admin', 'POST', '/period', ['folder_id', 'start', 'end'], {
      body: { folder_id: `${o.parentId}*`, start: '2026*', end: '2027*' },
    }),
  ];
}

/** The scanner running now, so that Ctrl-C stops its process group too. */
let runningScanner = null;

function stopRunningScanner() {
  if (!runningScanner) return;
  try {
    process.kill(-runningScanner.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs a command in its own process group; after `seconds` the whole group is stopped. */
function runBounded(command, args, { seconds, logFile, env }) {
  return new Promise((resolve) => {
    const output = createWriteStream(logFile);
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    runningScanner = child;
    child.stdout.pipe(output, { end: false });
    child.stderr.pipe(output, { end: false });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 5_000).unref();
      } catch {
        // already gone
      }
    }, seconds * 1000);
    child.once('close', (code) => {
      clearTimeout(timer);
      runningScanner = null;
      output.end(() => resolve({ code, timedOut }));
    });
  });
}

function parseSqlmap(text, names) {
  const params = new Map();
  const nameOf = (raw) => {
    const marker = /^(?:JSON )?#(\d+)\*$/.exec(raw);
    return marker ? (names[Number(marker[1]) - 1] ?? raw) : raw;
  };
  for (const match of text.matchAll(/parameter '([^']+)' does not seem to be injectable/g)) {
    params.set(nameOf(match[1]), 'not injectable');
  }
  for (const match of text.matchAll(/parameter '([^']+)' is vulnerable/g)) {
    params.set(nameOf(match[1]), 'INJECTABLE');
  }
  const injectionPoint = /sqlmap identified the following injection point/.test(text);
  const codes = {};
  for (const match of text.matchAll(/(\d{3}) \(([^)]+)\) - (\d+) times/g)) {
    codes[match[1]] = Math.max(codes[match[1]] ?? 0, Number(match[3]));
  }
  const problems = [...new Set([...text.matchAll(/\[CRITICAL\] ([^\n]+)/g)].map((match) => match[1].trim()))];
  return { params, injectionPoint, codes, problems };
}

async function runSqlmap(portal, tokens, objects, work) {
  const o = {
    memberEmail: portal.member.email,
    memberId: tokens.member.id,
    adminId: tokens.admin.id,
    userId: objects.user.id,
    folderId: objects.folder.id,
    parentId: objects.parent.id,
    fileId: objects.file.id,
    fileKey: objects.file.external,
    eventId: objects.event.id,
    eventKey: objects.event.external,
    boardFileId: objects.boardFile.id,
    boardFileKey: objects.boardFile.external,
  };
  const targets = sqlmapTargets(o);
  const results = [];
  const started = Date.now();
  for (const [index, t] of targets.entries()) {
    const label = `${t.method} /api/v1${t.path}`;
    const elapsed = (Date.now() - started) / 1000;
    if (elapsed > settings.sqlmapBudgetSeconds) {
      results.push({ ...t, label, skipped: true });
      continue;
    }
    log(`sqlmap ${index + 1}/${targets.length}: ${label} (${t.as})`);
    const headers = [];
    const token = t.as === 'admin' ? tokens.admin.token : t.as === 'member' ? tokens.member.token : null;
    if (token) headers.push(`Authorization: Bearer ${token}`);
    if (t.body) headers.push('Content-Type: application/json');
    const args = [
      '-u',
      `${portal.base}/api/v1${t.path}`,
      ...(t.method !== 'GET' && t.method !== 'POST' ? ['--method', t.method] : []),
      ...(t.body ? ['--data', JSON.stringify(t.body)] : []),
      ...(headers.length > 0 ? ['--headers', headers.join('\\n')] : []),
      ...(t.ignore ? ['--ignore-code', t.ignore.join(',')] : []),
      '--batch',
      `--level=${settings.sqlmapLevel}`,
      `--risk=${settings.sqlmapRisk}`,
      '--threads=4',
      '--time-sec=2',
      '--timeout=20',
      '--retries=1',
      '--flush-session',
      '--disable-coloring',
      `--output-dir=${join(work, 'sqlmap')}`,
    ];
    const logFile = join(work, `sqlmap-${String(index + 1).padStart(2, '0')}.log`);
    const remaining = settings.sqlmapBudgetSeconds - elapsed;
    const run = await runBounded('sqlmap', args, {
      seconds: Math.max(10, Math.min(settings.sqlmapTargetSeconds, remaining + 30)),
      logFile,
      env: { ...process.env, TERM: 'dumb' },
    });
    const parsed = parseSqlmap(readFileSync(logFile, 'utf8'), t.names);
    results.push({ ...t, label, ...parsed, timedOut: run.timedOut, exitCode: run.code });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// wapiti

function wapitiStartUrls(base, o) {
  const api = `${base}/api/v1`;
  return [
    `${base}/`,
    `${base}/login`,
    `${base}/files`,
    `${base}/reset-password?id=${o.memberId}&token=abc`,
    `${base}/api/docs`,
    `${base}/api/docs/json`,
    `${api}/health`,
    `${api}/roles`,
    `${api}/settings`,
    `${api}/account`,
    `${api}/tree`,
    `${api}/folders`,
    `${api}/root/files`,
    `${api}/folders/${o.folderId}`,
    `${api}/folders/${o.folderId}/files`,
    `${api}/breadcrumbs/${o.folderId}`,
    `${api}/file-breadcrumbs`,
    `${api}/files?limit=10`,
    `${api}/files/${o.fileId}`,
    `${api}/download/${o.fileKey}?purpose=view`,
    `${api}/events`,
    `${api}/events/${o.eventId}`,
    `${api}/events/${o.eventId}/ics`,
    `${api}/info/${o.eventKey}`,
    `${api}/user`,
    `${api}/user/${o.userId}`,
    `${api}/audit?q=example.org&action=auth.login&object_type=user&from=2020-01-01&to=2099-12-31&page=1&per_page=10`,
    `${api}/audit.csv?q=example.org&action=auth.login`,
    `${api}/audit/object/file/${o.fileId}?page=1&per_page=10`,
    `${api}/audit/visible-to/file/${o.fileId}`,
    `${api}/audit/my-logins`,
  ];
}

async function runWapiti(portal, tokens, objects, work) {
  const home = join(work, 'wapiti-home');
  const config = join(home, 'config');
  mkdirSync(config, { recursive: true });
  // Wapiti loads every module at start; without a local Wappalyzer database one of them would
  // fetch it from the internet. An empty one keeps it quiet (that module is not used).
  writeFileSync(join(config, 'apps.json'), '{}');
  const report = join(work, 'wapiti.json');
  const o = {
    memberId: tokens.member.id,
    folderId: objects.folder.id,
    fileId: objects.file.id,
    fileKey: objects.file.external,
    eventId: objects.event.id,
    eventKey: objects.event.external,
    userId: objects.user.id,
  };
  const args = [
    '-u',
    `${portal.base}/`,
    '--scope',
    'folder',
    '-H',
    `Authorization: Bearer ${tokens.admin.token}`,
    '-m',
    WAPITI_MODULES.join(','),
    ...wapitiStartUrls(portal.base, o).flatMap((url) => ['-s', url]),
    '--max-scan-time',
    String(settings.wapitiCrawlSeconds),
    '--max-attack-time',
    String(settings.wapitiAttackSeconds),
    '--timeout',
    '20',
    '--flush-session',
    '--store-session',
    join(work, 'wapiti-session'),
    '--store-config',
    config,
    // Endpoints for the out-of-band modules (not used): the portal itself, never a public host.
    '--endpoint',
    `${portal.base}/`,
    '--no-bugreport',
    '-f',
    'json',
    '-o',
    report,
    '-v',
    '1',
  ];
  const limit = settings.wapitiCrawlSeconds + WAPITI_MODULES.length * settings.wapitiAttackSeconds;
  log(`wapiti: ${WAPITI_MODULES.join(', ')} (höchstens ${limit} s)`);
  const logFile = join(work, 'wapiti.log');
  const run = await runBounded('wapiti', args, {
    seconds: limit + 120,
    logFile,
    env: { ...process.env, HOME: home, TERM: 'dumb' },
  });
  const text = readFileSync(logFile, 'utf8');
  const urls = /Wapiti found (\d+) URLs and forms/.exec(text)?.[1];
  if (!existsSync(report)) return { failed: true, exitCode: run.code, timedOut: run.timedOut, urls };
  return {
    report: JSON.parse(readFileSync(report, 'utf8')),
    exitCode: run.code,
    timedOut: run.timedOut,
    urls,
  };
}

// ---------------------------------------------------------------------------------------------
// Summaries

/** Hides tokens and passwords, and puts names for the port and the random keys of this run. */
function scrubber(portal, secrets, objects) {
  const names = [
    [objects.file.external, 'FILE-KEY'],
    [objects.boardFile.external, 'HIDDEN-FILE-KEY'],
    [objects.event.external, 'EVENT-KEY'],
  ];
  return (text) => {
    let result = text.replaceAll(`${HOST}:${portal.port}`, `${HOST}:PORT`);
    for (const secret of [...secrets, portal.admin.password, portal.member.password]) {
      if (secret) result = result.replaceAll(secret, '[verborgen]');
    }
    for (const [value, name] of names) if (value) result = result.replaceAll(value, name);
    return result;
  };
}

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
const codesText = (codes) =>
  Object.entries(codes ?? {})
    .map(([code, count]) => `${code}×${count}`)
    .join(', ') || '–';

function sqlmapSummary(results, versions, scrub) {
  const lines = [
    '# sqlmap',
    '',
    `Generated by \`npm run scan\` (\`scripts/scan.mjs\`). ${versions.sqlmap}, \`--level=${settings.sqlmapLevel} ` +
      `--risk=${settings.sqlmapRisk} --threads=4 --time-sec=2 --batch\`, all techniques (BEUSTQ). ` +
      '`*` marks the injection points; the Authorization header carries a bearer token of the role named.',
    '',
    '| # | request | as | parameters | result | HTTP answers other than 200 |',
    '| - | ------- | -- | ---------- | ------ | --------------------------- |',
  ];
  for (const [index, r] of results.entries()) {
    let result;
    if (r.skipped) result = 'not run (time budget)';
    else if (r.injectionPoint || [...r.params.values()].includes('INJECTABLE')) result = '**INJECTABLE**';
    else if (r.params.size > 0) {
      const untested = r.names.filter((name) => !r.params.has(name));
      result = r.timedOut
        ? `not injectable so far; stopped at the time limit${untested.length ? `, not reached: ${untested.join(', ')}` : ''}`
        : 'not injectable';
    } else if (r.timedOut) result = 'stopped at the time limit before a result';
    else result = `no result${r.problems?.length ? `: ${r.problems.join('; ')}` : ''}`;
    const params = r.params?.size
      ? [...r.params.keys()].join(', ')
      : r.names.length > 0
        ? r.names.join(', ')
        : 'all query parameters';
    const body = r.body ? ` \`${JSON.stringify(r.body)}\`` : '';
    lines.push(
      `| ${index + 1} | \`${cell(r.label)}\`${cell(body)} | ${r.as} | ${cell(params)} | ${cell(result)} | ${codesText(r.codes)} |`,
    );
  }
  lines.push('');
  return scrub(lines.join('\n'));
}

function wapitiFindings(report) {
  const findings = [];
  for (const kind of ['vulnerabilities', 'anomalies', 'additionals']) {
    for (const [category, list] of Object.entries(report?.[kind] ?? {})) {
      for (const item of list) findings.push({ kind, category, ...item });
    }
  }
  return findings;
}

function wapitiSummary(result, versions, scrub) {
  const lines = [
    '# wapiti',
    '',
    `Generated by \`npm run scan\` (\`scripts/scan.mjs\`). ${versions.wapiti}, signed in as Super-Admin, ` +
      `modules \`${WAPITI_MODULES.join(',')}\`, crawling at most ${settings.wapitiCrawlSeconds} s, each module ` +
      `at most ${settings.wapitiAttackSeconds} s, scope: the portal on ` +
      `\`${HOST}\`. It crawled ${result.urls ?? '?'} URLs, starting from the web app and the API's GET endpoints.`,
    '',
  ];
  if (result.failed) {
    lines.push(
      `Wapiti wrote no report (exit code ${result.exitCode}${result.timedOut ? ', time limit' : ''}).`,
      '',
    );
    return scrub(lines.join('\n'));
  }
  const findings = wapitiFindings(result.report);
  if (findings.length === 0) {
    lines.push('No findings.', '');
  } else {
    lines.push('| kind | category | request | parameter | finding | assessment |');
    lines.push('| ---- | -------- | ------- | --------- | ------- | ---------- |');
    for (const f of findings) {
      const assessment =
        WAPITI_ASSESSMENT.find(([pattern]) => pattern.test(`${f.category} ${f.info}`))?.[1] ??
        'To review (docs/security.md).';
      lines.push(
        `| ${f.kind} | ${cell(f.category)} | \`${cell(`${f.method} ${f.path}`)}\` | ${cell(f.parameter || '–')} | ` +
          `${cell(f.info)} | ${cell(assessment)} |`,
      );
    }
    lines.push('');
  }
  return scrub(lines.join('\n'));
}

function overview({ versions, isolated, portalLog, scannerServerErrors, sqlmap, wapiti, seconds, verdict }) {
  const statuses = Object.entries(portalLog.statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const total = Object.values(portalLog.statuses).reduce((sum, count) => sum + count, 0);
  const lines = [
    '# Scanner results',
    '',
    'Written by `npm run scan` (`scripts/scan.mjs`); the assessment is in [docs/security.md](../security.md)',
    '("Scanner-Ergebnisse / Scan results"). The run starts the built portal with `DEMO=1` on a fresh data',
    'folder (SQLite, files on disk) on a free port of 127.0.0.1, signs in as a Super-Admin and as a',
    'Vertreter, creates a folder, a file, an event and a user of its own, runs the scanners and stops the',
    'portal. Login throttling is raised for the run (`LOGIN_MAX_ATTEMPTS`), so that the scanners reach the',
    'sign-in code instead of the 429 answer.',
    '',
    `- Date: ${new Date().toISOString().slice(0, 10)}; duration ${Math.round(seconds / 60)} min`,
    `- Tools: ${versions.sqlmap ?? 'sqlmap missing'}; ${versions.wapiti ?? 'wapiti missing'}`,
    `- Network: ${isolated ? 'own network namespace with loopback only' : 'loopback addresses only (no namespace)'}`,
    `- Portal answers during the run: ${total} (${statuses || '–'})`,
    `- Answered by the router itself (path parameter over 100 characters, broken percent-encoding; 404/400, ` +
      `no status in the request log): ${portalLog.unlogged}`,
    `- Answers with status 5xx or logged server errors: ${portalLog.serverErrors.length}; 5xx answers seen by ` +
      `the scanners: ${scannerServerErrors}`,
    ...portalLog.serverErrors.map((error) => `  - ${error.status} ${error.request}`),
    `- sqlmap: ${sqlmap ? `${sqlmap.filter((r) => !r.skipped).length} of ${sqlmap.length} requests tested with ${portalLog.perPhase.sqlmap ?? 0} requests, see [sqlmap.md](sqlmap.md)` : 'not run'}`,
    `- wapiti: ${wapiti ? `${portalLog.perPhase.wapiti ?? 0} requests, see [wapiti.md](wapiti.md)` : 'not run'}`,
    `- Verdict: ${verdict}`,
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const tools = { sqlmap: which('sqlmap'), wapiti: which('wapiti') };
  if (!tools.sqlmap && !tools.wapiti) {
    log('Weder sqlmap noch wapiti gefunden. Installation (Debian): apt-get install -y sqlmap wapiti');
    return 1;
  }
  for (const [name, path] of Object.entries(tools)) {
    if (!path) log(`${name} fehlt (apt-get install -y ${name}); der Scan läuft ohne.`);
  }
  const versionOf = (command, args, pattern) => {
    const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    return pattern.exec(`${result.stdout}${result.stderr}`)?.[0];
  };
  const versions = {
    sqlmap: tools.sqlmap
      ? `sqlmap ${versionOf('sqlmap', ['--version'], /\d+\.\d+[\w.#]*/) ?? ''}`.trim()
      : null,
    wapiti: tools.wapiti ? (versionOf('wapiti', ['--version'], /Wapiti[- ]\d+\.\d+\.\d+/) ?? 'wapiti') : null,
  };

  const work = mkdtempSync(join(tmpdir(), 'gremienportal-scan-'));
  let portal;
  const cleanUp = async () => {
    stopRunningScanner();
    await portal?.stop();
    if (process.env.SCAN_KEEP_WORK === '1') log(`Arbeitsordner bleibt: ${work}`);
    else rmSync(work, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
  try {
    log('Starte das Demo-Portal …');
    portal = await startPortal(work);
    log(`Portal läuft auf ${portal.base}`);
    const tokens = {
      admin: await signIn(portal.base, portal.admin),
      member: await signIn(portal.base, portal.member),
    };
    const secrets = [tokens.admin.token, tokens.member.token];
    const objects = await prepareObjects(portal.base, tokens.admin.token);

    const phases = { sqlmap: Date.now() };
    const sqlmap = tools.sqlmap ? await runSqlmap(portal, tokens, objects, work) : null;
    // A fresh session for wapiti, whatever sqlmap's requests did to the first one.
    tokens.admin = await signIn(portal.base, portal.admin);
    secrets.push(tokens.admin.token);
    phases.wapiti = Date.now();
    const wapiti = tools.wapiti ? await runWapiti(portal, tokens, objects, work) : null;
    await portal.stop();
    const portalLog = await readPortalLog(portal.logFile, phases);

    const injectable = (sqlmap ?? []).filter(
      (r) => r.injectionPoint || [...(r.params?.values() ?? [])].includes('INJECTABLE'),
    );
    // sqlmap lists the status codes it met; wapiti reports 500 answers as anomalies.
    const scannerServerErrors =
      (sqlmap ?? []).reduce(
        (sum, r) =>
          sum +
          Object.entries(r.codes ?? {}).reduce((n, [code, count]) => n + (code >= '500' ? count : 0), 0),
        0,
      ) + (wapiti?.report ? wapitiFindings(wapiti.report).filter((f) => f.kind === 'anomalies').length : 0);
    const serious = wapiti?.report
      ? wapitiFindings(wapiti.report).filter(
          (f) => f.kind === 'vulnerabilities' && SERIOUS_WAPITI.includes(f.category),
        )
      : [];
    const problems = [
      ...(injectable.length ? [`sqlmap: ${injectable.length} injizierbare Anfragen`] : []),
      ...(serious.length ? [`wapiti: ${serious.length} ernste Befunde`] : []),
      ...(portalLog.serverErrors.length ? [`Portal: ${portalLog.serverErrors.length} Serverfehler`] : []),
      ...(scannerServerErrors ? [`Scanner: ${scannerServerErrors} Antworten mit 5xx oder Anomalien`] : []),
      ...(wapiti?.failed ? ['wapiti: kein Bericht'] : []),
    ];
    const verdict = problems.length
      ? `problems found (${problems.join('; ')})`
      : 'no injection, no exploitable finding, no server error';

    const scrub = scrubber(portal, secrets, objects);
    mkdirSync(outDir, { recursive: true });
    const seconds = (Date.now() - started) / 1000;
    writeFileSync(
      join(outDir, 'README.md'),
      scrub(
        overview({
          versions,
          isolated: process.env.SCAN_ISOLATED === '1',
          portalLog,
          scannerServerErrors,
          sqlmap,
          wapiti,
          seconds,
          verdict,
        }),
      ),
    );
    if (sqlmap) writeFileSync(join(outDir, 'sqlmap.md'), sqlmapSummary(sqlmap, versions, scrub));
    if (wapiti) {
      writeFileSync(join(outDir, 'wapiti.md'), wapitiSummary(wapiti, versions, scrub));
      // The raw report only while it stays small; it names no token (scrubbed all the same).
      const raw = join(outDir, 'wapiti-report.json');
      rmSync(raw, { force: true });
      if (wapiti.report) {
        const text = scrub(JSON.stringify(wapiti.report, null, 2));
        if (Buffer.byteLength(text) < 100_000) writeFileSync(raw, `${text}\n`);
      }
    }
    const prettier = join(root, 'node_modules', '.bin', 'prettier');
    if (existsSync(prettier))
      spawnSync(prettier, ['--write', '--log-level=warn', outDir], { stdio: 'inherit' });

    const size = ['README.md', 'sqlmap.md', 'wapiti.md', 'wapiti-report.json']
      .map((name) => join(outDir, name))
      .filter((path) => existsSync(path))
      .reduce((sum, path) => sum + statSync(path).size, 0);
    log(`Ergebnisse in docs/security-scan/ (${Math.round(size / 1024)} KB): ${verdict}`);
    return problems.length ? 1 : 0;
  } finally {
    await cleanUp();
  }
}

buildIfNeeded();
const isolatedStatus = runIsolated();
if (isolatedStatus !== null) process.exit(isolatedStatus);
main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`Scan fehlgeschlagen: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
