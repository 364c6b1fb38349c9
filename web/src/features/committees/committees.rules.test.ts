import { describe, expect, it } from 'vitest';
import { memberCountLabel } from '@gremienportal/contracts/committees';
import {
  berlinToday,
  defaultTerm,
  directoryGroups,
  functionLabel,
  importBlockedReason,
  importCountsText,
  IMPORT_NOTHING_TO_DO,
  nextDay,
  parseGermanDay,
  periodText,
  termEditable,
} from './committees.rules';
import { makeImportResult, makeMembership, makeTerm } from './components/committee-fixtures';

const TODAY = '2026-12-07';
const term = makeTerm();

describe('member directory', () => {
  const memberships = [
    makeMembership('Zora', 'Albers'),
    makeMembership('Emre', 'Şahin', { function: 'ersatzmitglied', rank: 2 }),
    makeMembership('Łucja', 'Nowak', { function: 'schriftfuehrung' }),
    makeMembership('Anna', 'Zeller', { function: 'ersatzmitglied', rank: 1 }),
    makeMembership('Bernd', 'Becker', { function: 'vorsitz' }),
    makeMembership('Clara', 'Ähnlich'),
    makeMembership('Dora', 'Dietz', { function: 'stellvertretung' }),
    makeMembership('Egon', 'Ernst', { until: '2026-10-31', active: false, reason: 'ruecktritt' }),
  ];

  it('groups by function in the order of the functions, Vorsitz first, ended ones last', () => {
    const groups = directoryGroups(memberships, term, TODAY);
    expect(groups.map((group) => group.heading)).toEqual([
      'Vorsitz',
      'Stellvertretender Vorsitz',
      'Schriftführung',
      'Mitglieder',
      'Ersatzmitglieder',
      'Ausgeschieden',
    ]);
    expect(groups.map((group) => group.members.map((m) => m.user.lastname))).toEqual([
      ['Becker'],
      ['Dietz'],
      ['Nowak'],
      // German order: Ä with A, before the later letters.
      ['Ähnlich', 'Albers'],
      // Ersatzmitglieder by rank, not by name.
      ['Zeller', 'Şahin'],
      ['Ernst'],
    ]);
  });

  it('leaves out empty groups and keeps those who served to the end of a past term in their group', () => {
    const past = makeTerm({ id: 9, start: '2022-07-01', end: '2026-06-30', archived: true });
    const groups = directoryGroups(
      [
        makeMembership('Anna', 'Alt', { function: 'vorsitz', until: '2026-06-30', active: false }),
        makeMembership('Berta', 'Bald', { until: '2024-03-31', active: false, reason: 'tod' }),
      ],
      past,
      TODAY,
    );
    expect(groups.map((group) => [group.key, group.members.length])).toEqual([
      ['vorsitz', 1],
      ['left', 1],
    ]);
    expect(directoryGroups([], term, TODAY)).toEqual([]);
  });

  it('lists an Ersatzmitglied who moved up once, as Mitglied, not also as having left', () => {
    const part = makeMembership('Çağrı', 'Demir', {
      id: 70,
      function: 'ersatzmitglied',
      rank: 1,
      until: '2026-12-06',
      active: false,
    });
    const moved = { ...makeMembership('Çağrı', 'Demir', { id: 71, from: '2026-12-07' }), user: part.user };
    const groups = directoryGroups([part, moved], term, TODAY);
    expect(groups.map((group) => [group.key, group.members.map((m) => m.id)])).toEqual([['mitglied', [71]]]);
  });

  it('names ranked Ersatzmitglieder "1. Ersatzmitglied" and tells since when someone serves', () => {
    expect(functionLabel({ function: 'ersatzmitglied', rank: 1 })).toBe('1. Ersatzmitglied');
    expect(functionLabel({ function: 'ersatzmitglied', rank: null })).toBe('Ersatzmitglied');
    expect(functionLabel({ function: 'stellvertretung', rank: null })).toBe('Stellvertretender Vorsitz');
    expect(periodText({ from: '2026-07-01', until: '2030-06-30', active: true }, TODAY)).toBe(
      'seit 01.07.2026',
    );
    expect(periodText({ from: '2027-01-01', until: '2030-06-30', active: false }, TODAY)).toBe(
      'ab 01.01.2027',
    );
    expect(periodText({ from: '2022-07-01', until: '2026-06-30', active: false }, TODAY)).toBe(
      '01.07.2022 bis 30.06.2026',
    );
  });

  it('shows the current term first, else the latest; archived terms stay read-only unless reopened', () => {
    const old = makeTerm({ id: 9, start: '2022-07-01', end: '2026-06-30', archived: true });
    const next = makeTerm({ id: 13, start: '2030-07-01', end: '2034-06-30' });
    expect(defaultTerm([old, term, next], term.id)?.id).toBe(term.id);
    expect(defaultTerm([old, next], null)?.id).toBe(next.id);
    expect(defaultTerm([], null)).toBeUndefined();
    expect(termEditable(term)).toBe(true);
    expect(termEditable(old)).toBe(false);
    expect(termEditable({ ...old, reopened: true })).toBe(true);
  });
});

describe('German counts', () => {
  it('says "1 Mitglied" and "5 Mitglieder"', () => {
    expect(memberCountLabel(0)).toBe('0 Mitglieder');
    expect(memberCountLabel(1)).toBe('1 Mitglied');
    expect(memberCountLabel(5)).toBe('5 Mitglieder');
  });

  it('sums an import up with singular and plural, leaving out what is zero', () => {
    const zero = { new_accounts: 0, new_memberships: 0, changed: 0, unchanged: 0, errors: 0 };
    expect(importCountsText({ ...zero, new_accounts: 1 })).toBe('1 neues Konto');
    expect(importCountsText({ ...zero, new_accounts: 3 })).toBe('3 neue Konten');
    expect(
      importCountsText({ new_accounts: 3, new_memberships: 1, changed: 2, unchanged: 1, errors: 1 }),
    ).toBe(
      '3 neue Konten, 1 neue Mitgliedschaft, 2 geänderte Mitgliedschaften, 1 unveränderte Mitgliedschaft und 1 fehlerhafte Zeile',
    );
    expect(importCountsText({ ...zero, new_memberships: 2, errors: 4 })).toBe(
      '2 neue Mitgliedschaften und 4 fehlerhafte Zeilen',
    );
    expect(importCountsText({ ...zero, unchanged: 1200 })).toBe('1.200 unveränderte Mitgliedschaften');
    expect(importCountsText(zero)).toBe('keine Zeilen');
  });

  it('blocks the import while a row has errors or nothing would change', () => {
    expect(importBlockedReason(makeImportResult(), 'Fehler!')).toBeNull();
    const withError = makeImportResult({
      counts: { new_accounts: 1, new_memberships: 0, changed: 0, unchanged: 0, errors: 1 },
    });
    expect(importBlockedReason(withError, 'Fehler!')).toBe('Fehler!');
    const unchanged = makeImportResult({
      counts: { new_accounts: 0, new_memberships: 0, changed: 0, unchanged: 2, errors: 0 },
    });
    expect(importBlockedReason(unchanged, 'Fehler!')).toBe(IMPORT_NOTHING_TO_DO);
  });
});

describe('days', () => {
  it('reads typed German days and refuses days that do not exist', () => {
    expect(parseGermanDay('01.07.2026')).toBe('2026-07-01');
    expect(parseGermanDay(' 1.7.2026 ')).toBe('2026-07-01');
    expect(parseGermanDay('2026-07-01')).toBe('2026-07-01');
    expect(parseGermanDay('30.02.2026')).toBeNull();
    expect(parseGermanDay('07/01/2026')).toBeNull();
  });

  it('counts the next day across month and year ends, today in Berlin', () => {
    expect(nextDay('2030-06-30')).toBe('2030-07-01');
    expect(nextDay('2030-12-31')).toBe('2031-01-01');
    // 23:30 UTC on 31 December is already New Year in Berlin.
    expect(berlinToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });
});
