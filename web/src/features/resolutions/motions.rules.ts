import type { Motion } from '@gremienportal/contracts/resolutions';
import { formatDateTime } from '../../lib/format';
import { forCount, listOfNames, plural } from '../../lib/plural';

/*
 * What a motion's page shows, decided from the motion alone (its state, `own` and `may`), so the
 * page offers exactly the controls the server accepts (decision 190; no dead buttons). Only types
 * from the contracts: the event page loads this file with its first load.
 */

export type MotionState = Motion['state'];
export type VoteChoice = 'ja' | 'nein' | 'enthaltung';

/** A meeting's vote is followed this often while it runs. */
export const POLL_MS = 5_000;

/** A vote ends at its deadline (an Umlaufverfahren); the minute job closes it shortly after. */
export const deadlinePassed = (motion: Pick<Motion, 'deadline'>, now: Date = new Date()) =>
  motion.deadline !== null && new Date(motion.deadline).getTime() <= now.getTime();

const running = (motion: Pick<Motion, 'state' | 'deadline'>, now: Date) =>
  motion.state === 'abstimmung' && !deadlinePassed(motion, now);

/**
 * How often a meeting's motions load again: every few seconds while a vote runs; during the
 * meeting (`live`) also while one may still open or was just closed, so the ballot and the result
 * appear for everyone by themselves. Otherwise not at all.
 */
export function pollInterval(motions: readonly Pick<Motion, 'state'>[], live: boolean): number | false {
  if (motions.some((motion) => motion.state === 'abstimmung')) return POLL_MS;
  if (live && motions.some((motion) => motion.state === 'entwurf' || motion.state === 'geschlossen'))
    return POLL_MS;
  return false;
}

export interface MotionControls {
  /** The ballot: a running vote the member may still cast (or change, where that is allowed). */
  ballot: boolean;
  /** A written vote before a meeting's vote opens (schriftliche Stimmabgabe). */
  writtenBallot: boolean;
  /** "Ich widerspreche der Beschlussfassung im Umlaufverfahren". */
  objection: boolean;
  /** "Befangenheit erklären" for oneself. */
  conflict: boolean;
  /** Vorsitz and admins: "Abstimmung öffnen". */
  open: boolean;
  handCount: boolean;
  close: boolean;
  withdraw: boolean;
  remind: boolean;
  /** The Vorsitz: "Ergebnis feststellen" (also records an objection or a withdrawal). */
  establish: boolean;
  /** Change the draft, or (Vorsitz, admins) a running vote, which voids it. */
  edit: boolean;
  /** Editing now voids the running vote: the page warns first. */
  editVoids: boolean;
  remove: boolean;
  /** Vorsitz and admins: note another elector's conflict in the delivery table. */
  conflictForOthers: boolean;
}

export interface ControlContext {
  now?: Date;
  /** Whether the member is a voting member of the committee today (for a written vote). */
  votingMember?: boolean;
}

/** The controls the motion's page shows to this member, by state, `own` and `may`. */
export function motionControls(
  motion: Motion,
  { now = new Date(), votingMember = false }: ControlContext = {},
) {
  const { own, may, state } = motion;
  const live = running(motion, now);
  const secret = motion.mode === 'geheim';
  const elector = own.elector && !own.conflicted;
  const umlauf = motion.procedure === 'umlauf';
  const electorate = motion.electorate ?? [];
  // An Umlaufverfahren closes before its deadline only once everyone has voted (or is conflicted).
  const umlaufComplete = electorate.every((entry) => entry.conflicted || entry.voted);
  const controls: MotionControls = {
    ballot: live && elector && !(secret && own.voted),
    writtenBallot:
      state === 'entwurf' && motion.event_id !== null && !secret && votingMember && !own.conflicted,
    objection: live && umlauf && elector && !own.objected,
    conflict: live && own.elector && !own.conflicted && !(secret && own.voted),
    open: state === 'entwurf' && may.manage,
    handCount: live && may.manage && motion.procedure === 'sitzung' && !secret,
    close: state === 'abstimmung' && may.manage && (!umlauf || deadlinePassed(motion, now) || umlaufComplete),
    withdraw: (state === 'entwurf' || state === 'abstimmung') && may.manage,
    remind: live && umlauf && may.manage,
    establish:
      (state === 'geschlossen' || state === 'widersprochen' || state === 'zurueckgezogen') &&
      may.establish &&
      motion.resolution === null,
    edit: (state === 'entwurf' && may.edit) || (state === 'abstimmung' && may.manage),
    editVoids: state === 'abstimmung' && may.manage,
    remove: state === 'entwurf' && may.edit,
    conflictForOthers: live && may.manage && electorate.length > 0,
  };
  return controls;
}

/** Whether any manager's control is shown (the page then has its "Leitung" section). */
export const hasManagerControls = (controls: MotionControls) =>
  controls.open ||
  controls.handCount ||
  controls.close ||
  controls.withdraw ||
  controls.remind ||
  controls.establish ||
  controls.edit ||
  controls.remove;

/** Whether the Vorsitz may note a conflict for this elector now (not after their secret ballot). */
export const mayNoteConflict = (
  motion: Pick<Motion, 'mode'>,
  entry: { conflicted: boolean; voted: boolean },
) => !entry.conflicted && !(motion.mode === 'geheim' && entry.voted);

/** A secret ballot cannot be changed; an open or named one can until the vote is closed. */
export const voteChangeable = (motion: Pick<Motion, 'mode'>) => motion.mode !== 'geheim';

// ---------------------------------------------------------------------------------------------
// Texts

/** "noch 3 Tage", "noch 1 Stunde", "noch 20 Minuten", "abgelaufen". */
export function remainingText(deadline: string, now: Date = new Date()): string {
  const left = new Date(deadline).getTime() - now.getTime();
  if (left <= 0) return 'abgelaufen';
  const minutes = Math.ceil(left / 60_000);
  if (minutes < 60) return `noch ${plural(minutes, 'Minute', 'Minuten')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `noch ${plural(hours, 'Stunde', 'Stunden')}`;
  // Rounded: a deadline set five days ahead still reads "noch 5 Tage" a few minutes later.
  return `noch ${plural(Math.round(minutes / 1440), 'Tag', 'Tage')}`;
}

/** "Frist: 14.12.2026, 18:00 Uhr (noch 3 Tage)". */
export const deadlineText = (deadline: string, now: Date = new Date()) =>
  `Frist: ${formatDateTime(deadline)} Uhr (${remainingText(deadline, now)})`;

/** "5 Ja · 2 Nein · 1 Enthaltung" ("2 Enthaltungen"). */
export const countsText = (counts: Record<VoteChoice, number>) =>
  `${counts.ja} Ja · ${counts.nein} Nein · ${plural(counts.enthaltung, 'Enthaltung', 'Enthaltungen')}`;

/**
 * The delivery table's summary: "3 von 7 Stimmberechtigten haben abgestimmt", with "1 hat
 * widersprochen" and "1 ist befangen" where there are such.
 */
export function participationText(
  electorate: readonly { voted: boolean; objected: boolean; conflicted: boolean }[],
): string {
  const voted = electorate.filter((entry) => entry.voted).length;
  const objected = electorate.filter((entry) => entry.objected).length;
  const conflicted = electorate.filter((entry) => entry.conflicted).length;
  // "Stimmberechtigten" is the dative of both numbers ("1 von 1 Stimmberechtigten").
  const parts = [
    `${voted} von ${electorate.length} Stimmberechtigten ${forCount(voted, 'hat', 'haben')} abgestimmt`,
  ];
  if (objected > 0) parts.push(`${objected} ${forCount(objected, 'hat', 'haben')} widersprochen`);
  if (conflicted > 0) parts.push(`${conflicted} ${forCount(conflicted, 'ist', 'sind')} befangen`);
  return parts.join(' · ');
}

/** "1 Beschlussvorlage", "3 Beschlussvorlagen". */
export const motionCountText = (count: number) => plural(count, 'Beschlussvorlage', 'Beschlussvorlagen');

/** Who took no part for a conflict: "Anna Becker und Dora Dietz nahmen … nicht teil." */
export const conflictsText = (names: readonly string[]) =>
  names.length === 0
    ? ''
    : `${listOfNames(names)} ${forCount(names.length, 'nahm', 'nahmen')} wegen Befangenheit an der Abstimmung nicht teil.`;

/** Not yet in the Beschlussbuch: a draft, a running or closed vote, an objection to record. */
export const inProgress = (motion: Pick<Motion, 'state' | 'resolution'>) =>
  motion.resolution === null &&
  (motion.state === 'entwurf' ||
    motion.state === 'abstimmung' ||
    motion.state === 'geschlossen' ||
    motion.state === 'widersprochen');

/** A running vote in which the member still has to vote (or object): "Ihre Stimme wird erbeten". */
export const awaitsOwnVote = (motion: Pick<Motion, 'state' | 'own' | 'deadline'>, now: Date = new Date()) =>
  running(motion, now) &&
  motion.own.elector &&
  !motion.own.conflicted &&
  !motion.own.voted &&
  !motion.own.objected;
