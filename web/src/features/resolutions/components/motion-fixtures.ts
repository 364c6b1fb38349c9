import type { Resolution } from '@gremienportal/contracts/beschlussbuch';
import type { OwnMembership } from '@gremienportal/contracts/committees';
import type { Motion } from '@gremienportal/contracts/resolutions';

const DAY_MS = 86_400_000;

/** An ISO instant `days` from now (negative: in the past), so a deadline never goes stale. */
export const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

type MotionOverrides = Partial<Omit<Motion, 'own' | 'may'>> & {
  own?: Partial<Motion['own']>;
  may?: Partial<Motion['may']>;
};

/** "Erneuerung der Heizungsanlage" of the Aufsichtsrat, a draft for the meeting 5 unless told otherwise. */
export function makeMotion(overrides: MotionOverrides = {}): Motion {
  const { own, may, ...rest } = overrides;
  return {
    id: 21,
    committee: { id: 3, name: 'Aufsichtsrat' },
    event_id: 5,
    agenda_item_id: 2,
    title: 'Erneuerung der Heizungsanlage',
    text: 'Der Aufsichtsrat stimmt der Erneuerung der Heizungsanlage im Haus Lindenstraße 4 zu.',
    justification: 'Die Anlage ist 30 Jahre alt.',
    mode: 'offen',
    majority: 'simple',
    majority_basis: 'cast',
    quorum: 'more_than_half',
    state: 'entwurf',
    procedure: null,
    deadline: null,
    counts: null,
    names: null,
    conflicts: [],
    objections: [],
    files: [],
    electorate: null,
    hand_count: null,
    resolution: null,
    ...rest,
    own: { elector: false, voted: false, choice: null, objected: false, conflicted: false, ...own },
    may: { manage: false, edit: false, establish: false, ...may },
  };
}

/** A running vote in the meeting, in which the member may vote. */
export const runningMotion = (overrides: MotionOverrides = {}) =>
  makeMotion({
    state: 'abstimmung',
    procedure: 'sitzung',
    ...overrides,
    own: { elector: true, ...overrides.own },
  });

/** A running Umlaufverfahren with a deadline in three days. */
export const umlaufMotion = (overrides: MotionOverrides = {}) =>
  makeMotion({
    state: 'abstimmung',
    procedure: 'umlauf',
    event_id: null,
    agenda_item_id: null,
    deadline: inDays(3),
    ...overrides,
    own: { elector: true, ...overrides.own },
  });

export const electorEntry = (
  userId: number,
  name: string,
  overrides: Partial<NonNullable<Motion['electorate']>[number]> = {},
): NonNullable<Motion['electorate']>[number] => ({
  user_id: userId,
  name,
  mailed_at: null,
  first_opened_at: null,
  voted: false,
  objected: false,
  conflicted: false,
  ...overrides,
});

/** "AR 2026/01", adopted in the meeting 5. */
export function makeResolution(overrides: Partial<Resolution> = {}): Resolution {
  return {
    id: 40,
    number: 'AR 2026/01',
    committee: { id: 3, name: 'Aufsichtsrat' },
    term_id: 12,
    motion_id: 21,
    title: 'Erneuerung der Heizungsanlage',
    text: 'Der Aufsichtsrat stimmt der Erneuerung der Heizungsanlage im Haus Lindenstraße 4 zu.',
    mode: 'offen',
    procedure: 'sitzung',
    event_id: 5,
    result: 'angenommen',
    reason:
      'Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung (einfache Mehrheit der abgegebenen Stimmen).',
    counts: { ja: 5, nein: 2, enthaltung: 1 },
    names: null,
    conflicts: [],
    files: [],
    established_at: '2026-12-03T18:30:00.000Z',
    established_by: 'Bernd Becker',
    corrects: null,
    hash: 'a'.repeat(64),
    previous_hash: null,
    follow_up: null,
    ...overrides,
  };
}

/** One of the member's own memberships (GET /account). */
export function ownMembership(
  committeeId: number,
  fn: OwnMembership['function'],
  overrides: Partial<OwnMembership> = {},
): OwnMembership {
  return {
    id: 900 + committeeId,
    committee: { id: committeeId, name: committeeId === 3 ? 'Aufsichtsrat' : `Gremium ${committeeId}` },
    term_title: 'Amtsperiode 2026–2030',
    function: fn,
    rank: null,
    from: '2026-07-01',
    until: '2030-06-30',
    active: true,
    ...overrides,
  };
}
