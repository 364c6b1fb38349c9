import { describe, expect, it } from 'vitest';
import { formatAuditDetails } from '@gremienportal/contracts/audit';

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
