import { describe, expect, it } from 'vitest';
import {
  contentSummary,
  emptyQuestion,
  purgeQuestion,
  restoredText,
  retentionDays,
  retentionText,
} from './trash.rules';

describe('Papierkorb texts', () => {
  it('says what an entry contains, with singular and plural', () => {
    expect(contentSummary({ type: 'file', files: 1, folders: 0 })).toBe('1 Datei');
    expect(contentSummary({ type: 'folder', files: 3, folders: 3 })).toBe('3 Dateien, 2 Unterordner');
    expect(contentSummary({ type: 'folder', files: 1, folders: 2 })).toBe('1 Datei, 1 Unterordner');
    expect(contentSummary({ type: 'folder', files: 0, folders: 1 })).toBe('leer');
    expect(contentSummary({ type: 'folder', files: 1200, folders: 1 })).toBe('1.200 Dateien');
    expect(contentSummary({ type: 'event', files: 1, folders: 0 })).toBe('mit Informationsdatei');
    expect(contentSummary({ type: 'event', files: 0, folders: 0 })).toBe('ohne Informationsdatei');
  });

  it('names the count before emptying', () => {
    expect(emptyQuestion(12)).toBe(
      'Alle 12 Einträge werden endgültig gelöscht. Das lässt sich nicht rückgängig machen.',
    );
    expect(emptyQuestion(1)).toBe(
      '1 Eintrag wird endgültig gelöscht. Das lässt sich nicht rückgängig machen.',
    );
  });

  it('names what a purge removes', () => {
    expect(purgeQuestion({ type: 'folder', title: 'Archiv', files: 2, folders: 1 })).toBe(
      'Der Ordner „Archiv“ (2 Dateien) wird endgültig gelöscht. Das lässt sich nicht rückgängig machen.',
    );
    expect(purgeQuestion({ type: 'file', title: 'Bericht.pdf', files: 1, folders: 0 })).toBe(
      'Die Datei „Bericht.pdf“ mit allen Versionen wird endgültig gelöscht. Das lässt sich nicht rückgängig machen.',
    );
    expect(purgeQuestion({ type: 'event', title: 'Sitzung', files: 0, folders: 0 })).toContain(
      'Das Event „Sitzung“',
    );
  });

  it('says when a restored title got " (wiederhergestellt)"', () => {
    expect(restoredText({ type: 'folder', title: 'Archiv', renamed: false })).toBe(
      'Der Ordner „Archiv“ wurde wiederhergestellt.',
    );
    expect(restoredText({ type: 'file', title: 'Bericht (wiederhergestellt)', renamed: true })).toBe(
      'Die Datei „Bericht (wiederhergestellt)“ wurde wiederhergestellt. Am früheren Ort gab es den Namen schon, daher wurde „(wiederhergestellt)“ angehängt.',
    );
  });

  it('derives the retention from an entry', () => {
    expect(
      retentionDays({ deleted_at: '2026-11-01T10:00:00.000Z', expires_at: '2026-12-01T10:00:00.000Z' }),
    ).toBe(30);
    expect(retentionDays(undefined)).toBeNull();
    expect(retentionText(30)).toContain('Einträge werden nach 30 Tagen endgültig gelöscht.');
    expect(retentionText(1)).toContain('nach 1 Tag endgültig');
    expect(retentionText(null)).toContain('nach Ablauf der Aufbewahrungsfrist');
  });
});
