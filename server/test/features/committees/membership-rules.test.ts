import { describe, expect, it } from 'vitest';
import type {
  MembershipRow,
  MembershipWithUser,
  TermRow,
} from '../../../src/features/committees/committees.repository.ts';
import { proposedSuccessor } from '../../../src/features/committees/membership-rules.ts';

const term: TermRow = {
  id: 1,
  committee_id: 1,
  starts_on: '2026-07-01',
  ends_on: '2030-06-30',
  folder_id: null,
  archived: 0,
  reopened: 0,
  created_at: '',
};
let nextId = 1;
const member = (overrides: Partial<MembershipRow> & { firstname?: string }): MembershipWithUser => {
  const id = nextId++;
  const { firstname = `Person ${id}`, ...row } = overrides;
  return {
    id,
    committee_id: 1,
    term_id: 1,
    user_id: id,
    holder_name: firstname,
    function: 'mitglied',
    rank: null,
    valid_from: term.starts_on,
    valid_until: term.ends_on,
    district: null,
    reason: null,
    state: 'active',
    succeeded_by: null,
    created_at: '',
    updated_at: '',
    title: 'Frau',
    firstname,
    lastname: 'Muster',
    email: null,
    email_visible: 0,
    ...row,
  };
};

describe('Nachrücken: who is proposed', () => {
  const resigned = member({ valid_until: '2027-03-31', reason: 'ruecktritt', district: 'Nord' });
  const first = member({ function: 'ersatzmitglied', rank: 1, district: 'Süd', firstname: 'Süd eins' });
  const second = member({ function: 'ersatzmitglied', rank: 2, district: 'Nord', firstname: 'Nord zwei' });
  const third = member({ function: 'ersatzmitglied', rank: 3, district: 'Nord', firstname: 'Nord drei' });
  const all = [resigned, first, second, third];

  it('takes the lowest rank of the same Wahlbezirk', () => {
    expect(proposedSuccessor(resigned, term, all)?.firstname).toBe('Nord zwei');
  });

  it('takes the lowest rank of all when the committee keeps no Wahlbezirke', () => {
    const plain = { ...resigned, district: null };
    expect(proposedSuccessor(plain, term, all)?.firstname).toBe('Süd eins');
  });

  it('proposes nobody for a membership that runs to the end of the term, or was succeeded already', () => {
    expect(proposedSuccessor({ ...resigned, valid_until: term.ends_on }, term, all)).toBeUndefined();
    expect(proposedSuccessor({ ...resigned, succeeded_by: 99 }, term, all)).toBeUndefined();
    expect(proposedSuccessor(first, term, all)).toBeUndefined();
  });

  it('skips an Ersatzmitglied whose own membership ends before the vacancy or begins after it', () => {
    const gone = { ...second, valid_until: '2027-03-31' };
    const later = { ...third, valid_from: '2028-01-01' };
    expect(proposedSuccessor(resigned, term, [resigned, first, gone, later])).toBeUndefined();
  });
});
