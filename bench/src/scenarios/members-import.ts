import { parseMembersCsv } from '../../../server/src/features/committees/members-csv.ts';
import type { BenchContext } from '../lib/context.ts';
import { repeatRounds, ratioFigure, seriesFigure, spreadOf, MIN_ROUNDS } from '../lib/compare.ts';
import { apiCall } from '../lib/portal.ts';
import { ms, times, type ScenarioResult } from '../lib/report.ts';

const TERM = { start: '2026-07-01', end: '2030-06-30' };
const SIZES = {
  full: { rows: 5_000, rounds: MIN_ROUNDS.full },
  quick: { rows: 500, rounds: MIN_ROUNDS.quick },
};
const FUNCTIONS = ['Mitglied', 'Mitglied', 'Mitglied', 'Ersatzmitglied'];

/** A member administration's export: `;`, Windows line ends, umlauts, a Wahlbezirk per 100 rows with its own ranks. */
function memberFile(rows: number): Buffer {
  const lines = ['Anrede;Vorname;Nachname;E-Mail;Funktion;von;bis;Wahlbezirk;Rang'];
  let rank = 0;
  for (let index = 0; index < rows; index += 1) {
    // Ersatzmitglieder are ranked within their Wahlbezirk of 100 rows.
    if (index % 100 === 0) rank = 0;
    const office = index === 0 ? 'Vorsitz' : FUNCTIONS[index % FUNCTIONS.length]!;
    const rankCell = office === 'Ersatzmitglied' ? String((rank += 1)) : '';
    lines.push(
      `${index % 2 ? 'Herr' : 'Frau'};Jürgen ${index};Müller-Şahin;import-${index}@bench.example;${office};;;Bezirk ${Math.floor(index / 100) + 1};${rankCell}`,
    );
  }
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

async function upload(
  ctx: BenchContext,
  token: string,
  committee: number,
  term: number,
  file: Buffer,
  dryRun: boolean,
) {
  const started = performance.now();
  const res = await fetch(
    `${ctx.portal.url}/api/v1/committees/${committee}/members/import?term_id=${term}&dry_run=${dryRun}`,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: file },
  );
  const body = (await res.json()) as { counts?: Record<string, number>; message?: string };
  if (res.status !== 200 || (body.counts?.errors ?? 1) > 0)
    throw new Error(`Import: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - started, counts: body.counts! };
}

/**
 * "Mitglieder importieren" (decision 189) with a member list of 5,000 rows: the preview and the
 * import through the API, each round into a new committee, against reading the same file in this
 * process (the CSV reader alone) in the same round.
 */
export async function membersImportScenario(ctx: BenchContext): Promise<ScenarioResult> {
  const size = ctx.quick ? SIZES.quick : SIZES.full;
  const file = memberFile(size.rows);
  const token = await ctx.token(ctx.dataset.admins[0]!);
  const call = (method: string, path: string, body?: unknown) =>
    apiCall(ctx.portal.url, token, method, path, body);
  const run = Date.now().toString(36);
  const round = async (index: number) => {
    const committee = (
      await call('POST', '/committees', { name: `Importmessung ${run} ${index}`, kind: 'ausschuss' })
    ).data;
    const term = (await call('POST', `/committees/${committee.id}/terms`, TERM)).data;
    const parseStarted = performance.now();
    parseMembersCsv(file, TERM);
    const parse = performance.now() - parseStarted;
    const preview = await upload(ctx, token, committee.id, term.id, file, true);
    const write = await upload(ctx, token, committee.id, term.id, file, false);
    const again = await upload(ctx, token, committee.id, term.id, file, false);
    if (again.counts.unchanged !== size.rows) throw new Error('Der zweite Import änderte etwas');
    return {
      parse,
      preview: preview.ms,
      write: write.ms,
      again: again.ms,
      accounts: write.counts.new_accounts,
    };
  };
  const series = await repeatRounds({
    label: 'Mitgliederimport',
    rounds: size.rounds,
    round,
    ratios: { preview: (r) => r.preview / r.parse, write: (r) => r.write / r.parse },
    decide: [],
  });
  const spread = (pick: (r: (typeof series.rounds)[number]) => number) => spreadOf(series.rounds.map(pick));
  const text = (pick: (r: (typeof series.rounds)[number]) => number) => {
    const s = spread(pick);
    return `${ms(s.median)} (${ms(s.min)}–${ms(s.max)})`;
  };
  const limit = 5_000;
  return {
    name: `Mitglieder importieren: ${size.rows.toLocaleString('de-DE')} Zeilen CSV`,
    setup:
      `\`POST /api/v1/committees/{id}/members/import\` als Admin, ${series.rounds.length} Runden, jede in ein neues Gremium mit neuer Amtsperiode: ` +
      'die Vorschau (`dry_run=true`), der Import (`dry_run=false`; in der ersten Runde mit einem neuen Konto samt Einladung je Zeile, danach gibt es die Konten schon) ' +
      'und derselbe Import noch einmal (ändert nichts). Basislinie in derselben Runde: dieselbe Datei nur gelesen (`parseMembersCsv` in diesem Prozess). ' +
      'Datei: UTF-8, `;`, Windows-Zeilenenden, Umlaute, Wahlbezirke, ein Vorsitz, jede vierte Zeile ein Ersatzmitglied mit Rang. Median (kleinster–größter Wert).',
    figures: [
      { measure: 'Datei lesen (Basislinie)', value: text((r) => r.parse) },
      ratioFigure({
        measure: 'Vorschau',
        value: text((r) => r.preview),
        ratio: series.ratios.preview,
        format: times,
      }),
      {
        measure: 'Vorschau, langsamste Runde',
        value: ms(spread((r) => r.preview).max),
        goal: `≤ ${ms(limit)}`,
        met: spread((r) => r.preview).max <= limit,
      },
      ratioFigure({
        measure: 'Import',
        value: text((r) => r.write),
        ratio: series.ratios.write,
        format: times,
      }),
      {
        measure: 'Import, langsamste Runde',
        value: ms(spread((r) => r.write).max),
        goal: `≤ ${ms(limit)}`,
        met: spread((r) => r.write).max <= limit,
      },
      { measure: 'Erster Import (mit neuen Konten)', value: ms(series.rounds[0]!.write) },
      { measure: 'Derselbe Import noch einmal (unverändert)', value: text((r) => r.again) },
      seriesFigure('Mitgliederimport', series),
    ],
  };
}
