import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Choice } from '@gremienportal/contracts/tally';
import { hashToken, newToken } from '../../../server/src/credentials/tokens.ts';
import { openDatabase } from '../../../server/src/db/database.ts';
import type { BenchContext } from '../lib/context.ts';
import {
  compareSides,
  percentileOver,
  percentileRatio,
  percentileSpread,
  ratioFigure,
  seriesFigure,
  spreadText,
  valuesOf,
} from '../lib/compare.ts';
import { cpuFigure, metered, type Metered } from '../lib/cpu.ts';
import { summarise, type LoadResult } from '../lib/load.ts';
import { apiCall } from '../lib/portal.ts';
import { ms, seconds, times, type Figure, type ScenarioResult } from '../lib/report.ts';

/** The target: 300 voting members on one instance, every vote answered within 10 s. */
const MEMBERS = 300;
const WINDOW_GOAL_MS = 10_000;
/**
 * Start times spread evenly over this many seconds (one every 10 ms in the full run), each moved by
 * up to ±JITTER ms: members in a room press their button within a few seconds of the call, so
 * votes overlap now and then, but nobody sends in a tight loop. The quick run (CI) spreads them
 * over one second and skips the warm-up round so that it stays short; its figures mean nothing.
 */
const SPREAD_S = { full: 3, quick: 1 };
const JITTER_MS = 5;
const TERM = { start: '2026-07-01', end: '2030-06-30' };
/** 60 % Ja, 30 % Nein, 10 % Enthaltung: the counts every round must find again. */
const choiceOf = (index: number): Choice => (index % 10 < 6 ? 'ja' : index % 10 < 9 ? 'nein' : 'enthaltung');
const MODES = ['offen', 'geheim'] as const;
type Mode = (typeof MODES)[number];

interface Answer {
  status: number;
  body: string;
}

/**
 * One request over node:http with a keep-alive agent: the leanest client in Node, so that the
 * sub-millisecond health baseline measures the portal more than the client.
 */
function send(agent: Agent, url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A deterministic random source (Park–Miller), for the jitter and the order of the members. */
function random(seed: number) {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

interface Burst {
  load: LoadResult;
  answers: Answer[];
  /** From the first request sent to the last answer received. */
  windowMs: number;
  /** The most requests in flight at once. */
  concurrency: number;
}

/**
 * `count` requests whose start times are spread evenly over `spreadMs` (each moved by up to
 * ±JITTER_MS, in a shuffled order of the members); every one's time from sending to the last byte.
 */
async function burst(
  count: number,
  spreadMs: number,
  seed: number,
  requestOf: (index: number) => Promise<Answer>,
): Promise<Burst> {
  const next = random(seed);
  const order = [...Array(count).keys()];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const step = spreadMs / count;
  const offsets = order.map((_, slot) => Math.max(0, slot * step + (next() * 2 - 1) * JITTER_MS));
  const latencies: number[] = [];
  const answers: Answer[] = new Array<Answer>(count);
  let inFlight = 0;
  let concurrency = 0;
  let failed = 0;
  let lastEnd = 0;
  const t0 = performance.now();
  await Promise.all(
    order.map(
      (member, slot) =>
        new Promise<void>((resolve, reject) => {
          setTimeout(() => {
            const started = performance.now();
            inFlight += 1;
            concurrency = Math.max(concurrency, inFlight);
            requestOf(member).then((answer) => {
              const ended = performance.now();
              inFlight -= 1;
              lastEnd = Math.max(lastEnd, ended);
              latencies.push(ended - started);
              if (answer.status !== 200) failed += 1;
              answers[member] = answer;
              resolve();
            }, reject);
          }, offsets[slot]);
        }),
    ),
  );
  const windowMs = lastEnd - t0;
  return { load: summarise(latencies, windowMs / 1000, failed), answers, windowMs, concurrency };
}

/** A JSON call to the portal's API as the admin. */
type Call = (method: string, path: string, body?: unknown) => Promise<Record<string, any>>;

/** One side of a round with the portal's CPU time meanwhile; a vote side also times its motion. */
type Side = Metered<Burst> & { motion?: { openMs: number; closeMs: number; getMs: number } };
type Round = Record<'health' | Mode, Side>;

/**
 * 300 accounts made straight in the database, each with a session (a token as a sign-in would
 * give it: only its SHA-256 is stored), and a new committee with them as members of a running
 * term, through the API as an admin would add them.
 */
async function prepare(ctx: BenchContext, call: Call) {
  const run = Date.now().toString(36);
  const db = openDatabase({ sqliteFile: join(ctx.dataset.dataDir, 'portal.sqlite') });
  const tokens: string[] = [];
  let userIds: number[];
  try {
    const k = db.kysely;
    const stamp = new Date().toISOString();
    // Nobody signs in with a password here: the data set's shared hash, no argon2 needed.
    const { password_hash } = await k
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', ctx.dataset.superAdmin.email)
      .executeTakeFirstOrThrow();
    userIds = await k.transaction().execute(async (trx) => {
      const rows = await trx
        .insertInto('users')
        .values(
          Array.from({ length: MEMBERS }, (_, index) => ({
            title: index % 2 ? 'Frau' : 'Herr',
            firstname: `Stimme ${index}`,
            lastname: `Mitglied-${String(index).padStart(3, '0')}`,
            email: `stimme-${run}-${index}@bench.example`,
            password_hash,
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .returning('id')
        .execute();
      const ids = rows.map((row) => row.id);
      await trx
        .insertInto('sessions')
        .values(
          ids.map((user_id) => {
            const token = newToken();
            tokens.push(token);
            return { user_id, token_hash: hashToken(token), created_at: stamp, last_seen_at: stamp };
          }),
        )
        .execute();
      return ids;
    });
  } finally {
    await db.close();
  }
  const committee = (await call('POST', '/committees', { name: `Abstimmung ${run}`, kind: 'ausschuss' }))
    .data;
  const term = (await call('POST', `/committees/${committee.id}/terms`, TERM)).data;
  for (const user_id of userIds)
    await call('POST', `/committees/${committee.id}/members`, {
      term_id: term.id,
      user_id,
      function: 'mitglied',
    });
  return { committeeId: committee.id as number, tokens };
}

/** The database holds exactly the votes sent: one per member, none lost, none twice. */
async function checkStored(ctx: BenchContext, motionId: number, mode: Mode, sent: Record<Choice, number>) {
  const db = openDatabase({ sqliteFile: join(ctx.dataset.dataDir, 'portal.sqlite') });
  try {
    const k = db.kysely;
    const electorate = await k
      .selectFrom('motion_electorate')
      .select([sql<number>`count(*)`.as('electors'), sql<number>`sum(voted)`.as('voted')])
      .where('motion_id', '=', motionId)
      .executeTakeFirstOrThrow();
    const table = mode === 'geheim' ? 'motion_ballots' : 'motion_votes';
    const stored = await k
      .selectFrom(table)
      .select(['choice', sql<number>`count(*)`.as('n')])
      .where('motion_id', '=', motionId)
      .groupBy('choice')
      .execute();
    const distinct =
      mode === 'geheim'
        ? null
        : Number(
            (
              await k
                .selectFrom('motion_votes')
                .select(sql<number>`count(distinct user_id)`.as('n'))
                .where('motion_id', '=', motionId)
                .executeTakeFirstOrThrow()
            ).n,
          );
    const found = Object.fromEntries(stored.map((row) => [row.choice, Number(row.n)]));
    const same = (['ja', 'nein', 'enthaltung'] as const).every(
      (choice) => (found[choice] ?? 0) === sent[choice],
    );
    if (
      Number(electorate.electors) !== MEMBERS ||
      Number(electorate.voted) !== MEMBERS ||
      !same ||
      (distinct !== null && distinct !== MEMBERS)
    )
      throw new Error(
        `Abstimmung ${motionId} (${mode}): in der Datenbank ${JSON.stringify({ electorate, found, distinct })}, gesendet ${JSON.stringify(sent)}`,
      );
  } finally {
    await db.close();
  }
}

/**
 * "Beschlüsse" (decision 190) in a meeting: a committee of 300 voting members, each signed in,
 * votes on a motion opened in the meeting, once open and once secret, every member once within a
 * few seconds; the same schedule of `GET /api/v1/health` is the baseline of the same rounds.
 */
export async function votesScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const spreadMs = (ctx.quick ? SPREAD_S.quick : SPREAD_S.full) * 1000;
  // On a shared machine the tails follow its load: the report says how busy it was.
  const loadBefore = loadavg()[0]!;
  const adminToken = await ctx.token(ctx.dataset.admins[0]!);
  const call: Call = (method, path, body) => apiCall(ctx.portal.url, adminToken, method, path, body);
  const { committeeId, tokens } = await prepare(ctx, call);
  const sent = { ja: 0, nein: 0, enthaltung: 0 };
  for (let index = 0; index < MEMBERS; index += 1) sent[choiceOf(index)] += 1;
  // More sockets than requests ever in flight: every member's request goes out when it is due.
  const agent = new Agent({ keepAlive: true, maxSockets: MEMBERS });
  const adminHeaders = { authorization: `Bearer ${adminToken}` };
  let seed = 190;

  const health = (): Promise<Side> =>
    metered(ctx.portal.pid, () =>
      burst(MEMBERS, spreadMs, (seed += 1), () => send(agent, `${ctx.portal.url}/api/v1/health`, 'GET', {})),
    );

  const vote = (mode: Mode) => async (): Promise<Side> => {
    const motion = (
      await call('POST', '/motions', {
        committee_id: committeeId,
        title: `Messung ${mode} ${seed}`,
        text: 'Der Ausschuss beschließt die Neufassung seiner Geschäftsordnung.',
        mode,
      })
    ).data;
    const openStarted = performance.now();
    const opened = (await call('POST', `/motions/${motion.id}/open`, { procedure: 'sitzung' })).data;
    const openMs = performance.now() - openStarted;
    if (opened.state !== 'abstimmung' || opened.electorate?.length !== MEMBERS)
      throw new Error(`Öffnen: ${opened.state}, ${opened.electorate?.length} Wahlberechtigte`);
    const url = `${ctx.portal.url}/api/v1/motions/${motion.id}/votes`;
    const side = await metered(ctx.portal.pid, () =>
      burst(MEMBERS, spreadMs, (seed += 1), (member) => {
        const body = JSON.stringify({ choice: choiceOf(member) });
        return send(
          agent,
          url,
          'POST',
          {
            authorization: `Bearer ${tokens[member]!}`,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
          body,
        );
      }),
    );
    const refused = side.answers.filter((answer) => answer.status !== 200);
    if (refused.length > 0)
      throw new Error(
        `${refused.length} Stimmen nicht angenommen, z. B. ${refused[0]!.status} ${refused[0]!.body}`,
      );
    const notVoted = side.answers.filter((answer) => !JSON.parse(answer.body).data.own.voted);
    if (notVoted.length > 0) throw new Error(`${notVoted.length} Antworten ohne „abgestimmt“`);

    const closeStarted = performance.now();
    const closed = await send(
      agent,
      `${ctx.portal.url}/api/v1/motions/${motion.id}/close`,
      'POST',
      adminHeaders,
    );
    const closeMs = performance.now() - closeStarted;
    const getStarted = performance.now();
    const after = await send(agent, `${ctx.portal.url}/api/v1/motions/${motion.id}`, 'GET', adminHeaders);
    const getMs = performance.now() - getStarted;
    for (const [label, answer] of [
      ['Schließen', closed],
      ['Abruf nach dem Schließen', after],
    ] as const) {
      const counts = answer.status === 200 ? JSON.parse(answer.body).data.counts : null;
      if (
        !counts ||
        counts.ja !== sent.ja ||
        counts.nein !== sent.nein ||
        counts.enthaltung !== sent.enthaltung
      )
        throw new Error(
          `${label}: ${answer.status}, Zahlen ${JSON.stringify(counts)}, gesendet ${JSON.stringify(sent)}`,
        );
    }
    await checkStored(ctx, motion.id, mode, sent);
    return { ...side, motion: { openMs, closeMs, getMs } };
  };

  let series;
  try {
    series = await compareSides({
      label: 'Abstimmung',
      rounds: ctx.rounds,
      sides: { health, offen: vote('offen'), geheim: vote('geheim') },
      ratios: {
        offen: percentileRatio<Round>(
          99,
          (r) => r.offen.load,
          (r) => r.health.load,
        ),
        geheim: percentileRatio<Round>(
          99,
          (r) => r.geheim.load,
          (r) => r.health.load,
        ),
      },
      // No goal on the ratios: the goal is absolute (every vote, within 10 s).
      decide: [],
      warmup: !ctx.quick,
    });
  } finally {
    agent.destroy();
  }
  const { rounds, ratios } = series;
  const pct = (pick: (r: Round) => LoadResult, p: number) => ms(percentileOver(rounds, pick, p));
  const spread = (pick: (r: Round) => number, format: (value: number) => string) =>
    spreadText(valuesOf(rounds, pick), format);
  const healthLoad = (r: Round) => r.health.load;
  const ok = (pick: (r: Round) => LoadResult) => rounds.map((r) => pick(r).requests - pick(r).failed);
  const figures: Figure[] = [];
  for (const mode of MODES) {
    const load = (r: Round) => r[mode].load;
    const label = mode === 'offen' ? 'Stimme, offen' : 'Stimme, geheim';
    const answered = ok(load);
    const windows = valuesOf(rounds, (r) => r[mode].windowMs);
    figures.push(
      ratioFigure({
        measure: `${label}: p99 gegen Health-p99`,
        value: spreadText(percentileSpread(rounds, load, 99), ms),
        baseline: ms(percentileOver(rounds, healthLoad, 99)),
        ratio: ratios[mode],
        format: times,
      }),
      {
        measure: `${label}: p50 / p95`,
        value: `${pct(load, 50)} / ${pct(load, 95)}`,
        baseline: `${pct(healthLoad, 50)} / ${pct(healthLoad, 95)}`,
      },
      {
        measure: `${label}: Antworten 200 je Runde`,
        value: answered.join(', '),
        goal: `${MEMBERS}, in der Datenbank je Mitglied eine`,
        met: answered.every((n) => n === MEMBERS),
      },
      {
        measure: `${label}: erste Anfrage bis letzte Antwort`,
        value: spreadText(windows, (value) => seconds(value / 1000)),
        goal: `≤ ${seconds(WINDOW_GOAL_MS / 1000)}`,
        met: windows.max <= WINDOW_GOAL_MS,
      },
      { measure: `${label}: höchstens gleichzeitig`, value: spread((r) => r[mode].concurrency, String) },
      { measure: `${label}: Öffnen (Wählerverzeichnis)`, value: spread((r) => r[mode].motion!.openMs, ms) },
      {
        measure: `${label}: Schließen bis Ergebnis (Antwort mit Zahlen)`,
        value: spread((r) => r[mode].motion!.closeMs, ms),
      },
      { measure: `${label}: GET /motions/{id} danach`, value: spread((r) => r[mode].motion!.getMs, ms) },
      // Without the health baseline's: its 300 answers cost a tick or two of /proc's 10 ms.
      cpuFigure({
        measure: `${label}: CPU-Zeit des Portals je Stimme`,
        rounds,
        side: (r) => ({ ...r[mode], requests: r[mode].load.requests }),
      }),
    );
  }
  const healthOk = ok(healthLoad);
  figures.push(
    {
      measure: 'Health: Antworten 200 je Runde',
      value: healthOk.join(', '),
      goal: String(MEMBERS),
      met: healthOk.every((n) => n === MEMBERS),
    },
    seriesFigure('Abstimmung', series),
  );
  return {
    name: `Abstimmung in der Sitzung: ${MEMBERS} Mitglieder`,
    setup:
      `Ein Gremium mit ${MEMBERS} stimmberechtigten Mitgliedern (Konten und Sitzungen direkt in der Datenbank, Mitgliedschaften über die API), je Seite und Runde eine neue Beschlussvorlage, als Admin geöffnet (\`procedure: sitzung\`). ` +
      `Jedes Mitglied stimmt einmal (\`POST /api/v1/motions/{id}/votes\`, 60 % Ja, 30 % Nein, 10 % Enthaltung), die Startzeiten gleichmäßig über ${spreadMs / 1000} s verteilt und je bis ±${JITTER_MS} ms verschoben, in gemischter Reihenfolge; ` +
      'ein Client (`node:http`, Keep-alive) im Benchmark-Prozess. Danach schließt der Admin (`POST …/close`, die Antwort trägt die Zahlen) und ruft die Vorlage ab; Zahlen der Antworten und die Zeilen in der Datenbank (offen: `motion_votes`, je Mitglied eine; geheim: `motion_ballots`; beide: `motion_electorate.voted`) müssen den gesendeten Stimmen gleichen. ' +
      `Basislinie in denselben Runden: ${MEMBERS} \`GET /api/v1/health\` nach demselben Zeitplan. ${rounds.length} Runden im Wechsel (jede zweite umgekehrt)${ctx.quick ? ' ohne' : ' nach einer'} Aufwärmrunde; Perzentile über die Antworten aller Runden zusammen (in Klammern die einzelnen Runden), die übrigen Zeiten Median der Runden (kleinster–größter Wert).`,
    figures,
    notes: [
      `Last der Maschine (loadavg, 1 min) zu Beginn ${loadBefore.toFixed(2)}, am Ende ${loadavg()[0]!.toFixed(2)} (${ctx.quick ? 'schneller Lauf' : 'voller Lauf'}).`,
    ],
  };
}
