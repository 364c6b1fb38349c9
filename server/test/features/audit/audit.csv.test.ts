import { describe, expect, it } from 'vitest';
import { formatAuditDetails } from '@gremienportal/contracts/audit-details';

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
      'Geändert: Titel, Rollen; Rollen vorher: Vertreter; Rollen nachher: –; Mit Datei: ja; ' +
        'Datei: Format pdf, Größe 1024; Beginn: 21.11.2026 14:30:00; custom_key: –',
    );
    expect(
      formatAuditDetails({
        title: { from: 'Alt', to: 'Neu' },
        folder: { from: '/A', to: null },
        replaced: true,
      }),
    ).toBe('Titel: Alt → Neu; Ordner: /A → –; Inhalt ersetzt: ja');
    // Codes and days in German, changes that changed nothing left out.
    expect(
      formatAuditDetails({
        reason: 'email_changed',
        trash: true,
        items: 3,
        sub_items: 1,
        acknowledgement_due: { from: null, to: '2026-12-15' },
        roles: { from: ['Vertreter'], to: ['Vertreter'] },
      }),
    ).toBe(
      'Grund: E-Mail-Adresse geändert; In den Papierkorb: ja; Punkte: 3; Unterpunkte: 1; ' +
        'Kenntnisnahme bis: – → 15.12.2026',
    );
    expect(formatAuditDetails(null)).toBe('');
    expect(formatAuditDetails({})).toBe('');
  });
});
