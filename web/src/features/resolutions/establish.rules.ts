import type { CommitteeRules } from '@gremienportal/contracts/committees';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { tally, type Tally } from '@gremienportal/contracts/tally';

/*
 * What the Feststellung will write, shown to the Vorsitz before they confirm it: the shared count
 * of the contracts (decision 190) over the closed motion's numbers. The server counts again when it
 * establishes; this is only the preview.
 */

export type TallyPreview =
  | { kind: 'tally'; tally: Tally }
  /** A tie decided by the Vorsitz's own vote, which the page does not know. */
  | { kind: 'chair-decides' }
  | { kind: 'none' };

/**
 * The count of a closed motion by the committee's rules, or why there is none: no numbers or no
 * delivery table (not the Vorsitz), a tie the Vorsitz's vote decides, or numbers the count refuses.
 */
export function previewTally(
  motion: Pick<
    Motion,
    'state' | 'counts' | 'electorate' | 'hand_count' | 'quorum' | 'majority' | 'majority_basis'
  >,
  rules: Pick<CommitteeRules, 'abstentions_count' | 'tie'> | undefined,
): TallyPreview {
  if (motion.state !== 'geschlossen' || !motion.counts || !motion.electorate || !rules)
    return { kind: 'none' };
  const { counts, electorate } = motion;
  const hand = motion.hand_count;
  const participants =
    electorate.filter((entry) => entry.voted).length + (hand ? hand.ja + hand.nein + hand.enthaltung : 0);
  const input = {
    members: electorate.length,
    conflicted: electorate.filter((entry) => entry.conflicted).length,
    ...counts,
    participants,
    quorum: motion.quorum,
    majority: motion.majority,
    basis: motion.majority_basis,
    abstentionsCount: rules.abstentions_count,
    tie: rules.tie,
  };
  try {
    const result = tally({ ...input, tie: 'rejected' });
    const tie = motion.majority === 'simple' && result.counted > 0 && 2 * counts.ja === result.counted;
    if (tie && result.quorate && rules.tie === 'chair') return { kind: 'chair-decides' };
    return { kind: 'tally', tally: tally(input) };
  } catch (error) {
    if (error instanceof RangeError) return { kind: 'none' };
    throw error;
  }
}
