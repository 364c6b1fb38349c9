import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Resolution } from '@gremienportal/contracts/beschlussbuch';
import { registerPdf } from '../../../src/features/resolutions/register-pdf.ts';
import { readPdf } from '../../support/pdf-reader.ts';

/** The Beschlussbuch as PDF: cover, one section per resolution, the reader's footer on every page. */

const hashOf = (index: number) => createHash('sha256').update(`Eintrag ${index}`).digest('hex');

/** Resolution `index` (from 1) of the Aufsichtsrat, chained to the one before. */
function resolution(index: number, overrides: Partial<Resolution> = {}): Resolution {
  const sentences = 1 + ((index * 7) % 9);
  return {
    id: index,
    number: `AR 2026/${String(index).padStart(2, '0')}`,
    committee: { id: 1, name: 'Aufsichtsrat' },
    term_id: 1,
    motion_id: index,
    title: `Vorlage Nummer ${index}`,
    text: [
      `Anfang des Beschlusstexts ${index}.`,
      ...Array.from(
        { length: sentences },
        () => 'Der Aufsichtsrat stimmt dem Vorschlag des Vorstands zu und beauftragt ihn mit der Umsetzung.',
      ),
    ].join(' '),
    mode: 'offen',
    procedure: 'sitzung',
    event_id: 1,
    result: 'angenommen',
    reason: 'Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung.',
    counts: { ja: 5, nein: 2, enthaltung: 1 },
    names: null,
    conflicts: [],
    files: [],
    established_at: '2026-03-12T17:30:00.000Z',
    established_by: 'Erika Muster',
    corrects: null,
    hash: hashOf(index),
    previous_hash: index === 1 ? null : hashOf(index - 1),
    follow_up: null,
    ...overrides,
  };
}

const input = (resolutions: Resolution[]) => ({
  resolutions,
  viewerName: 'Łucja Wąsowska',
  generatedAt: '2026-11-25T09:00:00.000Z',
  filterLabel: 'Aufsichtsrat · 2026',
  timeZone: 'Europe/Berlin',
});

/** The register of 30: one namentlich, one correction, one with follow-up and documents. */
function thirty(): Resolution[] {
  return Array.from({ length: 30 }, (_, i) => {
    const index = i + 1;
    if (index === 4) {
      return resolution(index, {
        mode: 'namentlich',
        procedure: 'umlauf',
        event_id: null,
        reason: 'Angenommen mit 2 Ja- gegen 1 Nein-Stimme.',
        counts: { ja: 2, nein: 1, enthaltung: 0 },
        names: [
          { name: 'Łucja Wąsowska', choice: 'ja' },
          { name: 'Şahin Öztürk', choice: 'ja' },
          { name: 'Zoë Brontë', choice: 'nein' },
        ],
        conflicts: ['Jürgen Weiß'],
      });
    }
    if (index === 9) return resolution(index, { corrects: { id: 2, number: 'AR 2026/02' } });
    if (index === 12) {
      return resolution(index, {
        mode: 'geheim',
        procedure: null,
        counts: null,
        reason: 'Abgelehnt.',
        result: 'abgelehnt',
        files: [{ id: 7, name: 'Prüfbericht Kassenprüfung.pdf' }],
        follow_up: {
          responsible: { id: 3, name: 'Şahin Öztürk' },
          due_on: '2027-01-31',
          status: 'offen',
          note: 'Angebote von drei Dienstleistern einholen.',
          overdue: false,
          updated_at: '2026-11-20T10:00:00.000Z',
        },
      });
    }
    return resolution(index);
  });
}

/** One line of text per page, as pdf.js reads it, with runs of white space made one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

async function render(resolutions: Resolution[]) {
  const bytes = await registerPdf(input(resolutions));
  const read = await readPdf(bytes);
  return { bytes, pages: read.pages.map(flat), all: flat(read.pages.join(' ')) };
}

async function pdftotext(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'beschlussbuch-'));
  try {
    const file = join(dir, 'beschlussbuch.pdf');
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('pdftotext', ['-enc', 'UTF-8', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function expectFooters(pages: readonly string[]) {
  pages.forEach((page, index) => {
    expect(page).toContain('Vertraulich – erstellt für Łucja Wąsowska am 25.11.2026');
    expect(page).toContain(`Seite ${index + 1} von ${pages.length}`);
  });
}

describe('registerPdf', () => {
  it('is a cover alone when the filter finds nothing', async () => {
    const { bytes, pages } = await render([]);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Beschlussbuch');
    expect(pages[0]).toContain('Aufsichtsrat · 2026');
    expect(pages[0]).toContain('Keine Beschlüsse');
    expect(pages[0]).toContain('Erstellt am Mittwoch, 25. November 2026 für Łucja Wąsowska');
    expectFooters(pages);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Beschlussbuch');
  });

  it('shows one resolution with its facts, result and place in the chain', async () => {
    const { pages, all } = await render([resolution(1)]);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('1 Beschluss');
    expect(pages[0]).not.toContain('Beschlüsse');
    expect(pages[1]).toContain('AR 2026/01 – Vorlage Nummer 1');
    expect(all).toContain('Gremium: Aufsichtsrat');
    expect(all).toContain('Festgestellt am 12.03.2026, 18:30 Uhr von Erika Muster');
    expect(all).toContain('Verfahren: Abstimmung in der Sitzung');
    expect(all).toContain('Art der Abstimmung: offen');
    expect(all).toContain('Anfang des Beschlusstexts 1.');
    expect(all).toContain('Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung.');
    expect(all).toContain('Ja 5 · Nein 2 · Enthaltung 1');
    expect(all).toContain(`SHA-256: ${hashOf(1)}`);
    expect(all).toContain('Vorheriger Eintrag: keiner (erster Eintrag)');
    expect(all).not.toContain('Berichtigung zu');
    expect(all).not.toContain('Status:');
    expectFooters(pages);
  });

  it('flows 30 resolutions over several pages, each heading on the page of its text', async () => {
    const resolutions = thirty();
    const { bytes, pages, all } = await render(resolutions);
    expect(pages.length).toBeGreaterThan(3);
    expect(pages[0]).toContain('30 Beschlüsse');
    expect(pages[1]).toContain('Aufsichtsrat · 2026');
    expect(pages[2]).toContain('Aufsichtsrat · 2026 (Fortsetzung)');
    expectFooters(pages);

    let previousPage = 1;
    for (const r of resolutions) {
      const heading = `${r.number} – ${r.title}`;
      const page = pages.findIndex((text) => text.includes(heading));
      expect(page, heading).toBeGreaterThanOrEqual(previousPage);
      expect(pages[page], heading).toContain(`Anfang des Beschlusstexts ${r.id}.`);
      previousPage = page;
      expect(all).toContain(`SHA-256: ${r.hash}`);
      expect(all).toContain(`Vorheriger Eintrag: ${r.previous_hash ?? 'keiner (erster Eintrag)'}`);
    }

    expect(all).toContain('Verfahren: Umlaufverfahren');
    expect(all).toContain('Art der Abstimmung: namentlich');
    expect(all).toContain('Ja: Łucja Wąsowska, Şahin Öztürk');
    expect(all).toContain('Nein: Zoë Brontë');
    expect(all).toContain('Nahm wegen eines Interessenkonflikts nicht teil: Jürgen Weiß');
    expect(all).toContain('Berichtigung zu AR 2026/02');
    expect(all).toContain('Verfahren: —');
    expect(all).toContain('Art der Abstimmung: geheim');
    expect(all).toContain('• Prüfbericht Kassenprüfung.pdf');
    expect(all).toContain('Verantwortlich: Şahin Öztürk');
    expect(all).toContain('Fällig am 31.01.2027');
    expect(all).toContain('Status: Offen');
    expect(all).toContain('Notiz: Angebote von drei Dienstleistern einholen.');
    // Only the namentlich vote lists names; the secret one shows no counts.
    expect(all.match(/Ja: /g)).toHaveLength(1);
    expect(all.match(/Ja \d+ · Nein \d+ · Enthaltung \d+/g)).toHaveLength(29);

    // A reader outside the portal sees the same letters.
    const text = await pdftotext(bytes);
    for (const name of ['Łucja Wąsowska', 'Şahin Öztürk', 'Zoë Brontë', 'Jürgen Weiß'])
      expect(text).toContain(name);
  });
});
