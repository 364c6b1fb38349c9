import { describe, expect, it } from 'vitest';
import { formatAuditDetails } from '@gremienportal/contracts/audit';
import { csvCell, csvLine } from './audit.csv.ts';

describe('csvCell', () => {
  it.each([
    ['einfach', 'einfach'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    ['a;b', '"a;b"'],
    ['er sagte "ja"', '"er sagte ""ja"""'],
    ['Zeile 1\nZeile 2', '"Zeile 1\nZeile 2"'],
    [' Leerzeichen', '" Leerzeichen"'],
    ['=1+1', "'=1+1"],
    ['+49 30 123', "'+49 30 123"],
    ['-5', "'-5"],
    ['@SUMME(A1)', "'@SUMME(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', '"\'\r=1"'],
    ['=A1;"x"', `"'=A1;""x"""`],
    ['a=b', 'a=b'],
  ])('%j → %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('joins a line with semicolons and CRLF', () => {
    expect(csvLine(['a', null, 3])).toBe('a;;3\r\n');
  });
});

describe('formatAuditDetails', () => {
  it('names known keys in German and writes values readably', () => {
    expect(
      formatAuditDetails({
        changed: ['title', 'roles'],
        old_roles: ['Vertreter'],
        new_roles: [],
        had_file: true,
        file: { format: 'pdf', size: 1024 },
        start: '2026-11-21T13:30:00.000Z',
        custom_key: null,
      }),
    ).toBe(
      'Geändert: title, roles; Rollen vorher: Vertreter; Rollen nachher: –; Mit Datei: ja; ' +
        'Datei: Format pdf, Größe 1024; Beginn: 21.11.2026 14:30:00; custom_key: –',
    );
    expect(
      formatAuditDetails({
        title: { from: 'Alt', to: 'Neu' },
        folder: { from: '/A', to: null },
        replaced: true,
      }),
    ).toBe('Titel: Alt → Neu; Ordner: /A → –; Inhalt ersetzt: ja');
    expect(formatAuditDetails(null)).toBe('');
    expect(formatAuditDetails({})).toBe('');
  });
});
