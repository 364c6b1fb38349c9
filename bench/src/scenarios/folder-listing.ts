import type { BenchContext } from '../lib/context.ts';
import {
  compareSides,
  percentileOver,
  percentileRatio,
  ratioFigure,
  seriesFigure,
  valuesOf,
} from '../lib/compare.ts';
import { cpuFigure, metered, type Metered } from '../lib/cpu.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import { countQueries } from '../lib/query-count.ts';
import { ms, perSecond, times, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 4;

/**
 * Rounds of the first listing after a change: a cold request is cheap, and its median moved too
 * far between two full runs with 5 and with 15 rounds (decision 166 gives the figures).
 */
const COLD_ROUNDS = 45;

/**
 * Time of the first listing after a change (an admin renames a folder): the cache is rebuilt, so
 * this is what the first member after each upload waits. Both folders in alternating rounds.
 */
async function coldLatencies(
  ctx: BenchContext,
  paths: { small: string; big: string },
  headers: Record<string, string>,
) {
  const admin = {
    authorization: `Bearer ${await ctx.token(ctx.dataset.admins[0]!)}`,
    'content-type': 'application/json',
  };
  let renames = 0;
  const firstAfterChange = (path: string) => async () => {
    renames += 1;
    const rename = await fetch(`${ctx.portal.url}/api/v1/folders/${ctx.dataset.smallFolderId}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ title: renames % 2 ? 'Aktuelle Unterlagen (neu)' : 'Aktuelle Unterlagen' }),
    });
    if (!rename.ok) throw new Error(`Umbenennen scheiterte: ${rename.status} ${await rename.text()}`);
    const started = performance.now();
    const res = await fetch(ctx.portal.url + path, { headers });
    await res.arrayBuffer();
    return performance.now() - started;
  };
  return compareSides({
    label: 'Ordnerinhalt, erste Anfrage nach einer Änderung',
    rounds: Math.max(COLD_ROUNDS, ctx.rounds),
    sides: { small: firstAfterChange(paths.small), big: firstAfterChange(paths.big) },
    ratios: { cold: (r) => r.big / r.small },
    // No goal: the spread is shown, nothing is judged or repeated.
    decide: [],
  });
}

type Listing = Record<'small' | 'big', Metered<LoadResult>>;

/** Listing a folder of 1,000 documents against listing one of 10, in alternating rounds. */
export async function folderListingScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const token = await ctx.token(ctx.dataset.vertreter);
  // As a browser asks: it takes gzip.
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const bigPath = `/api/v1/folders/${ctx.dataset.bigFolderId}/files`;
  const smallPath = `/api/v1/folders/${ctx.dataset.smallFolderId}/files`;
  const run = (path: string) => () =>
    metered(ctx.portal.pid, () =>
      wrk({ url: ctx.portal.url + path, connections: CONNECTIONS, seconds: ctx.phase, headers }),
    );
  const series = await compareSides({
    label: 'Ordnerinhalt',
    rounds: ctx.rounds,
    sides: { small: run(smallPath), big: run(bigPath) },
    ratios: {
      p95: percentileRatio<Listing>(
        95,
        (r) => r.big,
        (r) => r.small,
      ),
      p50: percentileRatio<Listing>(
        50,
        (r) => r.big,
        (r) => r.small,
      ),
      p99: percentileRatio<Listing>(
        99,
        (r) => r.big,
        (r) => r.small,
      ),
    },
    decide: ['p95'],
  });
  const queries = await countQueries(ctx.dataset.dataDir, token, [smallPath, bigPath]);
  const cold = await coldLatencies(ctx, { small: smallPath, big: bigPath }, headers);
  const n = ctx.dataset.bigFolderItems;
  const { rounds, ratios } = series;
  const at = (side: 'small' | 'big', p: number) => percentileOver(rounds, (r) => r[side], p);
  const rps = (side: 'small' | 'big') => valuesOf(rounds, (r) => r[side].rps).median;
  const failed = rounds.reduce((sum, r) => sum + r.big.failed + r.small.failed, 0);
  return {
    name: `Ordnerinhalt: ${n} gegen 10 Einträge`,
    setup: `\`GET /api/v1/folders/{id}/files\` als Vertreter, wrk (ein Thread) mit ${CONNECTIONS} Verbindungen, ${ctx.rounds} Runden zu je ${ctx.phase} s je Ordner im Wechsel nach einer Aufwärmrunde; Verhältnis: Perzentil über die Antworten aller Runden zusammen (kleinster–größter Wert der einzelnen Runden), über ±15 % Streuung des p95-Verhältnisses einmal wiederholt. CPU-Zeit des Portals je Anfrage aus \`/proc\` vor und nach jeder Runde, Median der Runden. Abfragen gezählt mit einem Kysely-Plugin an der App des Portals im selben Prozess.`,
    figures: [
      ratioFigure({
        measure: 'p50',
        value: ms(at('big', 50)),
        baseline: ms(at('small', 50)),
        ratio: ratios.p50,
        format: times,
      }),
      ratioFigure({
        measure: 'p95',
        value: ms(at('big', 95)),
        baseline: ms(at('small', 95)),
        ratio: ratios.p95,
        format: times,
        goal: '≤ 3×',
        met: (median) => median <= 3,
      }),
      ratioFigure({
        measure: 'p99',
        value: ms(at('big', 99)),
        baseline: ms(at('small', 99)),
        ratio: ratios.p99,
        format: times,
      }),
      { measure: 'Anfragen/s', value: perSecond(rps('big')), baseline: perSecond(rps('small')) },
      cpuFigure({ measure: 'CPU-Zeit je Anfrage', rounds, side: (r) => r.big, baseline: (r) => r.small }),
      {
        measure: 'Datenbankabfragen je Anfrage (aus dem Cache)',
        value: String(queries.get(bigPath)!.warm),
        baseline: String(queries.get(smallPath)!.warm),
        goal: 'gleich',
        met: queries.get(bigPath)!.warm === queries.get(smallPath)!.warm,
      },
      {
        measure: 'Datenbankabfragen je Anfrage (erste nach einer Änderung)',
        value: String(queries.get(bigPath)!.cold),
        baseline: String(queries.get(smallPath)!.cold),
        goal: 'gleich',
        met: queries.get(bigPath)!.cold === queries.get(smallPath)!.cold,
      },
      ratioFigure({
        measure: `Erste Anfrage nach einer Änderung (Median von ${cold.rounds.length})`,
        value: ms(valuesOf(cold.rounds, (r) => r.big).median),
        baseline: ms(valuesOf(cold.rounds, (r) => r.small).median),
        ratio: cold.ratios.cold,
        format: times,
      }),
      { measure: 'Fehlgeschlagene Anfragen', value: String(failed), goal: '0', met: failed === 0 },
      seriesFigure('Ordnerinhalt', series),
    ],
  };
}
