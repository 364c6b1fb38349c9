import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../../server/src/db/database.ts';
import type { BenchContext } from '../lib/context.ts';
import { cpuFigure, metered, type Metered } from '../lib/cpu.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import {
  compareSides,
  percentileOver,
  percentileRatio,
  ratioFigure,
  repeatRounds,
  seriesFigure,
  valuesOf,
} from '../lib/compare.ts';
import { kib, ms, perSecond, times, type Figure, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 10;
/** Documents each member with read state has opened (the rest of what they see is new to them). */
const READS_PER_MEMBER = 500;

/**
 * Members of one kind (Vertreter only, so every one gets the same shared tree), split in two
 * groups: the baseline marked everything read (nothing new: the shared answer, as before decision 131);
 * the other joined before every document and opened a few hundred of them, so nearly everything is
 * new for them and each tree and listing carries their own counts and markers.
 */
async function prepareGroups(ctx: BenchContext): Promise<{ plain: string[]; reading: string[] }> {
  const db = openDatabase({ sqliteFile: join(ctx.dataset.dataDir, 'portal.sqlite') });
  try {
    const k = db.kysely;
    const rows = await k
      .selectFrom('users')
      .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['users.id', 'users.email'])
      .groupBy(['users.id', 'users.email'])
      .having(sql<number>`count(*)`, '=', 1)
      .having(sql<string>`max(roles.name)`, '=', 'Vertreter')
      .orderBy('users.id')
      .execute();
    const members = new Map(ctx.dataset.members.map((account) => [account.email, account]));
    const chosen = rows.filter((row) => members.has(row.email)).slice(0, ctx.quick ? 8 : 60);
    const plain = chosen.filter((_, index) => index % 2 === 0);
    const reading = chosen.filter((_, index) => index % 2 === 1);
    const now = new Date().toISOString();
    const fileIds = (await k.selectFrom('files').select('id').execute()).map((row) => row.id);
    let seed = 21;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    await k.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ news_read_at: now, news_version: sql`news_version + 1` })
        .where(
          'id',
          'in',
          plain.map((row) => row.id),
        )
        .execute();
      await trx
        .updateTable('users')
        .set({
          created_at: '2020-01-01T00:00:00.000Z',
          news_read_at: null,
          news_version: sql`news_version + 1`,
        })
        .where(
          'id',
          'in',
          reading.map((row) => row.id),
        )
        .execute();
      for (const member of reading) {
        const read = new Set<number>();
        while (read.size < Math.min(READS_PER_MEMBER, fileIds.length))
          read.add(fileIds[next() % fileIds.length]!);
        await trx
          .insertInto('file_reads')
          .values([...read].map((file_id) => ({ user_id: member.id, file_id, read_at: now, opened_at: now })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    });
    // One sign-in after the other: many at once are refused by the portal's hashing queue.
    const tokens = async (group: typeof chosen) => {
      const signedIn: string[] = [];
      for (const row of group) signedIn.push(await ctx.token(members.get(row.email)!));
      return signedIn;
    };
    return { plain: await tokens(plain), reading: await tokens(reading) };
  } finally {
    await db.kysely.destroy();
  }
}

/** One gzip answer of a member: how long it took (ms) and its size on the wire (bytes). */
async function fetchAnswer(ctx: BenchContext, path: string, token: string) {
  const started = performance.now();
  const res = await fetch(ctx.portal.url + path, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return { ms: performance.now() - started, bytes: Number(res.headers.get('content-length')) };
}

/** The first answer of a member (their read state computed and spliced), in ms. */
const firstAnswer = async (ctx: BenchContext, path: string, token: string) =>
  (await fetchAnswer(ctx, path, token)).ms;

/** Alternating rounds, both groups taking turns with their members; medians and spread of the ratios. */
async function compare(
  ctx: BenchContext,
  label: string,
  path: string,
  groups: { plain: string[]; reading: string[] },
) {
  // The first answers: one member of each group per round, in turn. A member's first answer
  // happens once, so these rounds have neither warm-up nor rerun.
  const cold = await repeatRounds({
    label: `${label}, erste Antworten`,
    rounds: Math.min(groups.plain.length, groups.reading.length),
    round: async (index) => {
      const plain = () => firstAnswer(ctx, path, groups.plain[index]!);
      const reading = () => firstAnswer(ctx, path, groups.reading[index]!);
      if (index % 2 === 0) return { plain: await plain(), reading: await reading() };
      const second = await reading();
      return { plain: await plain(), reading: second };
    },
    ratios: { first: (round) => round.reading / round.plain },
    decide: [],
  });
  const seconds = ctx.quick ? ctx.phase : 8;
  const run = (tokens: string[]) => () =>
    metered(ctx.portal.pid, () =>
      wrk({
        url: ctx.portal.url + path,
        connections: CONNECTIONS,
        seconds,
        headers: { 'accept-encoding': 'gzip, deflate, br' },
        tokens,
      }),
    );
  // The warm-up (each side once) also keeps each member's answer after their second request.
  const series = await compareSides({
    label,
    rounds: ctx.rounds,
    sides: { plain: run(groups.plain), reading: run(groups.reading) },
    ratios: {
      p99: percentileRatio<Record<'plain' | 'reading', Metered<LoadResult>>>(
        99,
        (r) => r.reading,
        (r) => r.plain,
      ),
      rps: (r) => r.reading.rps / r.plain.rps,
    },
  });
  const { rounds, ratios } = series;
  // What one answer weighs on the wire, after the rounds (a member's answer is then compressed whole).
  const [plainBytes, readingBytes] = [
    (await fetchAnswer(ctx, path, groups.plain[0]!)).bytes,
    (await fetchAnswer(ctx, path, groups.reading[0]!)).bytes,
  ];
  const at = (side: 'plain' | 'reading', p: number) => percentileOver(rounds, (r) => r[side], p);
  const rps = (side: 'plain' | 'reading') => valuesOf(rounds, (r) => r[side].rps).median;
  const failed = rounds.reduce((sum, r) => sum + r.plain.failed + r.reading.failed, 0);
  const figures: Figure[] = [
    ratioFigure({
      measure: `${label}: p99`,
      value: ms(at('reading', 99)),
      baseline: ms(at('plain', 99)),
      ratio: ratios.p99,
      format: times,
      goal: '≤ 1.10×',
      met: (median) => median <= 1.1,
    }),
    { measure: `${label}: p50`, value: ms(at('reading', 50)), baseline: ms(at('plain', 50)) },
    ratioFigure({
      measure: `${label}: Anfragen/s`,
      value: perSecond(rps('reading')),
      baseline: perSecond(rps('plain')),
      ratio: ratios.rps,
      format: times,
      goal: '≥ 0.90×',
      met: (median) => median >= 0.9,
    }),
    cpuFigure({
      measure: `${label}: CPU-Zeit je Anfrage`,
      rounds,
      side: (r) => r.reading,
      baseline: (r) => r.plain,
    }),
    ratioFigure({
      measure: `${label}: erste Antwort je Mitglied (Median)`,
      value: ms(valuesOf(cold.rounds, (r) => r.reading).median),
      baseline: ms(valuesOf(cold.rounds, (r) => r.plain).median),
      ratio: cold.ratios.first,
      format: times,
    }),
    {
      measure: `${label}: Antwortgröße (gzip)`,
      value: kib(readingBytes),
      baseline: kib(plainBytes),
      ratio: times(readingBytes / plainBytes),
    },
    { measure: `${label}: Fehlgeschlagene Anfragen`, value: String(failed), goal: '0', met: failed === 0 },
    seriesFigure(label, series),
  ];
  return figures;
}

/** The groups differ as meant: the root counts new documents for one group and none for the other. */
async function checkGroups(ctx: BenchContext, groups: { plain: string[]; reading: string[] }) {
  const rootCount = async (token: string) => {
    const res = await fetch(`${ctx.portal.url}/api/v1/tree`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { data: { new_count: number } }).data.new_count;
  };
  const [plain, reading] = [await rootCount(groups.plain[0]!), await rootCount(groups.reading[0]!)];
  if (plain !== 0 || reading === 0)
    throw new Error(`Lesestand nicht wie vorgesehen: ${plain} und ${reading} neu`);
  return reading;
}

/**
 * Decision 131: the tree and a large listing with read state (Neu markers and counts per member)
 * against the same answers for members with nothing new, in the same run.
 */
export async function readStateScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const groups = await prepareGroups(ctx);
  const newForReader = await checkGroups(ctx, groups);
  const figures = [
    ...(await compare(ctx, 'Baum', '/api/v1/tree', groups)),
    ...(await compare(
      ctx,
      `Ordner mit ${ctx.dataset.bigFolderItems} Dokumenten`,
      `/api/v1/folders/${ctx.dataset.bigFolderId}/files`,
      groups,
    )),
  ];
  return {
    name: 'Lesestand: Baum und Ordnerinhalt mit „Neu“',
    setup:
      `wrk (ein Thread), ${CONNECTIONS} Verbindungen, ${ctx.rounds} Runden zu je ${ctx.quick ? ctx.phase : 8} s je Gruppe im Wechsel nach einer Aufwärmrunde; je Anfrage das nächste von ${groups.reading.length} Mitgliedern (nur Vertreter) ` +
      `mit Lesestand (Konto älter als jedes Dokument, ${READS_PER_MEMBER} Dokumente geöffnet: ${newForReader} sichtbare neu) gegen ${groups.plain.length} Mitglieder, ` +
      `die alles als gelesen markiert haben (nichts neu: die geteilte Antwort). Verhältnis: p99 über die Antworten aller Runden zusammen, Anfragen/s und CPU-Zeit des Portals je Anfrage (\`/proc\`, vor und nach jeder Runde) Median der Runden (kleinster–größter Wert der einzelnen Runden). ` +
      'Erste Antworten: je Runde ein Mitglied jeder Gruppe im Wechsel (ohne Aufwärmen und Wiederholung, die erste Antwort gibt es einmal).',
    figures,
  };
}
