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
import type { VoteChoice } from './motions.rules';

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

/**
 * Filled badges, white text above 4.5:1: the brand's shade 9 (#0a6650, 6.9:1), red 9 (#c92a2a,
 * 5.5:1), grape 9 (#862e9c, 7.3:1), gray 7 (#495057, 8.2:1). Not Mantine's green 9 (#2b8a3e),
 * which reaches only 4.4:1.
 */
export const RESULT_COLORS: Record<ResolutionResult, string> = {
  angenommen: 'brand.9',
  abgelehnt: 'red.9',
  nicht_beschlussfaehig: 'grape.9',
  widersprochen: 'red.9',
  zurueckgezogen: 'gray.7',
};

/**
 * The ballot's buttons, their text on white (outline) and white on the colour (chosen) above 4.5:1: the brand's shade 9
 * (#0a6650, 6.9:1), red 9 (#c92a2a, 5.5:1), gray 7 (#495057, 8.2:1). Mantine's green 9
 * (#2b8a3e) reaches only 4.4:1.
 */
export const CHOICE_COLORS: Record<VoteChoice, string> = {
  ja: 'brand.9',
  nein: 'red.9',
  enthaltung: 'gray.7',
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
