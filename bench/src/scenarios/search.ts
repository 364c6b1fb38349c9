import { join } from 'node:path';
import { openDatabase } from '../../../server/src/db/database.ts';
import { linesPdf } from '../../../server/src/db/demo-seed.ts';
import { DEFAULT_LIMITS, extractText } from '../../../server/src/search/extract/index.ts';
import type { BenchContext } from '../lib/context.ts';
import { wrk, type LoadResult } from '../lib/load.ts';
import { mib, ms, perSecond, times, type Figure, type ScenarioResult } from '../lib/report.ts';
import { germanText } from '../lib/search-index.ts';

const CONNECTIONS = 10;

const QUERIES = [
  ['ein Wort', 'Abschreibungen'],
  ['zwei Wörter', 'Jahresabschluss Rücklagen'],
  ['Wortteil', 'versammlung'],
] as const;

/** A PDF of two A4 pages of the text's lines, as an office program without a scanner writes it. */
export function textPdf(text: string): Buffer {
  const words = text.split(' ');
  const lines: string[] = [];
  for (let line = ''; words.length > 0;) {
    const word = words.shift()!;
    if ((line + word).length > 90) {
      lines.push(line.trim());
      line = '';
    }
    line += `${word} `;
    if (words.length === 0) lines.push(line.trim());
  }
  const half = Math.ceil(lines.length / 2);
  return linesPdf([lines.slice(0, half), lines.slice(half)]);
}

/** Documents per second through the extraction the indexer uses (one at a time, as it works). */
async function extractionThroughput(count: number): Promise<{ perSecond: number; failed: number }> {
  let seed = 7;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const pdfs = Array.from({ length: count }, () => textPdf(germanText(next, 4_000)));
  let failed = 0;
  const started = performance.now();
  for (const pdf of pdfs) {
    const result = await extractText({ bytes: pdf }, 'pdf', DEFAULT_LIMITS);
    if (result.state !== 'done' || result.text.length < 1_000) failed += 1;
  }
  return { perSecond: count / ((performance.now() - started) / 1000), failed };
}

/**
 * The first search for a word after the index changed (the indexer stored a text): its matches are
 * looked up in the index again. Median of 5, each after raising the index's version as the
 * indexer does.
 */
async function coldLatency(
  ctx: BenchContext,
  path: string,
  headers: Record<string, string>,
): Promise<number> {
  const db = openDatabase({ sqliteFile: join(ctx.dataset.dataDir, 'portal.sqlite') });
  const times: number[] = [];
  try {
    for (let round = 0; round < 5; round += 1) {
      await db.kysely
        .updateTable('change_counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('name', '=', 'search')
        .execute();
      const started = performance.now();
      const res = await fetch(ctx.portal.url + path, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
  } finally {
    await db.close();
  }
  return times.sort((a, b) => a - b)[2]!;
}

/**
 * Search (issue 19) on the data set's 20,000 documents of about two pages of German each, as a
 * Vertreter, against the plain listing of the 1,000-document folder in the same run.
 */
export async function searchScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const token = await ctx.token(ctx.dataset.vertreter);
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const run = (path: string) =>
    wrk({ url: ctx.portal.url + path, connections: CONNECTIONS, seconds: ctx.seconds, headers });
  const baseline = await run(`/api/v1/folders/${ctx.dataset.bigFolderId}/files`);
  const figures: Figure[] = [];
  let failed = baseline.failed;
  const add = (label: string, result: LoadResult, p95Goal: number, p99Goal?: number) => {
    failed += result.failed;
    figures.push(
      { measure: `${label}: p50`, value: ms(result.p50), baseline: ms(baseline.p50) },
      {
        measure: `${label}: p95`,
        value: ms(result.p95),
        baseline: ms(baseline.p95),
        ratio: times(result.p95 / baseline.p95),
        goal: `≤ ${p95Goal} ms`,
        met: result.p95 <= p95Goal,
      },
      {
        measure: `${label}: p99`,
        value: ms(result.p99),
        baseline: ms(baseline.p99),
        ...(p99Goal ? { goal: `≤ ${p99Goal} ms`, met: result.p99 <= p99Goal } : {}),
      },
      { measure: `${label}: Anfragen/s`, value: perSecond(result.rps), baseline: perSecond(baseline.rps) },
    );
  };
  for (const [label, query] of QUERIES) {
    const path = `/api/v1/search?q=${encodeURIComponent(query)}`;
    const cold = await coldLatency(ctx, path, headers);
    add(`Suche, ${label} („${query}“)`, await run(path), 50, 100);
    figures.push({
      measure: `Suche, ${label}: erste Anfrage nach einer Indexänderung (Median von 5)`,
      value: ms(cold),
    });
  }
  add('Vorschläge („Protok“)', await run('/api/v1/search/suggest?q=Protok'), 20);
  const extraction = await extractionThroughput(ctx.quick ? 20 : 200);
  figures.push(
    {
      measure: 'Textauslese (PDF, 2 Seiten)',
      value: `${extraction.perSecond.toFixed(1)} Dokumente/s`,
    },
    {
      measure: 'Index: gelesener Text / Zuwachs der Datenbank',
      value: `${mib(ctx.dataset.search.textBytes)} / ${mib(ctx.dataset.search.indexBytes)}`,
    },
    {
      measure: 'Fehlgeschlagene Anfragen und Auslesungen',
      value: String(failed + extraction.failed),
      goal: '0',
      met: failed + extraction.failed === 0,
    },
  );
  return {
    name: `Suche über ${ctx.dataset.counts.files} Dokumente`,
    setup:
      `\`GET /api/v1/search\` und \`/search/suggest\` als Vertreter, wrk mit ${CONNECTIONS} Verbindungen, ${ctx.seconds} s je Abfrage; ` +
      `Basis: \`GET /api/v1/folders/{id}/files\` des Ordners mit ${ctx.dataset.bigFolderItems} Dokumenten im selben Lauf. ` +
      'Texte: etwa zwei Seiten Deutsch je Dokument, vorab im Index; die Textauslese einzeln gemessen (Worker-Thread wie im Portal). ' +
      'Die Last misst den eingeschwungenen Zustand (die Treffer eines Worts sind je Indexstand zwischengespeichert); die erste Anfrage nach einer Indexänderung steht eigens da.',
    figures,
  };
}
