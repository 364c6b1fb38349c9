import type { BenchContext } from '../lib/context.ts';
import {
  centre,
  compareSides,
  percentileOver,
  percentileSpread,
  seriesFigure,
  spreadText,
  valuesOf,
} from '../lib/compare.ts';
import { cpuFigure, metered } from '../lib/cpu.ts';
import { wrk } from '../lib/load.ts';
import { kib, ms, perSecond, type Figure, type ScenarioResult } from '../lib/report.ts';

const CONNECTIONS = 20;

/**
 * The whole visible folder tree with its documents, on the large data set, for a Vertreter and an
 * Admin in alternating rounds. Its goal is absolute (p99 ≤ 50 ms), so no ratio decides anything:
 * p50 and p99 are taken over all rounds' answers together, the spread from the single rounds.
 */
export async function treeScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const people = { Vertreter: ctx.dataset.vertreter, Admin: ctx.dataset.admins[0]! };
  const headers: Record<string, Record<string, string>> = {};
  const sizes: Record<string, string> = {};
  for (const [label, account] of Object.entries(people)) {
    const token = await ctx.token(account);
    // As a browser asks: it takes gzip.
    headers[label] = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
    const plain = await fetch(`${ctx.portal.url}/api/v1/tree`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const size = (await plain.arrayBuffer()).byteLength;
    const packed = await fetch(`${ctx.portal.url}/api/v1/tree`, { headers: headers[label] });
    const sent = Number(packed.headers.get('content-length'));
    await packed.arrayBuffer();
    sizes[label] = `${kib(size)} (${kib(sent)})`;
  }
  const run = (label: string) => () =>
    metered(ctx.portal.pid, () =>
      wrk({
        url: `${ctx.portal.url}/api/v1/tree`,
        connections: CONNECTIONS,
        seconds: ctx.phase,
        headers: headers[label],
      }),
    );
  const series = await compareSides({
    label: 'Baum',
    rounds: ctx.rounds,
    sides: { Vertreter: run('Vertreter'), Admin: run('Admin') },
    ratios: {},
  });
  const figures: Figure[] = [];
  for (const label of ['Vertreter', 'Admin'] as const) {
    const of = (key: 'rps' | 'failed') => valuesOf(series.rounds, (r) => r[label][key]);
    const p99 = percentileSpread(series.rounds, (r) => r[label], 99);
    const failed = of('failed').values.reduce((sum, value) => sum + value, 0);
    figures.push(
      { measure: `${label}: p50`, value: ms(percentileOver(series.rounds, (r) => r[label], 50)) },
      {
        measure: `${label}: p99`,
        value: spreadText(p99, ms),
        goal: '≤ 50 ms',
        met: centre(p99) <= 50,
      },
      { measure: `${label}: Anfragen/s`, value: spreadText(of('rps'), perSecond) },
      cpuFigure({ measure: `${label}: CPU-Zeit je Anfrage`, rounds: series.rounds, side: (r) => r[label] }),
      { measure: `${label}: Antwortgröße (gzip)`, value: sizes[label]! },
      { measure: `${label}: Fehlgeschlagene Anfragen`, value: String(failed), goal: '0', met: failed === 0 },
    );
  }
  figures.push(seriesFigure('Baum', series));
  return {
    name: 'GET /api/v1/tree',
    setup:
      `wrk (ein Thread), ${CONNECTIONS} Verbindungen, ${ctx.rounds} Runden zu je ${ctx.phase} s je Rolle im Wechsel nach einer Aufwärmrunde; ` +
      `${ctx.dataset.counts.folders} Ordner, ${ctx.dataset.counts.files} Dateien. Ziel absolut (kein Verhältnis): p50 und p99 über die Antworten aller Runden zusammen (in Klammern die einzelnen Runden), Anfragen/s und CPU-Zeit des Portals je Anfrage (\`/proc\`, vor und nach jeder Runde) Median der Runden.`,
    figures,
  };
}
