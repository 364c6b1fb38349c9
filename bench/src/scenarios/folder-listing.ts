import type { BenchContext } from '../lib/context.ts';
import { wrk } from '../lib/load.ts';
import { countQueries } from '../lib/query-count.ts';
import { ms, perSecond, times, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 4;

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
        measure: 'Datenbankabfragen je Anfrage',
        value: String(queries.get(bigPath)),
        baseline: String(queries.get(smallPath)),
        goal: 'gleich',
        met: queries.get(bigPath) === queries.get(smallPath),
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
