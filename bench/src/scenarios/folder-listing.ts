import type { BenchContext } from '../lib/context.ts';
import { wrk } from '../lib/load.ts';
import { countQueries } from '../lib/query-count.ts';
import { ms, perSecond, times, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 4;

/**
 * Time of the first listing after a change (an admin renames a folder and back): the cache is
 * rebuilt, so this is what the first member after each upload waits.
 */
async function coldLatency(
  ctx: BenchContext,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  const admin = {
    authorization: `Bearer ${await ctx.token(ctx.dataset.admins[0]!)}`,
    'content-type': 'application/json',
  };
  const times: number[] = [];
  for (let round = 0; round < 5; round += 1) {
    const rename = await fetch(`${ctx.portal.url}/api/v1/folders/${ctx.dataset.smallFolderId}`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ title: round % 2 ? 'Aktuelle Unterlagen' : 'Aktuelle Unterlagen (neu)' }),
    });
    if (!rename.ok) throw new Error(`Umbenennen scheiterte: ${rename.status} ${await rename.text()}`);
    const started = performance.now();
    const res = await fetch(ctx.portal.url + path, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2]!;
}

/** Listing a folder of 1,000 documents against listing one of 10. */
export async function folderListingScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const token = await ctx.token(ctx.dataset.vertreter);
  // As a browser asks: it takes gzip.
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const bigPath = `/api/v1/folders/${ctx.dataset.bigFolderId}/files`;
  const smallPath = `/api/v1/folders/${ctx.dataset.smallFolderId}/files`;
  const small = await wrk({
    url: ctx.portal.url + smallPath,
    connections: CONNECTIONS,
    seconds: ctx.seconds,
    headers,
  });
  const big = await wrk({
    url: ctx.portal.url + bigPath,
    connections: CONNECTIONS,
    seconds: ctx.seconds,
    headers,
  });
  const queries = await countQueries(ctx.dataset.dataDir, token, [smallPath, bigPath]);
  const coldSmall = await coldLatency(ctx, smallPath, headers);
  const coldBig = await coldLatency(ctx, bigPath, headers);
  const ratio = big.p95 / small.p95;
  const n = ctx.dataset.bigFolderItems;
  return {
    name: `Ordnerinhalt: ${n} gegen 10 Einträge`,
    setup: `\`GET /api/v1/folders/{id}/files\` als Vertreter, wrk mit ${CONNECTIONS} Verbindungen, ${ctx.seconds} s je Ordner; Abfragen gezählt mit einem Kysely-Plugin an der App des Portals im selben Prozess.`,
    figures: [
      { measure: 'p50', value: ms(big.p50), baseline: ms(small.p50), ratio: times(big.p50 / small.p50) },
      {
        measure: 'p95',
        value: ms(big.p95),
        baseline: ms(small.p95),
        ratio: times(ratio),
        goal: '≤ 3×',
        met: ratio <= 3,
      },
      { measure: 'p99', value: ms(big.p99), baseline: ms(small.p99), ratio: times(big.p99 / small.p99) },
      { measure: 'Anfragen/s', value: perSecond(big.rps), baseline: perSecond(small.rps) },
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
      {
        measure: 'Erste Anfrage nach einer Änderung (Median von 5)',
        value: ms(coldBig),
        baseline: ms(coldSmall),
        ratio: times(coldBig / coldSmall),
      },
      {
        measure: 'Fehlgeschlagene Anfragen',
        value: String(big.failed + small.failed),
        goal: '0',
        met: big.failed + small.failed === 0,
      },
    ],
  };
}
