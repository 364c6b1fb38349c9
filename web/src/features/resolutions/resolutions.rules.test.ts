import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  isVotingMember,
  mayCorrect,
  mayKeepFollowUp,
  mayWriteMotions,
  overdueCountText,
  readRegisterFilters,
  registerQueryString,
  resolutionCountText,
  writableCommittees,
  writeRegisterFilters,
  writesAnyMotions,
  yearChoices,
} from './resolutions.rules';
import { ownMembership } from './components/motion-fixtures';

describe('the Beschlussbuch’s filters in the address', () => {
  it('reads what it writes, in German parameters', () => {
    const filters = { committee_id: 3, term_id: 12, year: 2026, result: 'angenommen' as const, q: 'Heizung' };
    const params = writeRegisterFilters(filters);
    expect(params.toString()).toBe('gremium=3&amtsperiode=12&jahr=2026&ergebnis=angenommen&q=Heizung');
    expect(readRegisterFilters(params)).toEqual(filters);
    expect(readRegisterFilters(writeRegisterFilters({ overdue: true }))).toEqual({ overdue: true });
  });

  it('leaves out what it cannot read, and a term without its committee', () => {
    const params = new URLSearchParams('gremium=abc&amtsperiode=12&jahr=99&ergebnis=vielleicht&q=%20%20');
    expect(readRegisterFilters(params)).toEqual({});
    expect(readRegisterFilters(new URLSearchParams('gremium=0&jahr=2201'))).toEqual({});
  });

  it('asks the API with its own parameter names', () => {
    expect(registerQueryString({})).toBe('');
    expect(registerQueryString({ committee_id: 3, year: 2026, q: ' Dach ', overdue: true })).toBe(
      '?committee_id=3&year=2026&q=Dach&overdue=1',
    );
  });

  it('counts the filters set, not the overdue view', () => {
    expect(activeFilterCount({ overdue: true })).toBe(0);
    expect(activeFilterCount({ committee_id: 3, q: 'Dach', overdue: true })).toBe(2);
  });

  it('offers the years from this one back', () => {
    expect(yearChoices(new Date('2026-12-07T12:00:00Z'), 2024)).toEqual([2026, 2025, 2024]);
    expect(yearChoices(new Date('2026-12-07T12:00:00Z'), 2030)).toEqual([2026]);
  });

  it('counts entries in German', () => {
    expect(resolutionCountText(1)).toBe('1 Beschluss');
    expect(resolutionCountText(12)).toBe('12 Beschlüsse');
    expect(resolutionCountText(0)).toBe('0 Beschlüsse');
    expect(overdueCountText(1)).toBe('1 überfällige Umsetzung');
    expect(overdueCountText(2)).toBe('2 überfällige Umsetzungen');
  });
});

describe('who may do what, by the own memberships', () => {
  const chair = ownMembership(3, 'vorsitz');
  const secretary = ownMembership(4, 'schriftfuehrung');
  const member = ownMembership(5, 'mitglied');
  const substitute = ownMembership(6, 'ersatzmitglied');
  const ended = ownMembership(7, 'vorsitz', { active: false });
  const all = [chair, secretary, member, substitute, ended];

  it('lets admins, the Vorsitz and the Schriftführung write motions and keep follow-ups', () => {
    expect(mayWriteMotions(true, [], 9)).toBe(true);
    expect(mayWriteMotions(false, all, 3)).toBe(true);
    expect(mayWriteMotions(false, all, 4)).toBe(true);
    expect(mayWriteMotions(false, all, 5)).toBe(false);
    expect(mayWriteMotions(false, all, 7)).toBe(false);
    expect(mayKeepFollowUp(false, all, 4)).toBe(true);
    expect(writesAnyMotions(false, [member, substitute])).toBe(false);
    expect(writesAnyMotions(false, [member, secretary])).toBe(true);
    const committees = [3, 4, 5].map((id) => ({ id, name: `Gremium ${id}` }));
    expect(writableCommittees(committees, false, all).map((committee) => committee.id)).toEqual([3, 4]);
    expect(writableCommittees(committees, true, [])).toHaveLength(3);
  });

  it('lets only the active Vorsitz correct an entry, admin or not', () => {
    expect(mayCorrect(all, 3)).toBe(true);
    expect(mayCorrect(all, 4)).toBe(false);
    expect(mayCorrect(all, 7)).toBe(false);
  });

  it('counts every active function but Ersatzmitglied as a vote', () => {
    expect(isVotingMember(all, 5)).toBe(true);
    expect(isVotingMember(all, 6)).toBe(false);
    expect(isVotingMember(all, 7)).toBe(false);
    expect(isVotingMember(all, 8)).toBe(false);
  });
});
