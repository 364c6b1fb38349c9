/**
 * `npm run soak [-- --seconds=180]`: 100 simulated members and 3 admins use the built portal on
 * the large data set for at least 60 s. Fails when any request fails or when the portal's
 * resident memory at the end is not within 15 % of minute one; writes the per-call figures to
 * bench/.tmp/RESULTS-full.md (beside the full bench run's tables; bench/RESULTS.md is the report
 * written by hand from them).
 *
 * Over 300 lines: one script run; the simulated members and admins, the call statistics and the memory
 * check share module state (the call map, the RSS samples) from start to report.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { createDataset, FULL_SIZE, QUICK_SIZE, type Account } from './lib/dataset.ts';
import { percentile } from './lib/load.ts';
import { login, REPO_ROOT, startPortal } from './lib/portal.ts';
import { machine, mib, ms, percent, writeSection } from './lib/report.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '180' },
    members: { type: 'string', default: '100' },
    admins: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const memberCount = Number(values.members);
const adminCount = Number(values.admins);
if (!(seconds >= 60) && !values.quick) {
  console.error('Ein Dauertest läuft mindestens 60 Sekunden (--seconds=60 oder mehr).');
  process.exit(2);
}

/** Pauses between clicks: members read, office staff fill in forms. */
const MEMBER_PAUSE_MS = [1000, 4000] as const;
const ADMIN_PAUSE_MS = [2000, 6000] as const;

interface CallStats {
  latencies: number[];
  failures: string[];
}
const calls = new Map<string, CallStats>();
let stopping = false;

function record(name: string, ms: number, failure?: string) {
  let stats = calls.get(name);
  if (!stats) calls.set(name, (stats = { latencies: [], failures: [] }));
  stats.latencies.push(ms);
  if (failure) stats.failures.push(failure);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pause = (min: number, max: number) => sleep(min + Math.random() * (max - min));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Keep-alive connections for the simulated people, as browsers keep them. */
const agent = new Agent({ keepAlive: true, maxSockets: 1000 });

interface Answer {
  status: number;
  body: Buffer;
  gzipped: boolean;
}

/**
 * A plain `node:http` request: the body is read in full but not decompressed or copied, so the
 * simulated people cost the machine little next to the portal they measure.
 */
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          gzipped: res.headers['content-encoding'] === 'gzip',
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Multipart uploads go through fetch, which builds the body; everything else through `send`. */
async function sendAny(
  url: string,
  init: RequestInit & { headers?: Record<string, string> },
): Promise<Answer> {
  if (init.body instanceof FormData) {
    const res = await fetch(url, init);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()), gzipped: false };
  }
  return send(url, { method: init.method, headers: init.headers, body: init.body as string | undefined });
}

/** One HTTP call, timed; `name` groups calls of one route. Failures are kept, never thrown. */
async function call(
  baseUrl: string,
  name: string,
  path: string,
  init: RequestInit & { headers?: Record<string, string>; expect?: number } = {},
): Promise<{ json(): object } | undefined> {
  const started = performance.now();
  try {
    // The body is read in full: a download counts when its last byte arrived.
    const res = await sendAny(baseUrl + path, init);
    const expected = init.expect ?? 200;
    record(name, performance.now() - started, res.status === expected ? undefined : `${res.status} ${path}`);
    return res.status === expected
      ? { json: () => JSON.parse((res.gzipped ? gunzipSync(res.body) : res.body).toString('utf8')) }
      : undefined;
  } catch (error) {
    record(name, performance.now() - started, `${String(error)} ${path}`);
    return undefined;
  }
}

interface TreeNode {
  id: number;
  children: TreeNode[];
}
interface Item {
  type: 'folder' | 'file';
  id: number;
  external?: string;
}
const flatten = (node: TreeNode): TreeNode[] => [node, ...node.children.flatMap(flatten)];

/**
 * A member, as the web app works: signs in, loads the folder tree (without documents, as the
 * explorer's sidebar does), opens folders, views or downloads documents from the listing, opens
 * events and the account page.
 */
async function member(baseUrl: string, account: Account, seeded: { maxFolderId: number; maxFileId: number }) {
  const started = performance.now();
  let token: string;
  try {
    token = await login(baseUrl, account.email, account.password);
    record('POST /auth/login', performance.now() - started);
  } catch (error) {
    record('POST /auth/login', performance.now() - started, String(error));
    return;
  }
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  let folders: number[] = [];
  // Documents of the folder last opened; what admins add during the run may be gone again.
  let documents: string[] = [];
  let events: number[] = [];
  while (!stopping) {
    const step = Math.random();
    if (folders.length === 0 || step < 0.1) {
      const res = await call(baseUrl, 'GET /tree?files=false', '/api/v1/tree?files=false', { headers });
      if (res && folders.length === 0) {
        folders = flatten((res.json() as { data: TreeNode }).data)
          .map((folder) => folder.id)
          .filter((id) => id <= seeded.maxFolderId);
      }
    } else if (step < 0.45) {
      const res = await call(baseUrl, 'GET /folders/:id/files', `/api/v1/folders/${pick(folders)}/files`, {
        headers,
      });
      if (res) {
        documents = (res.json() as { data: Item[] }).data
          .filter((item) => item.type === 'file' && item.id <= seeded.maxFileId)
          .map((item) => item.external!);
      }
    } else if (step < 0.55) {
      await call(baseUrl, 'GET /folders/:id', `/api/v1/folders/${pick(folders)}`, { headers });
    } else if (step < 0.75) {
      if (documents.length > 0) {
        const view = Math.random() < 0.5 ? '?purpose=view' : '';
        await call(baseUrl, 'GET /download/:key', `/api/v1/download/${pick(documents)}${view}`, {
          headers: { authorization: headers.authorization },
        });
      }
    } else if (step < 0.88) {
      const res = await call(baseUrl, 'GET /events', '/api/v1/events', { headers });
      if (res) events = (res.json() as { data: { id: number }[] }).data.map((event) => event.id);
    } else if (step < 0.95 && events.length > 0) {
      await call(baseUrl, 'GET /events/:id', `/api/v1/events/${pick(events)}`, { headers });
    } else {
      await call(baseUrl, 'GET /account', '/api/v1/account', { headers });
    }
    // A person reads before the next click.
    await pause(MEMBER_PAUSE_MS[0], MEMBER_PAUSE_MS[1]);
  }
}

/** An admin: uploads documents, renames them, creates and renames folders, cleans up after. */
async function admin(baseUrl: string, account: Account, index: number, folderIds: number[]) {
  const token = await login(baseUrl, account.email, account.password);
  const auth = { authorization: `Bearer ${token}` };
  let round = 0;
  while (!stopping) {
    round += 1;
    const tag = `${index}-${round}`;
    const form = new FormData();
    form.set('title', `Soak-Dokument ${tag}`);
    form.append('permissions', 'Vertreter');
    form.append('permissions', 'Aufsichtsrat');
    form.set('folder_id', String(pick(folderIds)));
    form.set(
      'file',
      new Blob([`%PDF-1.4\n% Soak ${tag}\n${'x'.repeat(20_000)}\n%%EOF\n`], { type: 'application/pdf' }),
      `soak-${tag}.pdf`,
    );
    const uploaded = await call(baseUrl, 'POST /files', '/api/v1/files', {
      method: 'POST',
      headers: auth,
      body: form,
      expect: 201,
    });
    await pause(...ADMIN_PAUSE_MS);
    if (uploaded) {
      const { file } = uploaded.json() as { file: { id: number } };
      await call(baseUrl, 'PUT /files/:id', `/api/v1/files/${file.id}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Soak-Dokument ${tag} (geändert)`, permissions: ['Vertreter'] }),
      });
      await pause(...ADMIN_PAUSE_MS);
      if (round % 2 === 0) {
        await call(baseUrl, 'DELETE /files/:id', `/api/v1/files/${file.id}`, {
          method: 'DELETE',
          headers: auth,
          expect: 204,
        });
      }
    }
    const folder = await call(baseUrl, 'POST /folders', '/api/v1/folders', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ folder_id: pick(folderIds), title: `Soak-Ordner ${tag}` }),
      expect: 201,
    });
    await pause(...ADMIN_PAUSE_MS);
    if (folder) {
      const { folder: created } = folder.json() as { folder: { id: number } };
      await call(baseUrl, 'PUT /folders/:id', `/api/v1/folders/${created.id}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Soak-Ordner ${tag} (umbenannt)` }),
      });
      await pause(...ADMIN_PAUSE_MS);
      await call(baseUrl, 'DELETE /folders/:id', `/api/v1/folders/${created.id}`, {
        method: 'DELETE',
        headers: auth,
        expect: 204,
      });
    }
    await call(baseUrl, 'GET /audit', '/api/v1/audit?page=1', { headers: auth });
    await pause(...ADMIN_PAUSE_MS);
  }
}

const workDir = await mkdtemp(join(tmpdir(), 'gremienportal-soak-'));
const dataDir = join(workDir, 'data');
await mkdir(dataDir);
console.log('Datenbestand wird erzeugt …');
const dataset = await createDataset(
  dataDir,
  { ...(values.quick ? QUICK_SIZE : FULL_SIZE), largeFileBytes: 8 * 1024 ** 2 },
  values.quick ?? false,
);
const portal = await startPortal(dataDir);
const rss: { at: number; bytes: number }[] = [];
const started = performance.now();
const sampler = setInterval(
  () => rss.push({ at: (performance.now() - started) / 1000, bytes: portal.rss() }),
  1000,
);
let exitCode = 0;
try {
  console.log(`Dauertest: ${memberCount} Mitglieder, ${adminCount} Admins, ${seconds} s …`);
  const members = dataset.members.slice(0, memberCount);
  const adminAccounts = [...dataset.admins, dataset.superAdmin].slice(0, adminCount);
  const folderIds = [dataset.smallFolderId, dataset.mediumFolderId];
  const people = [
    ...members.map((account) => member(portal.url, account, dataset)),
    ...adminAccounts.map((account, index) => admin(portal.url, account, index, folderIds)),
  ];
  await sleep(seconds * 1000);
  stopping = true;
  await Promise.all(people);
} finally {
  clearInterval(sampler);
  await portal.stop();
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const minuteOne = median(rss.filter((s) => s.at >= 30 && s.at < 60).map((s) => s.bytes));
const end = median(rss.filter((s) => s.at >= seconds - 30).map((s) => s.bytes));
const drift = (end - minuteOne) / minuteOne;
const rows = [...calls.entries()].sort(([a], [b]) => a.localeCompare(b));
const total = rows.reduce((sum, [, stats]) => sum + stats.latencies.length, 0);
const failures = rows.flatMap(([, stats]) => stats.failures);
const memoryFlat = Math.abs(drift) <= 0.15;
const report = [
  `## Dauertest (${values.quick ? 'schnell, kleiner Datenbestand' : 'großer Datenbestand'})`,
  '',
  `- Datum: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; Maschine: ${machine()}`,
  `- ${memberCount} Mitglieder und ${adminCount} Admins, ${seconds} s; ${dataset.counts.folders} Ordner, ${dataset.counts.files} Dateien, ${dataset.counts.users} Nutzer, ${dataset.counts.events} Events`,
  '- Mitglieder: Anmeldung, dann Ordnerbaum (`?files=false`, wie die Web-App), Ordnerinhalte, Ordner, Downloads und Ansichten, Events, Konto, je 1–4 s Pause. Admins: Upload, Umbenennen und Rollen ändern, Löschen, Ordner anlegen, umbenennen und löschen, Protokoll, je 2–6 s Pause.',
  `- Anfragen: ${total} (${(total / seconds).toFixed(0)}/s), fehlgeschlagen: ${failures.length}`,
  `- Resident Set des Portals: Minute eins (Median 30–60 s) ${mib(minuteOne)}, Ende (Median der letzten 30 s) ${mib(end)}, Abweichung ${percent(drift)} (Ziel: höchstens 15 %) – ${memoryFlat ? 'erfüllt' : '**verfehlt**'}`,
  `- Resident Set im Verlauf: ${rss
    .filter((sample, index) => index % 30 === 29)
    .map((sample) => `${sample.at.toFixed(0)} s: ${mib(sample.bytes)}`)
    .join(', ')}`,
  '',
  '| Aufruf | Anzahl | p50 | p99 | fehlgeschlagen |',
  '|---|---|---|---|---|',
  ...rows.map(([name, stats]) => {
    const sorted = [...stats.latencies].sort((a, b) => a - b);
    return `| ${name} | ${sorted.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 99))} | ${stats.failures.length} |`;
  }),
  ...(failures.length > 0 ? ['', 'Erste Fehler:', '', ...failures.slice(0, 10).map((f) => `- ${f}`)] : []),
].join('\n');
console.log(report);
const target = values.quick
  ? join(REPO_ROOT, 'bench/.tmp/RESULTS-quick.md')
  : join(REPO_ROOT, 'bench/.tmp/RESULTS-full.md');
await mkdir(join(REPO_ROOT, 'bench/.tmp'), { recursive: true });
await writeSection(target, 'soak', report);
await rm(workDir, { recursive: true, force: true });
if (failures.length > 0 || !memoryFlat) exitCode = 1;
process.exit(exitCode);
