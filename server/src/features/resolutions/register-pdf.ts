import { grayscale, PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { FOLLOW_UP_STATE_LABELS, type Resolution } from '@gremienportal/contracts/beschlussbuch';
import {
  CHOICE_LABELS,
  CHOICES,
  PROCEDURE_LABELS,
  type VoteMode,
} from '@gremienportal/contracts/resolutions';
import { BOOK_TEXT, counted, formatClock, formatLongDate, formatShortDate } from '../../book/book-text.ts';
import {
  A4,
  drawEntry,
  drawHeading,
  entry,
  LEFT,
  paginate,
  RIGHT,
  textEntries,
  TOP,
  type Entry,
} from '../../book/flow.ts';
import { drawFooter } from '../../book/page-marks.ts';
import { encoderOf, pdfText } from '../../book/pdf-text.ts';
import { embedFonts, wrap, type Fonts } from '../../book/text-layout.ts';

/*
 * The Beschlussbuch as PDF: a cover, then the resolutions one after another in the flow of the
 * Sitzungsmappe's own pages, each with its facts, its text, its result, its follow-up and its place
 * in the hash chain, and on every page the footer naming the reader.
 */

export interface RegisterPdfInput {
  resolutions: readonly Resolution[];
  viewerName: string;
  /** ISO timestamp of the export. */
  generatedAt: string;
  /** What the register shows: "Aufsichtsrat · 2026", "Alle Beschlüsse". */
  filterLabel: string;
  timeZone: string;
}

const NONE = '—';
const MODE: Record<VoteMode, string> = { offen: 'offen', namentlich: 'namentlich', geheim: 'geheim' };

export const REGISTER_TEXT = {
  heading: 'Beschlussbuch',
  continued: (label: string) => `${label} (Fortsetzung)`,
  count: (count: number) => (count === 0 ? 'Keine Beschlüsse' : counted(count, 'Beschluss', 'Beschlüsse')),
  createdFor: (date: string, reader: string) => `Erstellt am ${date} für ${reader}`,
  confidential:
    'Das Beschlussbuch ist vertraulich und nur für Sie bestimmt; jede Seite nennt Ihren Namen. Jeder Eintrag trägt die Prüfsumme (SHA-256) seines Vorgängers im Gremium: so zeigt sich, dass kein Eintrag nachträglich geändert wurde.',
  footer: (reader: string, date: string) => `Vertraulich – erstellt für ${reader} am ${date}`,
  title: (number: string, title: string) => `${number} – ${title}`,
  committee: (name: string) => `Gremium: ${name}`,
  established: (date: string, time: string, by: string) => `Festgestellt am ${date}, ${time} Uhr von ${by}`,
  procedure: (label: string) => `Verfahren: ${label}`,
  mode: (label: string) => `Art der Abstimmung: ${label}`,
  corrects: (number: string) => `Berichtigung zu ${number}`,
  text: 'Beschlusstext',
  result: 'Ergebnis',
  conflicts: (names: readonly string[]) =>
    `${names.length === 1 ? 'Nahm' : 'Nahmen'} wegen eines Interessenkonflikts nicht teil: ${names.join(', ')}`,
  files: 'Unterlagen',
  followUp: 'Umsetzung',
  responsible: (name: string) => `Verantwortlich: ${name}`,
  due: (date: string) => `Fällig am ${date}`,
  status: (label: string, overdue: boolean) => `Status: ${label}${overdue ? ' (überfällig)' : ''}`,
  note: (note: string) => `Notiz: ${note}`,
  hash: (hash: string) => `SHA-256: ${hash}`,
  previous: (hash: string | null) => `Vorheriger Eintrag: ${hash ?? 'keiner (erster Eintrag)'}`,
} as const;

/** A flow entry that must stand on the same page as the one after it (a heading and its text). */
interface Piece extends Entry {
  keep?: boolean;
}

const HEADING_SIZE = 12;
const BODY_SIZE = 9.5;
const TEXT_SIZE = 10;
const HASH_SIZE = 7;
/** A gap no page has room for: the entry starts the next page (a gap at a page's top is left out). */
const NEW_PAGE = 1e6;

/** "2026-04-01" → "01.04.2026"; a calendar date has no time zone. */
const calendarDate = (date: string) => date.split('-').reverse().join('.');

const procedureLabel = (procedure: string | null) =>
  procedure === null ? NONE : ((PROCEDURE_LABELS as Record<string, string>)[procedure] ?? procedure);

/** The entries of one resolution: heading, facts, text, result, documents, follow-up, chain. */
function sectionOf(
  resolution: Resolution,
  fonts: Fonts,
  mono: { font: PDFFont; clean(text: string): string },
  timeZone: string,
): Piece[] {
  const block = (lines: readonly string[], font: PDFFont, size: number, gap: number, keep = false) =>
    textEntries(fonts, {
      x: LEFT,
      textX: LEFT,
      text: lines.join('\n'),
      font,
      size,
      color: grayscale(font === fonts.bold ? 0 : 0.15),
      gap,
    }).map((piece): Piece => ({ ...piece, keep }));
  const label = (text: string) => block([text], fonts.bold, BODY_SIZE, 7, true);

  const heading: Piece = {
    ...entry(fonts, {
      x: LEFT,
      textX: LEFT,
      text: REGISTER_TEXT.title(resolution.number, resolution.title),
      font: fonts.bold,
      size: HEADING_SIZE,
      gap: 22,
      pageNumber: false,
    }),
    keep: true,
  };
  const facts = [
    ...(resolution.corrects ? [REGISTER_TEXT.corrects(resolution.corrects.number)] : []),
    REGISTER_TEXT.committee(resolution.committee.name),
    REGISTER_TEXT.established(
      formatShortDate(resolution.established_at, timeZone),
      formatClock(resolution.established_at, timeZone),
      resolution.established_by,
    ),
    REGISTER_TEXT.procedure(procedureLabel(resolution.procedure)),
    REGISTER_TEXT.mode(resolution.mode ? MODE[resolution.mode] : NONE),
  ];

  const { counts, names } = resolution;
  const result = [
    resolution.reason,
    ...(counts ? [CHOICES.map((choice) => `${CHOICE_LABELS[choice]} ${counts[choice]}`).join(' · ')] : []),
    ...(resolution.mode === 'namentlich' && names
      ? CHOICES.flatMap((choice) => {
          const voters = names.filter((vote) => vote.choice === choice).map((vote) => vote.name);
          return voters.length > 0 ? [`${CHOICE_LABELS[choice]}: ${voters.join(', ')}`] : [];
        })
      : []),
    ...(resolution.conflicts.length > 0 ? [REGISTER_TEXT.conflicts(resolution.conflicts)] : []),
  ];

  const followUp = resolution.follow_up;
  const followUpLines = followUp
    ? [
        ...(followUp.responsible ? [REGISTER_TEXT.responsible(followUp.responsible.name)] : []),
        ...(followUp.due_on ? [REGISTER_TEXT.due(calendarDate(followUp.due_on))] : []),
        REGISTER_TEXT.status(
          FOLLOW_UP_STATE_LABELS[followUp.status],
          followUp.overdue && followUp.status === 'offen',
        ),
        ...(followUp.note.trim() !== '' ? [REGISTER_TEXT.note(followUp.note)] : []),
      ]
    : [];

  // The chain in a fixed-width font, one line each where it fits, else broken between characters.
  const chain = [REGISTER_TEXT.hash(resolution.hash), REGISTER_TEXT.previous(resolution.previous_hash)];
  const chainLines = chain.flatMap((line) => wrap(mono.clean(line), mono.font, HASH_SIZE, RIGHT - LEFT));

  return [
    heading,
    ...block(facts, fonts.regular, BODY_SIZE, 4, true),
    ...label(REGISTER_TEXT.text),
    ...block([resolution.text], fonts.regular, TEXT_SIZE, 2),
    ...label(REGISTER_TEXT.result),
    ...block(result, fonts.regular, BODY_SIZE, 2),
    ...(resolution.files.length > 0
      ? [
          ...label(REGISTER_TEXT.files),
          ...block(
            resolution.files.map((file) => `• ${file.name}`),
            fonts.regular,
            BODY_SIZE,
            2,
          ),
        ]
      : []),
    ...(followUp
      ? [...label(REGISTER_TEXT.followUp), ...block(followUpLines, fonts.regular, BODY_SIZE, 2)]
      : []),
    {
      x: LEFT,
      textX: LEFT,
      lines: chainLines,
      font: mono.font,
      size: HASH_SIZE,
      color: grayscale(0.4),
      gap: 8,
      page: 0,
      top: 0,
    },
  ];
}

/**
 * Pages for the pieces, so that no piece marked `keep` ends a page: the first of such a run then
 * starts the next page. Answers the number of pages.
 */
function layout(pieces: Piece[]): number {
  let from = 0;
  for (;;) {
    const pages = paginate(pieces);
    let split = -1;
    for (let index = from; index < pieces.length - 1; index += 1) {
      if (pieces[index]!.keep && pieces[index + 1]!.page !== pieces[index]!.page) {
        split = index;
        break;
      }
    }
    if (split < 0) return pages;
    let start = split;
    while (start > 0 && pieces[start - 1]!.keep) start -= 1;
    const atTop = start === 0 || pieces[start - 1]!.page !== pieces[start]!.page;
    // A run that fills a whole page cannot be kept together; it stays where it is.
    if (!atTop) pieces[start]!.gap = NEW_PAGE;
    from = split + 1;
  }
}

/** The cover: the register's name, what it shows, how many entries, for whom and when. */
function drawCover(page: PDFPage, fonts: Fonts, input: RegisterPdfInput): void {
  page.drawText(REGISTER_TEXT.heading, { x: LEFT, y: TOP - 36, size: 28, font: fonts.bold });
  const labelLines = wrap(fonts.clean(input.filterLabel), fonts.regular, 16, RIGHT - LEFT, 3);
  labelLines.forEach((line, index) => {
    page.drawText(line, { x: LEFT, y: TOP - 70 - index * 21, size: 16, font: fonts.regular });
  });
  let y = TOP - 70 - (labelLines.length - 1) * 21 - 30;
  page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.8, color: grayscale(0.6) });
  y -= 32;
  page.drawText(REGISTER_TEXT.count(input.resolutions.length), { x: LEFT, y, size: 13, font: fonts.regular });
  const created = REGISTER_TEXT.createdFor(
    formatLongDate(input.generatedAt, input.timeZone),
    input.viewerName,
  );
  wrap(fonts.clean(created), fonts.regular, 10, RIGHT - LEFT, 3).forEach((line, index) => {
    page.drawText(line, {
      x: LEFT,
      y: y - 24 - index * 14,
      size: 10,
      font: fonts.regular,
      color: grayscale(0.25),
    });
  });
  const note = wrap(fonts.clean(REGISTER_TEXT.confidential), fonts.regular, 9, RIGHT - LEFT, 5);
  note.forEach((line, index) => {
    page.drawText(line, {
      x: LEFT,
      y: 84 + (note.length - 1 - index) * 12,
      size: 9,
      font: fonts.regular,
      color: grayscale(0.35),
    });
  });
}

/** The Beschlussbuch (or the part the filter shows) as a PDF for `viewerName`. */
export async function registerPdf(input: RegisterPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(REGISTER_TEXT.heading);
  doc.setSubject(input.filterLabel);
  doc.setLanguage('de-DE');
  doc.setCreator('Gremienportal');
  doc.setProducer('Gremienportal');
  doc.setCreationDate(new Date(input.generatedAt));
  doc.setModificationDate(new Date(input.generatedAt));
  const fonts = await embedFonts(doc);
  const courier = await doc.embedFont(StandardFonts.Courier);
  const inCourier = encoderOf(courier.getCharacterSet());
  const mono = { font: courier, clean: (text: string) => pdfText(text, inCourier) };

  const cover = doc.addPage(A4);
  drawCover(cover, fonts, input);
  if (input.resolutions.length > 0) {
    const pieces = input.resolutions.flatMap((resolution) =>
      sectionOf(resolution, fonts, mono, input.timeZone),
    );
    const pages = Array.from({ length: layout(pieces) }, () => doc.addPage(A4));
    const label = fonts.clean(input.filterLabel);
    pages.forEach((page, index) =>
      drawHeading(page, fonts, index === 0 ? label : REGISTER_TEXT.continued(label)),
    );
    for (const piece of pieces) drawEntry(doc, pages[piece.page]!, fonts, piece);
  }

  const all = doc.getPages();
  const footer = REGISTER_TEXT.footer(
    fonts.clean(input.viewerName),
    formatShortDate(input.generatedAt, input.timeZone),
  );
  all.forEach((page, index) =>
    drawFooter(page, fonts, `${footer} · ${BOOK_TEXT.pageOf(index + 1, all.length)}`),
  );
  return doc.save();
}
