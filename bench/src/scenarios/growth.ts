// Over 300 lines: one scenario measuring every cost decision 186 lists for one size, and the table of
// two sizes side by side, which reads the same numbers; split, both would carry their shape.
import { spawn } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { BenchContext } from '../lib/context.ts';
import { percentile, pooledPercentile, wrk, type LoadResult } from '../lib/load.ts';
import { apiCall, login, REPO_ROOT, startPortal } from '../lib/portal.ts';
import { mib, ms, seconds, times, type Figure, type ScenarioResult } from '../lib/report.ts';

/** What one size measured, for the table of both sizes (`renderGrowthComparison`). */
export interface GrowthRun {
  size: string;
  counts: Record<string, number>;
  /** p50 and p95 in ms of each load, keyed by its label. */
  loads: Record<string, { p50: number; p95: number; rps: number; failed: number }>;
  /** Single timings in ms (median where several). */
  timings: Record<string, number>;
  /** Bytes: database, documents, resident set. */
  bytes: Record<string, number>;
}

/** The runs measured so far in this invocation (one per size). */
export const growthRuns: GrowthRun[] = [];
let sizeLabel = 'Standard';
let extraCounts: Record<string, number> = {};
/** run.ts names the size in use and what its generator added (audit entries, reads). */
export function setGrowthSize(label: string, counts: Record<string, number>): void {
  sizeLabel = label;
  extraCounts = counts;
}

/** The loads whose p95 may grow at most twofold from the default to the large size. */
const P95_GOAL = [
  'Baum',
  'Ordnerinhalt (1000)',
  'Suche, ein Wort',
  'Suche, zwei Wörter',
  'Suche, Wortteil',
  'Neu für Sie',
  'Baum mit Neu-Zahlen',
  'Aktivitäten, erste Seite',
  'Aktivitäten, gefiltert (eine Person)',
];
const STARTUP_GOAL_MS = 5_000;

async function loadSeries(
  ctx: BenchContext,
  options: { path: string; headers?: Record<string, string>; tokens?: string[]; connections?: number },
): Promise<{ p50: number; p95: number; rps: number; failed: number }> {
  const run = (secondsOfLoad: number) =>
    wrk({
      url: ctx.portal.url + options.path,
      connections: options.connections ?? 10,
      seconds: secondsOfLoad,
      headers: { 'accept-encoding': 'gzip, deflate, br', ...options.headers },
      ...(options.tokens ? { tokens: options.tokens } : {}),
    });
  await run(ctx.quick ? 1 : 2);
  const rounds: LoadResult[] = [];
  for (let round = 0; round < (ctx.quick ? 1 : 3); round += 1) rounds.push(await run(ctx.phase));
  return {
    p50: pooledPercentile(rounds, 50),
    p95: pooledPercentile(rounds, 95),
    rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
    failed: rounds.reduce((sum, r) => sum + r.failed, 0),
  };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function fetchAll(url: string, headers: Record<string, string>): Promise<number> {
  let res = await fetch(url, { headers });
  // The Sitzungsmappe refuses a member's second book until the first one's answer has ended on
  // the server, which may be a moment after its last byte arrived here.
  for (let retry = 0; res.status === 429 && retry < 100; retry += 1) {
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
    res = await fetch(url, { headers });
  }
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

/** Runs the portal's command line (`npm run cli -- …` after the build) and waits for it. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['server/dist/cli.js', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`cli ${args[0]} endete mit ${code}: ${out}`)),
    );
  });
}

/** Bytes of a folder, every hard link counted (a backup copies each storage key). */
const folderBytes = (path: string) =>
  Number(execFileSync('du', ['-sbl', path], { encoding: 'utf8' }).split('\t')[0]);

/**
 * Members with read state: Vertreter only, whose account is older than every document and who
 * opened a few hundred of them, so nearly everything is new to them (as in the readstate scenario).
 */
function prepareReaders(ctx: BenchContext, count: number, reads: number) {
  const db = new SQLite(join(ctx.dataset.dataDir, 'portal.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const members = new Map(ctx.dataset.members.map((account) => [account.email, account]));
    const rows = db
      .prepare(
        `select users.id, users.email from users
         join user_roles on user_roles.user_id = users.id join roles on roles.id = user_roles.role_id
         group by users.id having count(*) = 1 and max(roles.name) = 'Vertreter' order by users.id desc`,
      )
      .all() as { id: number; email: string }[];
    const chosen = rows.filter((row) => members.has(row.email)).slice(0, count);
    const fileIds = db.prepare('select id from files').pluck().all() as number[];
    const now = new Date().toISOString();
    let seed = 86;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    db.transaction(() => {
      const reset = db.prepare(
        `update users set created_at = '2015-01-01T00:00:00.000Z', news_read_at = null,
         news_version = news_version + 1 where id = ?`,
      );
      const read = db.prepare(
        'insert or ignore into file_reads (user_id, file_id, read_at, opened_at) values (?, ?, ?, ?)',
      );
      for (const row of chosen) {
        reset.run(row.id);
        for (let i = 0; i < reads; i += 1) read.run(row.id, fileIds[next() % fileIds.length], now, now);
      }
    })();
    const bookFiles = db
      .prepare('select id from files where folder_id = ? order by id limit 20')
      .pluck()
      .all(ctx.dataset.bigFolderId) as number[];
    const vertreterId = (
      db.prepare('select id from users where email = ?').get(ctx.dataset.vertreter.email) as { id: number }
    ).id;
    return { accounts: chosen.map((row) => members.get(row.email)!), bookFiles, vertreterId };
  } finally {
    db.close();
  }
}

const api = (ctx: BenchContext, token: string, method: string, path: string, body?: unknown) =>
  apiCall(ctx.portal.url, token, method, path, body);

/** The first answer after a change, median of `rounds`; `change` makes the change. */
async function firstAfterChange(
  rounds: number,
  change: (round: number) => Promise<void>,
  fetchOnce: () => Promise<unknown>,
) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    await change(round);
    times.push(await timed(fetchOnce));
  }
  return median(times);
}

/**
 * Decision 186: what the costs of one size are. The same measurements on the default
 * and the large data set give the table of both (`renderGrowthComparison`).
 */
export async function growthScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const { dataset } = ctx;
  const vertreterToken = await ctx.token(dataset.vertreter);
  const adminToken = await ctx.token(dataset.admins[0]!);
  const asVertreter = { authorization: `Bearer ${vertreterToken}` };
  const asAdmin = { authorization: `Bearer ${adminToken}` };
  const readers = prepareReaders(ctx, ctx.quick ? 4 : 10, ctx.quick ? 50 : 500);
  const readerTokens: string[] = [];
  for (const account of readers.accounts) readerTokens.push(await ctx.token(account));

  const loads: GrowthRun['loads'] = {};
  const timings: GrowthRun['timings'] = {};
  const measureLoad = async (label: string, options: Parameters<typeof loadSeries>[1]) => {
    console.log(`  ${label} …`);
    loads[label] = await loadSeries(ctx, options);
    console.log(`  … p50 ${ms(loads[label].p50)}, p95 ${ms(loads[label].p95)}`);
  };
  await measureLoad('Baum', { path: '/api/v1/tree', headers: asVertreter });
  await measureLoad('Ordnerinhalt (1000)', {
    path: `/api/v1/folders/${dataset.bigFolderId}/files`,
    headers: asVertreter,
    connections: 4,
  });
  for (const [label, query] of [
    ['Suche, ein Wort', 'Abschreibungen'],
    ['Suche, zwei Wörter', 'Jahresabschluss Rücklagen'],
    ['Suche, Wortteil', 'versammlung'],
  ] as const)
    await measureLoad(label, { path: `/api/v1/search?q=${encodeURIComponent(query)}`, headers: asVertreter });
  await measureLoad('Neu für Sie', { path: '/api/v1/news', tokens: readerTokens });
  await measureLoad('Baum mit Neu-Zahlen', { path: '/api/v1/tree', tokens: readerTokens });
  await measureLoad('Aktivitäten, erste Seite', {
    path: '/api/v1/audit?page=1',
    headers: asAdmin,
    connections: 4,
  });
  await measureLoad('Aktivitäten, gefiltert (eine Person)', {
    path: `/api/v1/audit?page=1&actor_id=${readers.vertreterId}`,
    headers: asAdmin,
    connections: 4,
  });
  // Warmed up: every load above has run.
  const rss = ctx.portal.ownRss();

  // The first answers after a change: the caches are rebuilt.
  const cold = ctx.quick ? 3 : 7;
  timings['Baum, erste Anfrage nach einer Änderung'] = await firstAfterChange(
    cold,
    async (round) => {
      await api(ctx, adminToken, 'PUT', `/folders/${dataset.smallFolderId}`, {
        title: round % 2 ? 'Aktuelle Unterlagen' : 'Aktuelle Unterlagen (neu)',
      });
    },
    () => fetchAll(`${ctx.portal.url}/api/v1/tree`, asVertreter),
  );
  const raiseSearch = async () => {
    const db = new SQLite(join(dataset.dataDir, 'portal.sqlite'));
    db.pragma('busy_timeout = 10000');
    db.prepare("update change_counters set value = value + 1 where name = 'search'").run();
    db.close();
  };
  timings['Suche (ein Wort), erste Anfrage nach einer Indexänderung'] = await firstAfterChange(
    cold,
    raiseSearch,
    () => fetchAll(`${ctx.portal.url}/api/v1/search?q=Abschreibungen`, asVertreter),
  );

  // The audit export: every entry, newest first.
  console.log('  CSV-Export …');
  let csvBytes = 0;
  timings['Aktivitäten, CSV-Export (alle Einträge)'] = await timed(async () => {
    csvBytes = await fetchAll(`${ctx.portal.url}/api/v1/audit.csv`, asAdmin);
  });

  // The Sitzungsmappe of 20 documents of the 1,000-document folder.
  const event = (
    await api(ctx, adminToken, 'POST', '/events', {
      title: 'Wachstumsmessung',
      roles: ['Vertreter'],
      start: '2027-04-10T18:00',
      end: '2027-04-10T21:00',
      location: 'Sitzungssaal',
      description: 'Sitzungsmappe im Benchmark',
    })
  ).event;
  const items = Array.from({ length: readers.bookFiles.length / 2 }, (_, index) => ({
    title: `Punkt ${index + 1}`,
    file_ids: readers.bookFiles.slice(index * 2, index * 2 + 2),
  }));
  await api(ctx, adminToken, 'PUT', `/events/${event.id}/agenda`, { items });
  const bookUrl = `${ctx.portal.url}/api/v1/events/${event.id}/book.pdf`;
  await fetchAll(bookUrl, asVertreter);
  const books: number[] = [];
  for (let round = 0; round < (ctx.quick ? 2 : 7); round += 1) {
    // The previous book's answer ends on the server first (see fetchAll).
    await new Promise((resolve) => setTimeout(resolve, 300));
    books.push(await timed(() => fetchAll(bookUrl, asVertreter)));
  }
  timings['Sitzungsmappe (20 Dokumente), Median'] = median(books);

  // Sign-ins one after the other (argon2 dominates; the lookups around it grow with the data).
  const logins: number[] = [];
  for (let round = 0; round < (ctx.quick ? 2 : 5); round += 1)
    logins.push(
      await timed(() => login(ctx.portal.url, dataset.vertreter.email, dataset.vertreter.password)),
    );
  timings['Anmeldung, Median'] = median(logins);

  // Start-up: a second portal on the same data until its first healthy answer (poll: 100 ms).
  const starts: number[] = [];
  for (let round = 0; round < (ctx.quick ? 1 : 3); round += 1) {
    const started = performance.now();
    const second = await startPortal(dataset.dataDir, { AUDIT_RETENTION_DAYS: '4000' });
    // startProcess waits 200 ms after the first answer to see that the process still runs.
    starts.push(performance.now() - started - 200);
    await second.stop();
  }
  timings['Start bis zur ersten gesunden Antwort'] = median(starts);

  // Sizes, then backup and restore with the portal's own commands.
  const database = join(dataset.dataDir, 'portal.sqlite');
  const walBytes = await stat(`${database}-wal`).then(
    (s) => s.size,
    () => 0,
  );
  const bytes: GrowthRun['bytes'] = {
    Datenbank: (await stat(database)).size + walBytes,
    Dokumente: folderBytes(join(dataset.dataDir, 'files')),
    'Resident Set nach dem Aufwärmen': rss,
    'CSV-Export': csvBytes,
  };
  const backupDir = join(ctx.workDir, 'growth-backup');
  const restoreDir = join(ctx.workDir, 'growth-restore');
  await mkdir(restoreDir, { recursive: true });
  console.log('  Sicherung und Wiederherstellung …', timings, bytes);
  try {
    timings['Sicherung (npm run backup)'] = await cli(['backup', backupDir], { DATA_DIR: dataset.dataDir });
    timings['Wiederherstellung (npm run restore)'] = await cli(['restore', backupDir], {
      DATA_DIR: restoreDir,
    });
  } finally {
    await rm(backupDir, { recursive: true, force: true });
    await rm(restoreDir, { recursive: true, force: true });
  }

  const counts: Record<string, number> = {
    Ordner: dataset.counts.folders,
    Dokumente: dataset.counts.files,
    Nutzer: dataset.counts.users,
    Events: dataset.counts.events,
    ...extraCounts,
  };
  growthRuns.push({ size: sizeLabel, counts, loads, timings, bytes });
  const failed = Object.values(loads).reduce((sum, load) => sum + load.failed, 0);
  const figures: Figure[] = [
    ...Object.entries(loads).flatMap(([label, load]): Figure[] => [
      { measure: `${label}: p50 / p95`, value: `${ms(load.p50)} / ${ms(load.p95)}` },
    ]),
    ...Object.entries(timings).map(([label, value]) => ({
      measure: label,
      value: value >= 1000 ? seconds(value / 1000) : ms(value),
      ...(label.startsWith('Start')
        ? { goal: `≤ ${STARTUP_GOAL_MS / 1000} s`, met: value <= STARTUP_GOAL_MS }
        : {}),
    })),
    ...Object.entries(bytes).map(([label, value]) => ({ measure: label, value: mib(value) })),
    { measure: 'Fehlgeschlagene Anfragen', value: String(failed), goal: '0', met: failed === 0 },
  ];
  return {
    name: `Wachstum: Datenbestand ${sizeLabel}`,
    setup:
      `${Object.entries(counts)
        .map(([name, value]) => `${value.toLocaleString('de-DE')} ${name}`)
        .join(', ')}. ` +
      `wrk (ein Thread), 10 Verbindungen (Ordnerinhalt und Aktivitäten 4), je Messung eine Aufwärmphase und ${ctx.quick ? 1 : 3} Phasen zu ${ctx.phase} s, Perzentile über alle Phasen zusammen. ` +
      `Neu für Sie und Baum mit Neu-Zahlen: reihum ${readerTokens.length} Vertreter mit Lesestand (Konto älter als jedes Dokument, ${ctx.quick ? 50 : 500} geöffnet). ` +
      'Erste Anfragen nach einer Änderung, Sitzungsmappe, Anmeldung und Start: Median einzelner Messungen; Start: ein zweites Portal auf denselben Daten bis zur ersten Antwort von `/api/v1/health` (Abfrage alle 100 ms). ' +
      'Sicherung und Wiederherstellung mit `server/dist/cli.js backup|restore` (wie `npm run backup`/`restore`) während das Portal läuft. ' +
      'Die Zahlen eines Laufs allein haben kein Ziel außer dem Start; die Ziele gelten dem Verhältnis groß zu Standard (Tabelle „Wachstum nebeneinander“).',
    figures,
  };
}

/** Bytes the backup copies and the restore checks: database and documents. */
const dataBytes = (run: GrowthRun) => run.bytes.Datenbank! + run.bytes.Dokumente!;

/**
 * The table of two sizes side by side: every figure of both, the ratio of the second (large) to
 * the first (default) and the goals of decision 186: p95 of the listed loads at most twice, start-up at
 * most 5 s, backup and restore at most linear in the data (their ratio at most the data's).
 */
export function renderGrowthComparison(runs: readonly GrowthRun[]): string {
  const [small, large] = runs;
  if (!small || !large) return '';
  const rows: string[][] = [];
  const verdict = (met: boolean) => (met ? 'erfüllt' : '**verfehlt**');
  for (const [name, value] of Object.entries(large.counts))
    rows.push([
      `Datenbestand: ${name}`,
      String(small.counts[name] ?? '–'),
      String(value),
      times(value / (small.counts[name] ?? NaN)),
      '',
      '',
    ]);
  for (const label of Object.keys(large.loads)) {
    const a = small.loads[label];
    const b = large.loads[label]!;
    if (!a) continue;
    const ratio = b.p95 / a.p95;
    const goal = P95_GOAL.includes(label);
    rows.push([
      `${label}: p95`,
      ms(a.p95),
      ms(b.p95),
      times(ratio),
      goal ? '≤ 2×' : '',
      goal ? verdict(ratio <= 2) : '',
    ]);
    rows.push([`${label}: p50`, ms(a.p50), ms(b.p50), times(b.p50 / a.p50), '', '']);
  }
  const dataRatio = dataBytes(large) / dataBytes(small);
  for (const label of Object.keys(large.timings)) {
    const a = small.timings[label];
    const b = large.timings[label]!;
    if (a === undefined) continue;
    const ratio = b / a;
    const format = (value: number) => (value >= 1000 ? seconds(value / 1000) : ms(value));
    let goal = '';
    let judged = '';
    if (label.startsWith('Start')) {
      goal = `≤ ${STARTUP_GOAL_MS / 1000} s`;
      judged = verdict(a <= STARTUP_GOAL_MS && b <= STARTUP_GOAL_MS);
    } else if (label.startsWith('Sicherung') || label.startsWith('Wiederherstellung')) {
      goal = `≤ ${times(dataRatio)} (Daten)`;
      judged = verdict(ratio <= dataRatio);
    }
    rows.push([label, format(a), format(b), times(ratio), goal, judged]);
  }
  for (const label of Object.keys(large.bytes)) {
    const a = small.bytes[label]!;
    const b = large.bytes[label]!;
    rows.push([label, mib(a), mib(b), times(b / a), '', '']);
  }
  rows.push([
    'Datenbank und Dokumente zusammen',
    mib(dataBytes(small)),
    mib(dataBytes(large)),
    times(dataRatio),
    '',
    '',
  ]);
  const header = ['Messung', small.size, large.size, `Verhältnis ${large.size}/${small.size}`, 'Ziel', ''];
  return [
    '## Wachstum nebeneinander',
    '',
    `Szenario growth auf beiden Datenbeständen in einem Aufruf (je ein eigener Datenbestand und ein eigenes Portal, nacheinander). Ziele (Entscheidung 186): p95 groß höchstens das Doppelte von Standard für Baum, Ordnerinhalt, Suche, Neu für Sie und Aktivitätenseite; Start ≤ 5 s; Sicherung und Wiederherstellung höchstens linear (ihr Verhältnis höchstens das der Daten).`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');
}
