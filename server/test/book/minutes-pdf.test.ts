import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { markdownBlocks, type MarkdownBlock } from '../../src/book/markdown-blocks.ts';
import {
  renderMinutesPdf,
  type MinutesDocument,
  type MinutesPdfOptions,
  type MinutesResolution,
} from '../../src/book/minutes-pdf.ts';
import { readPdf } from '../support/pdf-reader.ts';

/** The Niederschrift as PDF (decision 193): header, attendance, sections, resolutions, signatures. */

const TITLE = 'Niederschrift über die Sitzung des Aufsichtsrats';
const HASH = createHash('sha256').update('eingefrorene Niederschrift').digest('hex');
const FINAL_FOOTER = /Niederschrift · Aufsichtsrat · 12\.03\.2026 · Seite \d+ von \d+/g;

const options = (overrides: Partial<MinutesPdfOptions> = {}): MinutesPdfOptions => ({
  draft: false,
  reader: 'Erika Muster',
  createdAt: '2026-03-13T10:00:00.000Z',
  timeZone: 'Europe/Berlin',
  ...overrides,
});

const resolution = (overrides: Partial<MinutesResolution> = {}): MinutesResolution => ({
  number: 'AR 2026/01',
  title: 'Feststellung des Jahresabschlusses 2025',
  text: 'Der Aufsichtsrat billigt den vom Vorstand aufgestellten Jahresabschluss 2025.\nDer Jahresabschluss ist damit festgestellt.',
  result: 'Angenommen mit 5 Ja- gegen 1 Nein-Stimme bei 1 Enthaltung.',
  counts: 'Ja 5 · Nein 1 · Enthaltung 1',
  names: null,
  conflicts: null,
  ...overrides,
});

function small(): MinutesDocument {
  return {
    title: TITLE,
    header: {
      committee: 'Aufsichtsrat',
      form: 'Präsenzsitzung',
      date: '2026-03-12',
      start: '2026-03-12T17:00:00.000Z',
      end: '2026-03-12T19:30:00.000Z',
      place: 'Geschäftsstelle, Hauptstraße 1, Musterstadt',
      chair: 'Łucja Wąsowska',
      secretary: 'Şahin Öztürk',
    },
    attendance: {
      present: ['Łucja Wąsowska', 'Şahin Öztürk', 'Erika Muster'],
      excused: ['Zoë Brontë'],
      absent: [],
      guests: [],
    },
    sections: [
      {
        number: '1',
        title: 'Eröffnung und Begrüßung',
        documents: ['Einladung.pdf', 'Tagesordnung.pdf'],
        body: [
          '# Feststellungen',
          '',
          'Die Vorsitzende eröffnet die Sitzung mit **fettem Wort** und *schrägem Wort* und ***beidem***.',
          '',
          '- erster Punkt',
          '- zweiter Punkt',
          '  1. Unterpunkt eins',
          '  2. Unterpunkt zwei',
          '',
          '## Beschlussfähigkeit',
          '',
          'Der Aufsichtsrat ist beschlussfähig.',
        ].join('\n'),
        resolutions: [
          resolution({
            conflicts: 'Jürgen Weiß',
            names: 'Ja: Łucja Wąsowska, Şahin Öztürk; Nein: Zoë Brontë',
          }),
          resolution({
            number: null,
            title: 'Vertagung',
            text: 'Die Beratung über die Satzungsänderung wird auf die nächste Sitzung vertagt.',
            result: 'Angenommen.',
            counts: null,
          }),
        ],
      },
      {
        number: '2',
        title: 'Verschiedenes',
        documents: [],
        body: 'Eingabe eines Mitglieds: <script>alert(1)</script> und <b>x</b> bleiben Text.\n\n#### Keine Überschrift',
        resolutions: [],
      },
    ],
  };
}

/** Runs of white space as one space, as pdf.js reads the lines of a page. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

async function render(doc: MinutesDocument, overrides: Partial<MinutesPdfOptions> = {}) {
  const bytes = await renderMinutesPdf(doc, options(overrides));
  const read = await readPdf(bytes);
  const pages = read.pages.map(flat);
  // The text without the final footers, so that a text running over a page break reads on.
  const content = flat(pages.map((page) => page.replace(FINAL_FOOTER, ' ')).join(' '));
  return { bytes, pages, content };
}

async function pdftotext(bytes: Uint8Array): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'niederschrift-'));
  try {
    const file = join(dir, 'niederschrift.pdf');
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('pdftotext', ['-enc', 'UTF-8', file, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.split('\f').slice(0, -1); // one form feed after each page
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each piece of text on a page with the name of its font, as pdf.js reads them. */
async function styledText(bytes: Uint8Array, pageNumber: number): Promise<{ text: string; font: string }[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const page = await pdf.getPage(pageNumber);
  await page.getOperatorList(); // loads the fonts
  const { items } = await page.getTextContent();
  return items.flatMap((item) =>
    'str' in item && item.str.trim() !== ''
      ? [{ text: item.str, font: (page.commonObjs.get(item.fontName) as { name: string }).name }]
      : [],
  );
}

const words = (count: number, seed: number) =>
  Array.from(
    { length: count },
    (_, i) => ['Vorstand', 'berichtet', 'über', 'die', 'Lage', 'der'][(i + seed) % 6],
  ).join(' ');

/** 20 sections of about two pages of text with 20 resolutions each, of varying lengths. */
function large(): MinutesDocument {
  const doc = small();
  doc.sections = Array.from({ length: 20 }, (_, s) => {
    const n = s + 1;
    const paragraphs = Array.from(
      { length: 12 + (n % 5) },
      (_, p) => `${words(90 + ((n * 7 + p * 13) % 50), p)}.`,
    );
    return {
      number: String(n),
      title: `Abschnitt ${n}`,
      documents: n % 3 === 0 ? [] : [`Vorlage ${n}.pdf`],
      body: [
        `Anfang des Abschnitts ${n}. ${paragraphs[0]}`,
        `## Zwischenüberschrift ${n}`,
        `Nach der Zwischenüberschrift ${n}. ${paragraphs[1]}`,
        `- Punkt mit **Betonung** ${n}`,
        `- Punkt mit *Hinweis* ${n}`,
        ...paragraphs.slice(2),
      ].join('\n\n'),
      resolutions: Array.from({ length: 20 }, (_, r) => {
        const number = `AR 2026/${n}-${r + 1}`;
        return resolution({
          number,
          title: `Vorlage ${n}.${r + 1}`,
          text: `Anfang des Beschlusstexts ${number}. ${'Der Aufsichtsrat stimmt dem Vorschlag des Vorstands zu. '.repeat(1 + ((n + r * 3) % 9))}`.trim(),
        });
      }),
    };
  });
  return doc;
}

const spans = (blocks: MarkdownBlock[]) =>
  blocks.map((block) => block.spans.map((span) => span.text).join(''));

describe('markdownBlocks', () => {
  it('reads headings, paragraphs, lists, bold and italic', () => {
    const blocks = markdownBlocks(
      '# Eins\n\n## Zwei\n\n### Drei\n\nText **fett** *schräg*\n\n- a\n- b\n\n3. c\n4. d',
    );
    expect(blocks.map((block) => (block.kind === 'heading' ? `h${block.level}` : block.marker))).toEqual([
      'h1',
      'h2',
      'h3',
      null,
      '•',
      '•',
      '3.',
      '4.',
    ]);
    expect(blocks[3]!.spans).toEqual([
      { text: 'Text ', bold: false, italic: false },
      { text: 'fett', bold: true, italic: false },
      { text: ' ', bold: false, italic: false },
      { text: 'schräg', bold: false, italic: true },
    ]);
  });

  it('numbers a list as the preview does and nests lists', () => {
    const blocks = markdownBlocks('1. a\n1. b\n   - c');
    expect(blocks.map((block) => (block.kind === 'paragraph' ? [block.marker, block.depth] : null))).toEqual([
      ['1.', 1],
      ['2.', 1],
      ['•', 2],
    ]);
  });

  it('keeps everything else as the characters that were typed', () => {
    const source = [
      '<script>alert(1)</script> <b>x</b> <img src=x onerror=alert(1)>',
      '',
      '#### Vier',
      '',
      '[Link](javascript:alert(1)) `code` > kein Zitat',
      '',
      '> Zitat',
      '',
      '---',
      '',
      '| a | b |',
    ].join('\n');
    expect(spans(markdownBlocks(source))).toEqual([
      '<script>alert(1)</script> <b>x</b> <img src=x onerror=alert(1)>',
      '#### Vier',
      '[Link](javascript:alert(1)) `code` > kein Zitat',
      '> Zitat',
      '---',
      '| a | b |',
    ]);
    // Escaped markers are the characters themselves, not emphasis.
    expect(markdownBlocks('\\*kein Stern\\*')[0]!.spans).toEqual([
      { text: '*kein Stern*', bold: false, italic: false },
    ]);
  });

  it('shows a text nested too deep for the parser as typed, losing nothing', () => {
    const source = `${'- '.repeat(40)}tief unten\n\nDanach weiter.`;
    const text = spans(markdownBlocks(source)).join('\n');
    expect(text).toContain('tief unten');
    expect(text).toContain('Danach weiter.');
  });
});

describe('renderMinutesPdf', () => {
  it('shows the header facts, the attendance and the title as metadata', async () => {
    const { bytes, pages } = await render(small());
    expect(pages[0]).toContain(TITLE);
    for (const fact of [
      'Gremium Aufsichtsrat',
      'Form der Sitzung Präsenzsitzung',
      'Datum Donnerstag, 12. März 2026',
      'Beginn 18:00 Uhr',
      'Ende 20:30 Uhr',
      'Ort Geschäftsstelle, Hauptstraße 1, Musterstadt',
      'Vorsitz Łucja Wąsowska',
      'Protokollführung Şahin Öztürk',
      'Anwesenheit',
      'Anwesend Łucja Wąsowska, Şahin Öztürk, Erika Muster',
      'Entschuldigt Zoë Brontë',
      'Abwesend —',
      'Gäste —',
    ]) {
      expect(pages[0]).toContain(fact);
    }
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe(TITLE);

    // A reader outside the portal sees the same letters.
    const text = (await pdftotext(bytes)).join('');
    for (const name of ['Łucja Wąsowska', 'Şahin Öztürk', 'Zoë Brontë', 'Jürgen Weiß', 'Protokollführung']) {
      expect(text).toContain(name);
    }
  });

  it('shows each section with its documents, its Markdown as text and its resolutions verbatim', async () => {
    const doc = small();
    const { bytes, content } = await render(doc);
    expect(content).toContain('TOP 1 – Eröffnung und Begrüßung');
    expect(content).toContain('Unterlagen: • Einladung.pdf • Tagesordnung.pdf');
    expect(content).toContain('TOP 2 – Verschiedenes');
    expect(content).not.toMatch(/Unterlagen: (?!• Einladung)/); // section 2 has none

    expect(content).toContain(
      'Feststellungen Die Vorsitzende eröffnet die Sitzung mit fettem Wort und schrägem Wort und beidem.',
    );
    expect(content).toContain('• erster Punkt • zweiter Punkt 1. Unterpunkt eins 2. Unterpunkt zwei');
    expect(content).toContain('Beschlussfähigkeit Der Aufsichtsrat ist beschlussfähig.');
    expect(content).not.toContain('*');
    expect(content).not.toMatch(/(^| )#+ (Feststellungen|Beschlussfähigkeit)/);
    // HTML is never interpreted, and a fourth-level heading is text as typed.
    expect(content).toContain(
      'Eingabe eines Mitglieds: <script>alert(1)</script> und <b>x</b> bleiben Text.',
    );
    expect(content).toContain('#### Keine Überschrift');

    // Bold and italic are drawn in their fonts.
    const styled = await styledText(bytes, 1);
    const fontOf = (text: string) => styled.find((item) => item.text.includes(text))?.font;
    expect(fontOf('fettem Wort')).toBe('GPMAPP+NotoSans-Bold');
    expect(fontOf('schrägem Wort')).toBe('GPMAPP+NotoSans-Italic');
    expect(fontOf('beidem')).toBe('GPMAPP+NotoSans-BoldItalic');
    expect(fontOf('Die Vorsitzende eröffnet')).toBe('GPMAPP+NotoSans-Regular');

    for (const r of doc.sections[0]!.resolutions) {
      expect(content).toContain(`Beschluss ${r.number ?? 'ohne Nummer'} – ${r.title}`);
      expect(content).toContain(flat(r.text));
      expect(content).toContain(`Ergebnis: ${r.result}`);
    }
    expect(content).toContain('Stimmen: Ja 5 · Nein 1 · Enthaltung 1');
    expect(content).toContain('Namentliche Abstimmung: Ja: Łucja Wąsowska, Şahin Öztürk; Nein: Zoë Brontë');
    expect(content).toContain('Wegen eines Interessenkonflikts nicht beteiligt: Jürgen Weiß');
    expect(content.match(/Stimmen: /g)).toHaveLength(1); // the second resolution has no counts
  });

  it('marks every page of a draft with ENTWURF and its reader, and no page of the final text', async () => {
    const doc = large();
    const draft = await render(doc, { draft: true });
    expect(draft.pages.length).toBeGreaterThan(1);
    draft.pages.forEach((page, index) => {
      expect(page, `page ${index + 1}`).toContain('ENTWURF');
      expect(page).toContain('Entwurf – erstellt für Erika Muster am 13.03.2026 um 11:00 Uhr');
      expect(page).toContain(`Seite ${index + 1} von ${draft.pages.length}`);
    });
    const draftText = await pdftotext(draft.bytes);
    expect(draftText).toHaveLength(draft.pages.length);
    draftText.forEach((page, index) => expect(page, `pdftotext page ${index + 1}`).toContain('ENTWURF'));

    const final = await render(doc);
    expect(final.pages).toHaveLength(draft.pages.length);
    final.pages.forEach((page, index) => {
      expect(page).not.toMatch(/entwurf/i);
      expect(page).not.toContain('Erika Muster am');
      expect(page).toContain(
        `Niederschrift · Aufsichtsrat · 12.03.2026 · Seite ${index + 1} von ${final.pages.length}`,
      );
    });
    for (const page of await pdftotext(final.bytes)) expect(page).not.toMatch(/entwurf/i);
  });

  it('adds the signatures page with the hash, leaving the pages before it as they were', async () => {
    const unsigned = await render(small());
    const doc: MinutesDocument = {
      ...small(),
      signatures: [
        {
          name: 'Łucja Wąsowska',
          function: 'Vorsitzende des Aufsichtsrats',
          signedAt: '2026-03-20T09:15:00.000Z',
          method: 'Passwort und zweiter Faktor',
        },
        {
          name: 'Şahin Öztürk',
          function: 'Protokollführer',
          signedAt: '2026-06-02T16:05:00.000Z',
          method: 'Passwort und zweiter Faktor',
        },
      ],
      documentHash: HASH,
    };
    const signed = await render(doc);
    expect(signed.pages).toHaveLength(unsigned.pages.length + 1);
    expect(signed.pages.slice(0, -1)).toEqual(unsigned.pages);
    expect(unsigned.content).not.toContain('Unterschriften');

    const last = signed.pages.at(-1)!;
    expect(last).toContain('Unterschriften');
    expect(last).toContain('Łucja Wąsowska Funktion: Vorsitzende des Aufsichtsrats');
    expect(last).toContain('Unterzeichnet am 20.03.2026 um 10:15 Uhr'); // CET
    expect(last).toContain('Şahin Öztürk Funktion: Protokollführer');
    expect(last).toContain('Unterzeichnet am 02.06.2026 um 18:05 Uhr'); // CEST
    expect(last).toContain('Verfahren: Passwort und zweiter Faktor');
    expect(last).toContain(`SHA-256 des Dokuments: ${HASH}`);
    expect(last).toContain(
      `Unterschriften – Anlage zu Seite 1 bis ${unsigned.pages.length} der Niederschrift`,
    );
    expect((await pdftotext(signed.bytes)).at(-1)).toContain(`SHA-256 des Dokuments: ${HASH}`);
  });

  // How long it takes is the bench's question; the time is printed here, not asserted.
  it('renders 20 sections with 20 resolutions each, never parting a heading from its text', async () => {
    const doc = large();
    await renderMinutesPdf(doc, options()); // the fonts are read and parsed once per process
    const started = performance.now();
    const bytes = await renderMinutesPdf(doc, options({ draft: true }));
    const elapsed = performance.now() - started;
    const { pages } = await readPdf(bytes).then((read) => ({ pages: read.pages.map(flat) }));
    console.log(
      `Niederschrift 20×20: ${pages.length} pages, ${(bytes.length / 1024).toFixed(0)} KiB in ${elapsed.toFixed(0)} ms`,
    );
    expect(pages.length).toBeGreaterThan(100);

    const pageOf = (text: string) => {
      const index = pages.findIndex((page) => page.includes(text));
      expect(index, text).toBeGreaterThanOrEqual(0);
      return index;
    };
    let previous = 0;
    for (const section of doc.sections) {
      const heading = pageOf(`TOP ${section.number} – ${section.title} `);
      expect(heading).toBeGreaterThanOrEqual(previous);
      const first = section.documents[0] ?? `Anfang des Abschnitts ${section.number}.`;
      expect(pageOf(first), section.title).toBe(heading);
      const inner = `Zwischenüberschrift ${section.number} Nach der Zwischenüberschrift ${section.number}.`;
      expect(pages[pageOf(`Zwischenüberschrift ${section.number} `)]).toContain(inner);
      for (const r of section.resolutions) {
        const title = pageOf(`Beschluss ${r.number} – ${r.title} `);
        expect(pageOf(`Anfang des Beschlusstexts ${r.number}.`), r.number!).toBe(title);
        previous = title;
      }
    }
  });

  it('gives the same bytes for the same document, as the frozen PDF needs', async () => {
    const first = await renderMinutesPdf(small(), options());
    const second = await renderMinutesPdf(small(), options());
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const other = await renderMinutesPdf(small(), options({ createdAt: '2026-03-14T10:00:00.000Z' }));
    expect(Buffer.from(other).equals(Buffer.from(first))).toBe(false); // the PDF's dates differ
  });

  it('copes with empty parts, letters the fonts lack and words wider than a line', async () => {
    const doc: MinutesDocument = {
      ...small(),
      header: { ...small().header, start: null, end: '19:45', place: '' },
      attendance: { present: [], excused: [], absent: [], guests: [] },
      sections: [
        {
          number: '1',
          title: 'Sonderzeichen 😀 漢字',
          documents: [],
          body: `Prüfsumme ${'0123456789abcdef'.repeat(8)} am Stück.\n\n`,
          resolutions: [resolution({ text: '' })],
        },
      ],
    };
    const { pages, content } = await render(doc);
    expect(pages).toHaveLength(1);
    expect(content).toContain('Beginn — Ende 19:45 Uhr Ort —');
    expect(content).toContain('Anwesend — Entschuldigt — Abwesend — Gäste —');
    expect(content).toContain('TOP 1 – Sonderzeichen ? ??');
    expect(content.replace(/ /g, '')).toContain(`Prüfsumme${'0123456789abcdef'.repeat(8)}amStück.`);
  });
});
