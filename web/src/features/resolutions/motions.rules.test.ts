import { describe, expect, it } from 'vitest';
import {
  awaitsOwnVote,
  conflictsText,
  countsText,
  deadlinePassed,
  deadlineText,
  hasManagerControls,
  inProgress,
  mayNoteConflict,
  motionControls,
  motionCountText,
  participationText,
  pollInterval,
  POLL_MS,
  remainingText,
  type MotionControls,
} from './motions.rules';
import { electorEntry, makeMotion, runningMotion, umlaufMotion } from './components/motion-fixtures';

const NOW = new Date('2026-12-07T12:00:00.000Z');

/** The names of the controls that are shown. */
const shown = (controls: MotionControls) =>
  (Object.entries(controls) as [keyof MotionControls, boolean][])
    .filter(([, value]) => value)
    .map(([key]) => key)
    .sort();

describe('pollInterval', () => {
  it('follows a running vote, and during the meeting a draft or a closed vote too', () => {
    expect(pollInterval([{ state: 'abstimmung' }], false)).toBe(POLL_MS);
    expect(pollInterval([{ state: 'entwurf' }], false)).toBe(false);
    expect(pollInterval([{ state: 'entwurf' }], true)).toBe(POLL_MS);
    expect(pollInterval([{ state: 'geschlossen' }], true)).toBe(POLL_MS);
    expect(pollInterval([{ state: 'festgestellt' }, { state: 'zurueckgezogen' }], true)).toBe(false);
    expect(pollInterval([], true)).toBe(false);
  });
});

describe('motionControls: what a member sees', () => {
  it('gives an elector of a running open vote the ballot and the conflict, nothing of the Vorsitz', () => {
    expect(shown(motionControls(runningMotion(), { now: NOW }))).toEqual(['ballot', 'conflict']);
  });

  it('keeps the ballot after an open vote (it may be changed) but not after a secret one', () => {
    const open = runningMotion({ own: { voted: true, choice: 'ja' } });
    expect(motionControls(open, { now: NOW }).ballot).toBe(true);
    const secret = runningMotion({ mode: 'geheim', own: { voted: true } });
    expect(shown(motionControls(secret, { now: NOW }))).toEqual([]);
  });

  it('offers nothing to a conflicted member, and nothing to one who is no elector', () => {
    expect(shown(motionControls(runningMotion({ own: { conflicted: true } }), { now: NOW }))).toEqual([]);
    expect(shown(motionControls(runningMotion({ own: { elector: false } }), { now: NOW }))).toEqual([]);
  });

  it('adds the objection to an Umlaufverfahren until the member objected', () => {
    const umlauf = umlaufMotion();
    expect(shown(motionControls(umlauf, { now: NOW }))).toEqual(['ballot', 'conflict', 'objection']);
    expect(motionControls(umlaufMotion({ own: { objected: true } }), { now: NOW }).objection).toBe(false);
  });

  it('offers nothing once the deadline has passed (the minute job closes the vote)', () => {
    const expired = umlaufMotion({ deadline: '2026-12-07T11:59:00.000Z' });
    expect(deadlinePassed(expired, NOW)).toBe(true);
    expect(shown(motionControls(expired, { now: NOW }))).toEqual([]);
  });

  it('offers a written vote before a meeting vote opens, to voting members, not in a secret vote', () => {
    const draft = makeMotion();
    expect(motionControls(draft, { now: NOW, votingMember: true }).writtenBallot).toBe(true);
    expect(motionControls(draft, { now: NOW, votingMember: false }).writtenBallot).toBe(false);
    expect(motionControls(makeMotion({ mode: 'geheim' }), { votingMember: true }).writtenBallot).toBe(false);
    expect(motionControls(makeMotion({ event_id: null }), { votingMember: true }).writtenBallot).toBe(false);
  });
});

describe('motionControls: what the Vorsitz and the Schriftführung see', () => {
  it('lets the Schriftführung edit and delete a draft, but not open it', () => {
    const draft = makeMotion({ may: { edit: true } });
    expect(shown(motionControls(draft, { now: NOW }))).toEqual(['edit', 'remove']);
  });

  it('lets the Vorsitz open, edit, delete and withdraw a draft', () => {
    const draft = makeMotion({ may: { manage: true, edit: true, establish: true } });
    expect(shown(motionControls(draft, { now: NOW }))).toEqual(['edit', 'open', 'remove', 'withdraw']);
  });

  it('leads a running meeting vote: hand counts, close, withdraw, conflicts of others; editing voids it', () => {
    const motion = runningMotion({
      own: { elector: false },
      may: { manage: true, edit: true },
      electorate: [electorEntry(1, 'Anna Becker')],
    });
    const controls = motionControls(motion, { now: NOW });
    expect(shown(controls)).toEqual([
      'close',
      'conflictForOthers',
      'edit',
      'editVoids',
      'handCount',
      'withdraw',
    ]);
    expect(hasManagerControls(controls)).toBe(true);
  });

  it('counts no hands in a secret vote', () => {
    const secret = runningMotion({ mode: 'geheim', may: { manage: true } });
    expect(motionControls(secret, { now: NOW }).handCount).toBe(false);
  });

  it('closes an Umlaufverfahren early only once everyone voted or is conflicted; reminds while it runs', () => {
    const waiting = umlaufMotion({
      may: { manage: true },
      electorate: [electorEntry(1, 'Anna Becker', { voted: true }), electorEntry(2, 'Dora Dietz')],
    });
    expect(shown(motionControls(waiting, { now: NOW }))).toEqual(
      expect.arrayContaining(['remind', 'withdraw']),
    );
    expect(motionControls(waiting, { now: NOW }).close).toBe(false);
    const complete = umlaufMotion({
      may: { manage: true },
      electorate: [
        electorEntry(1, 'Anna Becker', { voted: true }),
        electorEntry(2, 'Dora Dietz', { conflicted: true }),
      ],
    });
    expect(motionControls(complete, { now: NOW }).close).toBe(true);
  });

  it('lets only the Vorsitz establish a result, once, after closing, an objection or a withdrawal', () => {
    for (const state of ['geschlossen', 'widersprochen', 'zurueckgezogen'] as const) {
      expect(motionControls(makeMotion({ state, may: { establish: true, manage: true } })).establish).toBe(
        true,
      );
    }
    expect(motionControls(makeMotion({ state: 'geschlossen', may: { manage: true } })).establish).toBe(false);
    const established = makeMotion({
      state: 'festgestellt',
      may: { establish: true, manage: true },
      resolution: { id: 40, number: 'AR 2026/01', result: 'angenommen' },
    });
    expect(shown(motionControls(established))).toEqual([]);
  });

  it('notes a conflict for another elector, but not after their secret ballot', () => {
    expect(mayNoteConflict({ mode: 'offen' }, { conflicted: false, voted: true })).toBe(true);
    expect(mayNoteConflict({ mode: 'geheim' }, { conflicted: false, voted: true })).toBe(false);
    expect(mayNoteConflict({ mode: 'geheim' }, { conflicted: true, voted: false })).toBe(false);
  });
});

describe('lists', () => {
  it('keeps a motion in the works until it is in the Beschlussbuch', () => {
    expect(inProgress(makeMotion())).toBe(true);
    expect(inProgress(makeMotion({ state: 'geschlossen' }))).toBe(true);
    expect(inProgress(makeMotion({ state: 'zurueckgezogen' }))).toBe(false);
    expect(
      inProgress(
        makeMotion({
          state: 'festgestellt',
          resolution: { id: 1, number: 'AR 2026/01', result: 'abgelehnt' },
        }),
      ),
    ).toBe(false);
  });

  it('asks for the member’s vote while it is still to be cast', () => {
    expect(awaitsOwnVote(runningMotion(), NOW)).toBe(true);
    expect(awaitsOwnVote(runningMotion({ own: { voted: true } }), NOW)).toBe(false);
    expect(awaitsOwnVote(umlaufMotion({ own: { objected: true } }), NOW)).toBe(false);
    expect(awaitsOwnVote(makeMotion(), NOW)).toBe(false);
  });
});

describe('German texts with the right singular or plural', () => {
  it('says how long a deadline has left', () => {
    const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
    expect(remainingText(at(-1), NOW)).toBe('abgelaufen');
    expect(remainingText(at(60_000), NOW)).toBe('noch 1 Minute');
    expect(remainingText(at(20 * 60_000), NOW)).toBe('noch 20 Minuten');
    expect(remainingText(at(3_600_000), NOW)).toBe('noch 1 Stunde');
    expect(remainingText(at(30 * 3_600_000), NOW)).toBe('noch 30 Stunden');
    expect(remainingText(at(3 * 86_400_000), NOW)).toBe('noch 3 Tage');
    expect(remainingText(at(5 * 86_400_000 - 600_000), NOW)).toBe('noch 5 Tage');
    expect(remainingText(at(2 * 86_400_000 + 11 * 3_600_000), NOW)).toBe('noch 2 Tage');
    expect(deadlineText('2026-12-14T17:00:00.000Z', NOW)).toBe('Frist: 14.12.2026, 18:00 Uhr (noch 7 Tage)');
  });

  it('counts votes, motions and who took part', () => {
    expect(countsText({ ja: 5, nein: 2, enthaltung: 1 })).toBe('5 Ja · 2 Nein · 1 Enthaltung');
    expect(countsText({ ja: 1, nein: 0, enthaltung: 2 })).toBe('1 Ja · 0 Nein · 2 Enthaltungen');
    expect(motionCountText(1)).toBe('1 Beschlussvorlage');
    expect(motionCountText(3)).toBe('3 Beschlussvorlagen');
    const entry = (voted: boolean, objected = false, conflicted = false) => ({ voted, objected, conflicted });
    expect(participationText([entry(true), entry(false)])).toBe('1 von 2 Stimmberechtigten hat abgestimmt');
    expect(participationText([entry(true), entry(true), entry(false, true), entry(false, false, true)])).toBe(
      '2 von 4 Stimmberechtigten haben abgestimmt · 1 hat widersprochen · 1 ist befangen',
    );
  });

  it('names who took no part for a conflict', () => {
    expect(conflictsText([])).toBe('');
    expect(conflictsText(['Dora Dietz'])).toBe(
      'Dora Dietz nahm wegen Befangenheit an der Abstimmung nicht teil.',
    );
    expect(conflictsText(['Anna Becker', 'Dora Dietz'])).toBe(
      'Anna Becker und Dora Dietz nahmen wegen Befangenheit an der Abstimmung nicht teil.',
    );
  });
});
