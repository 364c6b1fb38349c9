import { grayscale, PDFDocument } from 'pdf-lib';
import { BOOK_TEXT, formatClock, formatLongDate, formatShortDate } from './book-text.ts';
import { A4, LEFT } from './flow.ts';
import { markdownBlocks } from './markdown-blocks.ts';
import { drawFrames, drawItem, embedStyles, Flow, INDENT, plain } from './minutes-layout.ts';
import { watermark } from './minutes-watermark.ts';
import { drawFooter } from './page-marks.ts';

/*
 * The Niederschrift as PDF (decision 193): the header facts and the attendance, then one section
 * per agenda item with its documents, its Markdown text and its resolutions in frames, and when
 * sealing a last page with the signatures. A draft carries "ENTWURF" on every page and names its
 * reader in the footer; the final text names no reader, since one PDF is signed for everybody.
 */

export interface MinutesResolution {
  /** "AR 2026/03"; null before the Beschlussbuch gave one ("ohne Nummer"). */
  number: string | null;
  title: string;
  /** The resolution's text, verbatim; its line breaks are kept. */
  text: string;
  /** The result sentence: "Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung." */
  result: string;
  /** "Ja 5 · Nein 2 · Enthaltung 1", printed after "Stimmen:". */
  counts: string | null;
  /** "Ja: A, B; Nein: C", printed after "Namentliche Abstimmung:". */
  names: string | null;
  /** "Jürgen Weiß", printed after "Wegen eines Interessenkonflikts nicht beteiligt:". */
  conflicts: string | null;
}

export interface MinutesSection {
  /** The agenda item's number: "2.1". */
  number: string;
  title: string;
  /** Names of the documents the section refers to. */
  documents: string[];
  /** Markdown: # to ### headings, paragraphs, lists, bold, italic; anything else is literal text. */
  body: string;
  resolutions: MinutesResolution[];
}

export interface MinutesSignature {
  name: string;
  /** The function held on the meeting's day: "Vorsitzende des Aufsichtsrats". */
  function: string;
  /** ISO timestamp. */
  signedAt: string;
  /** "Passwort und zweiter Faktor". */
  method: string;
}

export interface MinutesDocument {
  /** "Niederschrift über die Sitzung des Aufsichtsrats"; also the PDF's title. */
  title: string;
  header: {
    committee: string;
    /** "Präsenzsitzung", "Videokonferenz", … */
    form: string;
    /** ISO: a calendar date ("2026-03-12") or a timestamp. */
    date: string;
    /** ISO timestamps or "18:00"; null is shown as "—". */
    start: string | null;
    end: string | null;
    place: string;
    chair: string;
    secretary: string;
  };
  attendance: { present: string[]; excused: string[]; absent: string[]; guests: string[] };
  sections: MinutesSection[];
  /** The signatures page, when sealing. */
  signatures?: MinutesSignature[];
  /** SHA-256 of the frozen PDF that was signed, printed on the signatures page. */
  documentHash?: string;
}

export interface MinutesPdfOptions {
  draft: boolean;
  /** Who the draft is made for (named in a draft's footer). */
  reader: string;
  /** ISO timestamp of the rendering (PDF dates, a draft's footer). */
  createdAt: string;
  timeZone: string;
}

const NONE = '—';

export const MINUTES_TEXT = {
  watermark: 'ENTWURF',
  facts: {
    committee: 'Gremium',
    form: 'Form der Sitzung',
    date: 'Datum',
    start: 'Beginn',
    end: 'Ende',
    place: 'Ort',
    chair: 'Vorsitz',
    secretary: 'Protokollführung',
  },
  attendanceHeading: 'Anwesenheit',
  attendance: { present: 'Anwesend', excused: 'Entschuldigt', absent: 'Abwesend', guests: 'Gäste' },
  item: BOOK_TEXT.item,
  documents: 'Unterlagen:',
  resolution: (number: string | null, title: string) => `Beschluss ${number ?? 'ohne Nummer'} – ${title}`,
  result: 'Ergebnis: ',
  counts: 'Stimmen: ',
  names: 'Namentliche Abstimmung: ',
  conflicts: 'Wegen eines Interessenkonflikts nicht beteiligt: ',
  clock: (time: string) => `${time} Uhr`,
  signatures: 'Unterschriften',
  signaturesIntro: 'Die Niederschrift wurde elektronisch unterzeichnet von:',
  noSignatures: 'Keine Unterschriften.',
  function: 'Funktion: ',
  signedAt: (date: string, time: string) => `Unterzeichnet am ${date} um ${time} Uhr`,
  method: 'Verfahren: ',
  hash: (hash: string) => `SHA-256 des Dokuments: ${hash}`,
  draftFooter: (reader: string, date: string, time: string) =>
    `Entwurf – erstellt für ${reader} am ${date} um ${time} Uhr`,
  finalFooter: (committee: string, date: string) => `Niederschrift · ${committee} · ${date}`,
  /** The signatures page is an annex: the pages before it keep the numbers they had when signed. */
  signaturesFooter: (pages: number) => `Unterschriften – Anlage zu Seite 1 bis ${pages} der Niederschrift`,
} as const;

// -- The document ------------------------------------------------------------------------------

const BLACK = grayscale(0);
const HEADING_SIZES = { 1: 13, 2: 12, 3: 11 } as const;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const CLOCK = /^\d{1,2}:\d{2}$/;

/** A date or time as the formatter gives it, or the text as it came when it is no date. */
function when(iso: string, timeZone: string, format: (iso: string, timeZone: string) => string): string {
  // A calendar date has no time zone: noon UTC is the same day everywhere it is shown.
  if (CALENDAR_DATE.test(iso)) return format(`${iso}T12:00:00Z`, 'UTC');
  return Number.isNaN(Date.parse(iso)) ? iso : format(iso, timeZone);
}

function clockOf(value: string | null, timeZone: string): string {
  if (value === null || value.trim() === '') return NONE;
  if (CLOCK.test(value.trim())) return MINUTES_TEXT.clock(value.trim());
  return Number.isNaN(Date.parse(value)) ? value : MINUTES_TEXT.clock(formatClock(value, timeZone));
}

const names = (list: readonly string[]) => (list.length === 0 ? NONE : list.join(', '));

function titleBlock(flow: Flow, doc: MinutesDocument, timeZone: string): void {
  const { header, attendance } = doc;
  const facts = MINUTES_TEXT.facts;
  flow.block(plain(doc.title, true), { size: 18, gap: 0, heading: true, color: BLACK });
  const rows: [string, string][] = [
    [facts.committee, header.committee],
    [facts.form, header.form],
    [facts.date, when(header.date, timeZone, formatLongDate)],
    [facts.start, clockOf(header.start, timeZone)],
    [facts.end, clockOf(header.end, timeZone)],
    [facts.place, header.place],
    [facts.chair, header.chair],
    [facts.secretary, header.secretary],
  ];
  rows.forEach(([label, value], index) =>
    flow.labelled(label, value.trim() === '' ? NONE : value, { size: 10, gap: index === 0 ? 16 : 3 }),
  );
  flow.block(plain(MINUTES_TEXT.attendanceHeading, true), { size: 12, gap: 18, heading: true, color: BLACK });
  const labels = MINUTES_TEXT.attendance;
  (['present', 'excused', 'absent', 'guests'] as const).forEach((key, index) =>
    flow.labelled(labels[key], names(attendance[key]), { size: 10, gap: index === 0 ? 4 : 3 }),
  );
}

function resolutionBlock(flow: Flow, resolution: MinutesResolution): void {
  const labelled = (label: string, value: string | null, gap: number) => {
    if (value === null || value.trim() === '') return;
    flow.block([{ text: label, bold: true, italic: false }, ...plain(value)], { size: 9.5, gap });
  };
  flow.framed(() => {
    flow.block(plain(MINUTES_TEXT.resolution(resolution.number, resolution.title), true), {
      size: 10.5,
      gap: 12,
      heading: true,
      color: BLACK,
    });
    flow.block(plain(resolution.text.trim()), { size: 10, gap: 5 });
    labelled(MINUTES_TEXT.result, resolution.result, 7);
    labelled(MINUTES_TEXT.counts, resolution.counts, 2);
    labelled(MINUTES_TEXT.names, resolution.names, 2);
    labelled(MINUTES_TEXT.conflicts, resolution.conflicts, 2);
  });
}

function sectionBlock(flow: Flow, section: MinutesSection): void {
  flow.block(plain(MINUTES_TEXT.item(section.number, section.title), true), {
    size: 14,
    gap: 26,
    heading: true,
    color: BLACK,
  });
  if (section.documents.length > 0) {
    flow.block(plain(MINUTES_TEXT.documents, true), { size: 9.5, gap: 6, heading: true });
    for (const name of section.documents) {
      flow.block(plain(name), { x: LEFT + INDENT, size: 9.5, gap: 1, marker: '•' });
    }
  }
  for (const block of markdownBlocks(section.body)) {
    if (block.kind === 'heading') {
      const size = HEADING_SIZES[block.level];
      flow.block(block.spans, { size, gap: size, heading: true, color: BLACK });
    } else {
      const gap = block.depth === 0 ? 7 : block.marker === null ? 2 : 3;
      flow.block(block.spans, {
        x: LEFT + Math.min(block.depth, 8) * INDENT,
        size: 10,
        gap,
        ...(block.marker === null ? {} : { marker: block.marker }),
      });
    }
  }
  for (const resolution of section.resolutions) resolutionBlock(flow, resolution);
}

function signaturesBlock(flow: Flow, doc: MinutesDocument, timeZone: string): void {
  const signatures = doc.signatures ?? [];
  flow.block(plain(MINUTES_TEXT.signatures, true), { size: 16, gap: 0, heading: true, newPage: true });
  flow.block(plain(signatures.length === 0 ? MINUTES_TEXT.noSignatures : MINUTES_TEXT.signaturesIntro), {
    size: 10,
    gap: 10,
  });
  for (const signature of signatures) {
    flow.block(plain(signature.name, true), { size: 10.5, gap: 16, heading: true, color: BLACK });
    flow.block([{ text: MINUTES_TEXT.function, bold: true, italic: false }, ...plain(signature.function)], {
      size: 10,
      gap: 2,
    });
    const signedAt = MINUTES_TEXT.signedAt(
      when(signature.signedAt, timeZone, formatShortDate),
      when(signature.signedAt, timeZone, formatClock),
    );
    flow.block(plain(signedAt), { size: 10, gap: 2 });
    flow.block([{ text: MINUTES_TEXT.method, bold: true, italic: false }, ...plain(signature.method)], {
      size: 10,
      gap: 2,
    });
  }
  if (doc.documentHash) flow.block(plain(MINUTES_TEXT.hash(doc.documentHash)), { size: 9, gap: 24 });
}

/** The Niederschrift as PDF: a draft for `reader`, or the final text to be signed and sealed. */
export async function renderMinutesPdf(
  doc: MinutesDocument,
  options: MinutesPdfOptions,
): Promise<Uint8Array> {
  const { timeZone } = options;
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const day = when(doc.header.date, timeZone, formatShortDate);
  pdf.setTitle(doc.title);
  pdf.setSubject(`${doc.header.committee} · ${day}${options.draft ? ` · ${MINUTES_TEXT.watermark}` : ''}`);
  pdf.setLanguage('de-DE');
  pdf.setCreator('Gremienportal');
  pdf.setProducer('Gremienportal');
  pdf.setCreationDate(new Date(options.createdAt));
  pdf.setModificationDate(new Date(options.createdAt));
  const styles = await embedStyles(pdf);

  const flow = new Flow(styles);
  titleBlock(flow, doc, timeZone);
  for (const section of doc.sections) sectionBlock(flow, section);
  const signaturesFrom = flow.items.length;
  if (doc.signatures) signaturesBlock(flow, doc, timeZone);
  const total = flow.paginate();
  const contentPages = doc.signatures ? flow.items[signaturesFrom]!.page : total;

  const mark = options.draft ? await watermark(MINUTES_TEXT.watermark, styles) : undefined;
  const pages = Array.from({ length: total }, () => {
    const page = pdf.addPage(A4);
    mark?.(page);
    return page;
  });
  drawFrames(pages, flow.items);
  for (const item of flow.items) drawItem(pages[item.page]!, item);

  const lead = options.draft
    ? MINUTES_TEXT.draftFooter(
        styles.clean(options.reader),
        formatShortDate(options.createdAt, timeZone),
        formatClock(options.createdAt, timeZone),
      )
    : MINUTES_TEXT.finalFooter(styles.clean(doc.header.committee), day);
  pages.forEach((page, index) => {
    const text =
      index < contentPages
        ? `${lead} · ${BOOK_TEXT.pageOf(index + 1, contentPages)}`
        : [
            ...(options.draft ? [lead] : []),
            MINUTES_TEXT.signaturesFooter(contentPages),
            BOOK_TEXT.pageOf(index - contentPages + 1, total - contentPages),
          ].join(' · ');
    drawFooter(page, styles.base, text);
  });
  return pdf.save();
}
