import type { BenchContext } from '../lib/context.ts';
import { wrk } from '../lib/load.ts';
import { kib, ms, perSecond, type Figure, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 20;

/** The whole visible folder tree with its documents, on the large data set. */
export async function treeScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const figures: Figure[] = [];
  const people = [
    ['Vertreter', ctx.dataset.vertreter],
    ['Admin', ctx.dataset.admins[0]!],
  ] as const;
  for (const [label, account] of people) {
    const token = await ctx.token(account);
    // As a browser asks: it takes gzip.
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
    const plain = await fetch(`${ctx.portal.url}/api/v1/tree`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const size = (await plain.arrayBuffer()).byteLength;
    const packed = await fetch(`${ctx.portal.url}/api/v1/tree`, { headers });
    const sent = Number(packed.headers.get('content-length'));
    await packed.arrayBuffer();
    const result = await wrk({
      url: `${ctx.portal.url}/api/v1/tree`,
      connections: CONNECTIONS,
      seconds: ctx.seconds,
      headers,
    });
    figures.push(
      { measure: `${label}: p50`, value: ms(result.p50) },
      { measure: `${label}: p99`, value: ms(result.p99), goal: '≤ 50 ms', met: result.p99 <= 50 },
      { measure: `${label}: Anfragen/s`, value: perSecond(result.rps) },
      { measure: `${label}: Antwortgröße (gzip)`, value: `${kib(size)} (${kib(sent)})` },
      {
        measure: `${label}: Fehlgeschlagene Anfragen`,
        value: String(result.failed),
        goal: '0',
        met: result.failed === 0,
      },
    );
  }
  return {
    name: 'GET /api/v1/tree',
    setup: `wrk, ${CONNECTIONS} Verbindungen, ${ctx.seconds} s je Rolle; ${ctx.dataset.counts.folders} Ordner, ${ctx.dataset.counts.files} Dateien.`,
    figures,
  };
}
