import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { composeBook } from '../../src/book/compose.ts';
import { pdfChunks } from '../../src/book/pdf-chunks.ts';
import type { BookPlan, BookSource } from '../../src/book/types.ts';
import { pdfWithPages } from '../support/documents.fixtures.ts';
import { readPdf } from '../support/pdf-reader.ts';

/** The book's layout, without the worker: page counts, long agendas, limits, odd pages. */

const plan = (overrides: Partial<BookPlan>): BookPlan => ({
  event: {
    title: 'Vertreterversammlung',
    start: '2027-06-01T16:00:00.000Z',
    end: '2027-06-02T10:00:00.000Z',
    location: 'Stadthalle',
  },
  reader: 'Erika Muster',
  createdAt: '2026-11-21T10:00:00.000Z',
  timeZone: 'Europe/Berlin',
  items: [],
  documents: [],
  ...overrides,
});

async function compose(
  p: BookPlan,
  sources: Record<number, Uint8Array> = {},
  limits = { maxPages: 5_000, skip: [] as number[] },
) {
  const read = async (index: number): Promise<BookSource> =>
    sources[index] ? { bytes: new Uint8Array(sources[index]) } : { failed: 'missing' };
  const book = await composeBook(p, limits, read);
  const { chunks } = await pdfChunks(book.doc);
  const parts: Uint8Array[] = [];
  for (let next = chunks.next(); !next.done; next = chunks.next()) parts.push(next.value);
  const bytes = Buffer.concat(parts);
  return { book, bytes, read: await readPdf(bytes) };
}

/** `pdftotext` and `pdffonts` (poppler) on `bytes`: what a reader outside the portal sees. */
async function poppler(bytes: Uint8Array): Promise<{ text: string; fonts: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mappe-'));
  try {
    const file = join(dir, 'mappe.pdf');
    await writeFile(file, bytes);
    const run = promisify(execFile);
    const [text, fonts] = await Promise.all([
      run('pdftotext', ['-enc', 'UTF-8', file, '-']),
      run('pdffonts', [file]),
    ]);
    return { text: text.stdout, fonts: fonts.stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('composeBook', () => {
  it('is cover and contents alone for a meeting without agenda, dated over two days', async () => {
    const { book, read } = await compose(plan({}));
    expect(book.pages).toBe(2);
    expect(read.pages[0]).toContain('Dienstag, 1. Juni 2027 bis Mittwoch, 2. Juni 2027');
    expect(read.pages[0]).toContain('18:00 Uhr bis 12:00 Uhr');
    expect(read.pages[0]).toContain('0 Tagesordnungspunkte · 0 Dokumente mit 0 Seiten');
    expect(read.pages[1]).toContain('Für diese Sitzung ist keine Tagesordnung hinterlegt.');
  });

  it('continues a long contents and a long “Weitere Unterlagen” on further pages, numbered right', async () => {
    const items = Array.from({ length: 60 }, (_, index) => ({
      number: String(index + 1),
      title: `Punkt ${index + 1} mit einem Titel, der etwas länger ist und deshalb auf eine zweite Zeile umbricht`,
      presenter: index % 2 ? 'Vorstand' : '',
      description: '',
      sub: false,
      documents: [index],
    }));
    const documents = items.map((_, index) => ({
      title: `Tabelle ${index + 1}`,
      format: 'xlsx',
      sizeBytes: 1_310_720,
    }));
    const { book, read } = await compose(plan({ items, documents }));
    const contents = read.pages.filter((text) => text.startsWith('Tagesordnung'));
    const further = read.pages.filter((text) => text.startsWith('Weitere Unterlagen'));
    expect(contents.length).toBeGreaterThan(1);
    expect(further.length).toBeGreaterThan(1);
    expect(book.pages).toBe(1 + contents.length + further.length);
    expect(contents[1]).toMatch(/^Tagesordnung \(Fortsetzung\)/);
    expect(further[1]).toMatch(/^Weitere Unterlagen \(Fortsetzung\)/);
    expect(read.pages.join('\n')).toContain('• Tabelle 60 (XLSX, 1,25 MB)');
    // Every contents line links to the "Weitere Unterlagen" page that names its document.
    for (const link of read.links) {
      const item = /Punkt (\d+) mit/.exec(read.pages[link.page]!) ? link : undefined;
      expect(item).toBeDefined();
      expect(read.pages[link.target]).toMatch(/^Weitere Unterlagen/);
    }
    expect(read.links).toHaveLength(120);
    expect(read.outline).toHaveLength(2 + 60 + 1);
  });

  it('lists a PDF beyond the page limit, or one to skip, instead of inserting it', async () => {
    const documents = [
      { title: 'Kurz', format: 'pdf', sizeBytes: 1 },
      { title: 'Zu lang', format: 'pdf', sizeBytes: 1 },
      { title: 'Übersprungen', format: 'pdf', sizeBytes: 1 },
      { title: 'Fehlt', format: 'pdf', sizeBytes: 1 },
    ];
    const items = [
      { number: '1', title: 'Alles', presenter: '', description: '', sub: false, documents: [0, 1, 2, 3] },
    ];
    const sources = {
      0: await pdfWithPages(['KURZ 1', 'KURZ 2']),
      1: await pdfWithPages(['LANG 1', 'LANG 2', 'LANG 3']),
      2: await pdfWithPages(['SKIP']),
    };
    const { book, read } = await compose(plan({ items, documents }), sources, { maxPages: 4, skip: [2] });
    expect(book.inserted).toEqual([0]);
    expect(book.pages).toBe(1 + 1 + 2 + 1);
    const last = read.pages.at(-1)!;
    for (const title of ['Zu lang', 'Übersprungen', 'Fehlt']) {
      expect(last).toContain(`${title} (PDF) – konnte nicht eingefügt werden`);
    }
    expect(read.pages.join('\n')).not.toMatch(/LANG|SKIP/);
  });

  it('writes names and titles in any Latin script exactly, in embedded subset fonts', async () => {
    const names = [
      'Łucja Dvořák-Şahin',
      'Nguyễn Thị Minh Khai',
      'Grzegorz Brzęczyszczykiewicz',
      'Ağaoğlu Çelik',
    ];
    const items = names.map((presenter, index) => ({
      number: String(index + 1),
      title: `Bericht von ${presenter}`,
      presenter,
      description: `Beschlussvorschlag:\nDie Versammlung dankt ${presenter} für den Bericht.`,
      sub: false,
      documents: [index],
    }));
    const documents = names.map((name) => ({
      title: `Stellungnahme ${name}`,
      format: 'docx',
      sizeBytes: 2_048,
    }));
    const event = { ...plan({}).event, title: 'Sitzung in Łódź – Tiếng Việt, Čeština, Türkçe' };
    const { book, bytes } = await compose(plan({ event, reader: names[0]!, items, documents }));
    const { text, fonts } = await poppler(bytes);
    // Lines joined: a long title wraps.
    const pages = text
      .split('\f')
      .filter((page) => page.trim() !== '')
      .map((page) => page.replace(/\s+/g, ' '));
    expect(pages).toHaveLength(book.pages);
    expect(pages[0]).toContain('Sitzung in Łódź – Tiếng Việt, Čeština, Türkçe');
    for (const name of names) {
      expect(pages[1]).toContain(`Bericht von ${name}`);
      expect(pages[1]).toContain(`Beschlussvorschlag: Die Versammlung dankt ${name} für den Bericht.`);
      expect(pages.at(-1)).toContain(`Stellungnahme ${name}`);
    }
    for (const page of pages) expect(page).toContain('Vertraulich – Łucja Dvořák-Şahin – 21.11.2026');
    // Every font is inside the file, as a subset ("ABCDEF+Name", sub = yes), none of the standard 14.
    const rows = fonts
      .split('\n')
      .slice(2)
      .filter((row) => row.trim() !== '');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^[A-Z]{6}\+NotoSans-\S+\s.*\syes\s+yes\s+yes\s/);
  });

  it("prints an item's long description whole, continued on the next contents page", async () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Satz ${i + 1} des Beschlussvorschlags.`);
    const items = [
      {
        number: '1',
        title: 'Jahresabschluss',
        presenter: 'Vorstand',
        description: sentences.join('\n'),
        sub: false,
        documents: [],
      },
      { number: '2', title: 'Verschiedenes', presenter: '', description: '', sub: false, documents: [] },
    ];
    const { bytes } = await compose(plan({ items, documents: [] }));
    const pages = (await poppler(bytes)).text.split('\f').map((page) => page.replace(/\s+/g, ' '));
    expect(pages[1]).toContain('1 Jahresabschluss');
    expect(pages[1]).toContain('Satz 1 des Beschlussvorschlags.');
    expect(pages[1]).not.toContain('Satz 60 des Beschlussvorschlags.');
    expect(pages[2]).toContain('Tagesordnung (Fortsetzung)');
    const all = pages.join(' ');
    for (const sentence of sentences) expect(all).toContain(sentence);
    expect(pages[2]).toContain('2 Verschiedenes');
  });

  it('marks pages of any size, crop box and rotation with footer and divider', async () => {
    const donor = await PDFDocument.create();
    const font = await donor.embedFont(StandardFonts.Helvetica);
    for (const angle of [0, 90, 180, 270]) {
      const page = donor.addPage([842, 595]);
      page.setRotation(degrees(angle));
      page.drawText(`QUER ${angle}`, { x: 100, y: 300, size: 20, font });
    }
    const tiny = donor.addPage([200, 150]);
    tiny.setCropBox(20, 20, 160, 110);
    tiny.drawText('KLEIN', { x: 40, y: 60, size: 12, font });
    const items = [
      { number: '4', title: 'Formate', presenter: '', description: '', sub: false, documents: [0] },
    ];
    const documents = [{ title: 'Gemischt', format: 'pdf', sizeBytes: 1 }];
    const { book, read } = await compose(plan({ items, documents }), { 0: await donor.save() });
    expect(book.pages).toBe(1 + 1 + 5);
    read.pages.slice(2).forEach((text, index) => {
      expect(text).toContain(index === 4 ? 'Vertraulich – Erika' : 'Vertraulich – Erika Muster – 21.11.2026');
    });
    expect(read.pages[2]).toContain('TOP 4 – Formate');
  });
});
