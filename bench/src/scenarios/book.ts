import { linesPdf } from '../../../server/src/db/demo-seed.ts';
import type { BenchContext } from '../lib/context.ts';
import { curl, withPeak, type Transfer } from '../lib/curl.ts';
import { compareSides, MIN_ROUNDS, ratioFigure, seriesFigure } from '../lib/compare.ts';
import { pinning } from '../lib/pinning.ts';
import { descendantsOf } from '../lib/processes.ts';
import { apiCall } from '../lib/portal.ts';
import { kib, mib, ms, times, type ScenarioResult } from '../lib/report.ts';
import { germanText } from '../lib/search-index.ts';

/** A word only the scenario's documents contain: the search finds them once they are indexed. */
const MARKER = 'Sitzungsmappenmessung';
const SIZES = {
  full: { documents: 20, pages: 20, rounds: 60 },
  quick: { documents: 10, pages: 10, rounds: MIN_ROUNDS.quick },
} as const;

/** A dense A4 page of German text per page, as a Beschlussvorlage from an office program. */
function documentPdf(next: () => number, pages: number): Buffer {
  const page = () => {
    const lines: string[] = [MARKER];
    let line = '';
    for (const word of germanText(next, 5_600).split(' ')) {
      if (line.length + word.length > 95) {
        lines.push(line.trim());
        line = '';
      }
      line += `${word} `;
    }
    return lines.slice(0, 56);
  };
  return linesPdf(Array.from({ length: pages }, page), 10);
}

const call = (ctx: BenchContext, token: string, method: string, path: string, body?: unknown) =>
  apiCall(ctx.portal.url, token, method, path, body);

/** A meeting of `documents` PDFs in a new folder for Vertreter; answers the event and the download keys. */
async function createMeeting(ctx: BenchContext, size: { documents: number; pages: number }) {
  const token = await ctx.token(ctx.dataset.admins[0]!);
  const folder = (
    await call(ctx, token, 'POST', '/folders', { folder_id: 3, title: 'Sitzungsmappe Messung' })
  ).folder;
  let seed = 20;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const files: { id: number; external: string; bytes: number }[] = [];
  for (let index = 0; index < size.documents; index += 1) {
    const pdf = documentPdf(next, size.pages);
    const form = new FormData();
    form.append('title', `Beschlussvorlage ${index + 1}`);
    form.append('permissions', 'Vertreter');
    form.append('folder_id', String(folder.id));
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), `Beschlussvorlage ${index + 1}.pdf`);
    const res = await fetch(`${ctx.portal.url}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`Upload: ${res.status} ${await res.text()}`);
    const { file } = (await res.json()) as { file: { id: number; external: string } };
    files.push({ ...file, bytes: pdf.length });
  }
  const event = (
    await call(ctx, token, 'POST', '/events', {
      title: 'Aufsichtsratssitzung (Messung)',
      roles: ['Vertreter'],
      start: '2027-03-10T18:00',
      end: '2027-03-10T21:00',
      location: 'Sitzungssaal',
      description: 'Sitzungsmappe im Benchmark',
    })
  ).event;
  const items = Array.from({ length: Math.ceil(files.length / 2) }, (_, index) => ({
    title: `Beschlussvorlagen ${index + 1}`,
    file_ids: files.slice(index * 2, index * 2 + 2).map((file) => file.id),
  }));
  await call(ctx, token, 'PUT', `/events/${event.id}/agenda`, { items });
  return { eventId: event.id as number, files };
}

/**
 * Waits until the search has read the new documents and, in a full run, its extraction helper has
 * ended again (a minute after its last document), so that the book's memory is measured alone. A
 * quick run, whose figures mean nothing, does not wait for the helper.
 */
async function settle(ctx: BenchContext, documents: number, helpersBefore: number): Promise<void> {
  const token = await ctx.token(ctx.dataset.vertreter);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const found = await call(ctx, token, 'GET', `/search?q=${MARKER}&type=file&per_page=100`);
    if (found.meta.total >= documents && (ctx.quick || descendantsOf(ctx.portal.pid).length <= helpersBefore))
      return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error('Der Suchindex las die Dokumente der Sitzungsmappe nicht rechtzeitig');
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
/** Nearest rank: the smallest value with at least `share` of all at or below it. */
const rank = (values: number[], share: number) => sorted(values)[Math.ceil(share * values.length) - 1]!;

/**
 * The Sitzungsmappe (decision 130) of 20 PDFs × 20 pages as a Vertreter, build and download together,
 * against downloading the same PDFs one by one in the same run, in alternating rounds.
 */
export async function bookScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const size = ctx.quick ? SIZES.quick : SIZES.full;
  const helpersBefore = descendantsOf(ctx.portal.pid).length;
  const { eventId, files } = await createMeeting(ctx, size);
  await settle(ctx, files.length, helpersBefore);
  const auth = ['-H', `authorization: Bearer ${await ctx.token(ctx.dataset.vertreter)}`];
  const bookUrl = `${ctx.portal.url}/api/v1/events/${eventId}/book.pdf`;

  const before = ctx.portal.rss();
  const ownBefore = ctx.portal.ownRss();
  let ownPeak = ownBefore;
  const sample = () => {
    ownPeak = Math.max(ownPeak, ctx.portal.ownRss());
    return ctx.portal.rss();
  };
  // The first book starts the book's helper and stands apart (before the memory is watched).
  const first = await curl(bookUrl, auth);
  const singles = async () => {
    let total = 0;
    for (const file of files) {
      const transfer = await curl(`${ctx.portal.url}/api/v1/download/${file.external}`, auth);
      if (transfer.status !== 200 || transfer.bytes !== file.bytes)
        throw new Error('Download fehlgeschlagen');
      total += transfer.seconds;
    }
    return total * 1000;
  };
  const books: Transfer[] = [];
  const book = async () => {
    const transfer = await curl(bookUrl, auth);
    books.push(transfer);
    return transfer.seconds * 1000;
  };
  const { result: series, peak } = await withPeak(sample, () =>
    compareSides({
      label: 'Sitzungsmappe',
      rounds: size.rounds,
      sides: { singles, book },
      ratios: { book: (r) => r.book / r.singles },
      // The first book was the book's warm-up; one pass of the singles is theirs.
      warmup: singles,
    }),
  );
  const failed = [first, ...books].filter(
    (transfer) => transfer.status !== 200 || transfer.bytes < 1_000,
  ).length;
  const bookTimes = series.rounds.map((r) => r.book);
  const singleTimes = series.rounds.map((r) => r.singles);
  const p95 = rank(bookTimes, 0.95);
  const growth = Math.max(peak, sample()) - before;
  const label = `${files.length} PDFs × ${size.pages} Seiten`;
  return {
    name: `Sitzungsmappe aus ${label}`,
    setup:
      `\`GET /api/v1/events/{id}/book.pdf\` als Vertreter mit curl nach /dev/null: ${size.rounds} Runden, Erstellen und Herunterladen zusammen gemessen; ` +
      `Basislinie im Wechsel damit: dieselben ${files.length} PDFs einzeln über \`/api/v1/download/{key}\` nacheinander (Summe je Runde). ` +
      'Verhältnis: Mappe zu Einzel-Downloads je Runde, Median (kleinster–größter Wert); streut es über ±15 %, wird die Reihe einmal wiederholt und das Ziel heißt dann „unstabil“. ' +
      `Dokumente: je ${size.pages} dicht beschriebene A4-Seiten Text (${kib(files[0]!.bytes)}), Tagesordnung mit ${Math.ceil(files.length / 2)} Punkten zu je 2 PDFs. ` +
      'Vor der ersten Mappe ruht das Portal (die Textauslese der Suche hat die neuen Dokumente gelesen, ihr Hilfsprozess ist beendet); die erste Mappe startet den Hilfsprozess der Sitzungsmappe und steht eigens da. ' +
      'Speicher des Portals (Resident Set, mit seinen Hilfsprozessen) alle 50 ms, Zuwachs gegenüber dem Ruhezustand vor der ersten Mappe, also mit dem ganzen Hilfsprozess der Mappe (Node mit pdf-lib, ruhend etwa 70 MiB); darunter der Zuwachs des Portalprozesses allein. ' +
      // run.ts gives the portal every core for this scenario.
      (pinning().enabled
        ? ' Ohne Kernbindung des Portals: der Hilfsprozess der Mappe rechnet neben der Ereignisschleife, wie auf einem Server.'
        : ''),
    figures: [
      { measure: 'Median (p50)', value: ms(rank(bookTimes, 0.5)), baseline: ms(rank(singleTimes, 0.5)) },
      ratioFigure({
        measure: 'p95',
        value: ms(p95),
        baseline: ms(rank(singleTimes, 0.95)),
        ratio: series.ratios.book,
        format: times,
        goal: '≤ 3000 ms',
        met: p95 <= 3000,
      }),
      {
        measure: 'Streuung (schnellste – langsamste Runde)',
        value: `${ms(sorted(bookTimes)[0]!)} – ${ms(sorted(bookTimes).at(-1)!)}`,
        baseline: `${ms(sorted(singleTimes)[0]!)} – ${ms(sorted(singleTimes).at(-1)!)}`,
      },
      { measure: 'Erste Mappe (startet den Hilfsprozess)', value: ms(first.seconds * 1000) },
      {
        measure: 'Größe',
        value: mib(books.at(-1)!.bytes),
        baseline: mib(files.reduce((sum, file) => sum + file.bytes, 0)),
      },
      {
        measure: 'Zuwachs Resident Set',
        value: mib(growth),
        baseline: mib(before),
        goal: '≤ 64 MiB',
        met: growth <= 64 * 1024 ** 2,
      },
      {
        measure: 'davon Portalprozess (ohne Hilfsprozess)',
        value: mib(ownPeak - ownBefore),
        baseline: mib(ownBefore),
      },
      { measure: 'Fehlgeschlagene Mappen', value: String(failed), goal: '0', met: failed === 0 },
      seriesFigure('Sitzungsmappe', series),
    ],
  };
}
