import {
  DEFAULT_COMMITTEE_RULES,
  type Committee,
  type ImportResult,
  type Membership,
  type Term,
} from '@gremienportal/contracts/committees';

/** The Aufsichtsrat's term 2026–2030, running today (2026-12-07 in the tests' fixtures). */
export function makeTerm(overrides: Partial<Term> = {}): Term {
  return {
    id: 12,
    committee_id: 3,
    start: '2026-07-01',
    end: '2030-06-30',
    title: 'Amtsperiode 2026–2030',
    folder_id: 41,
    archived: false,
    reopened: false,
    ...overrides,
  };
}

export function makeCommittee(overrides: Partial<Committee> = {}): Committee {
  return {
    id: 3,
    name: 'Aufsichtsrat',
    kind: 'aufsichtsrat',
    role: { id: 3, name: 'Aufsichtsrat' },
    folder: { id: 40, breadcrumb: '/Aufsichtsrat' },
    rules: DEFAULT_COMMITTEE_RULES,
    current_term: makeTerm(),
    member_count: 3,
    ...overrides,
  };
}

let nextId = 100;

export function makeMembership(
  firstname: string,
  lastname: string,
  overrides: Partial<Omit<Membership, 'user'>> & { email?: string } = {},
): Membership {
  const { email, ...rest } = overrides;
  const id = rest.id ?? nextId++;
  return {
    id,
    committee_id: 3,
    term_id: 12,
    user: {
      id: id + 1000,
      title: 'Frau',
      firstname,
      lastname,
      ...(email === undefined ? {} : { email }),
    },
    function: 'mitglied',
    rank: null,
    from: '2026-07-01',
    until: '2030-06-30',
    district: null,
    reason: null,
    active: true,
    proposed_successor: null,
    ...rest,
  };
}

export function makeImportResult(overrides: Partial<ImportResult> = {}): ImportResult {
  return {
    dry_run: true,
    rows: [
      { row: 2, name: 'Łucja Nowak', email: 'lucja@example.org', action: 'new_account', messages: [] },
      { row: 3, name: 'Emre Şahin', email: 'emre@example.org', action: 'new_membership', messages: [] },
    ],
    counts: { new_accounts: 1, new_memberships: 1, changed: 0, unchanged: 0, errors: 0 },
    ...overrides,
  };
}
