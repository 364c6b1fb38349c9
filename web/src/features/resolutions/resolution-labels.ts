import { MAJORITY_BASIS_LABELS, MAJORITY_LABELS, QUORUM_LABELS } from '@gremienportal/contracts/committees';
import {
  CHOICE_LABELS,
  MOTION_STATE_LABELS,
  PROCEDURE_LABELS,
  VOTE_MODE_LABELS,
  type Motion,
  type MotionState,
  type ResolutionResult,
  type VoteMode,
} from '@gremienportal/contracts/resolutions';
import { OUTCOME_LABELS } from '@gremienportal/contracts/tally';

/*
 * The German names the Beschlüsse pages show, from the contracts. Apart from the rules files,
 * which the event page loads first: these load the contracts' schemas (zod) with them.
 */

export { CHOICE_LABELS, MOTION_STATE_LABELS, PROCEDURE_LABELS, VOTE_MODE_LABELS };

/** The result of an entry: the count's outcome, or how the procedure ended without one. */
export const RESULT_LABELS: Record<ResolutionResult, string> = {
  ...OUTCOME_LABELS,
  widersprochen: MOTION_STATE_LABELS.widersprochen,
  zurueckgezogen: MOTION_STATE_LABELS.zurueckgezogen,
};

/** Filled badges: shade 9 (gray 7) keeps white text above 4.5:1. */
export const RESULT_COLORS: Record<ResolutionResult, string> = {
  angenommen: 'green.9',
  abgelehnt: 'red.9',
  nicht_beschlussfaehig: 'grape.9',
  widersprochen: 'red.9',
  zurueckgezogen: 'gray.7',
};

/** The light badges take colour names: with a fixed shade they would fill the badge. */
export const STATE_COLORS: Record<MotionState, string> = {
  entwurf: 'gray',
  abstimmung: 'blue',
  geschlossen: 'violet',
  festgestellt: 'brand',
  widersprochen: 'red',
  zurueckgezogen: 'gray',
};

/** "Offen", "Namentlich", "Geheim": the mode's name without its explanation. */
export const modeName = (mode: VoteMode) => VOTE_MODE_LABELS[mode].replace(/ \(.*\)$/, '');

/**
 * The motion's rules as the page lists them: "Mehrheit: einfache Mehrheit der abgegebenen
 * Stimmen", "Beschlussfähigkeit: mehr als die Hälfte der Mitglieder".
 */
export const rulesText = (motion: Pick<Motion, 'majority' | 'majority_basis' | 'quorum'>) => ({
  majority: `${MAJORITY_LABELS[motion.majority]} ${MAJORITY_BASIS_LABELS[motion.majority_basis]}`,
  quorum: QUORUM_LABELS[motion.quorum],
});

export { MAJORITY_BASIS_LABELS, MAJORITY_LABELS, QUORUM_LABELS };
