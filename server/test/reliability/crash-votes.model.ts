import { CHOICES, MOTION_MESSAGES, type VoteMode } from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';
import { clientFor, type ApiClient } from './portal-process.ts';
import type { CrashRandom } from './crash-rounds.ts';

/**
 * The model of crash-votes.test.ts: the voters, the requests each voter sent and what became of
 * them, and the voters' and the Vorsitz's load up to the kill. The kill moments are in
 * crash-votes.moments.ts, the committee and the motions in crash-votes.setup.ts.
 */

/** Voting members besides the Vorsitz (the admin, who manages and establishes but does not vote). */
export const VOTERS = 24;

export interface Voter {
  userId: number;
  /** As the electorate and the named results show it. */
  name: string;
  token: string;
}

/** One vote request: `open` until its answer came, or until the check after the kill decides. */
export interface Cast {
  choice: Choice;
  outcome: 'open' | 'stored' | 'lost';
}

export interface MotionModel {
  id: number;
  mode: VoteMode;
  /** Per voter, the vote requests in the order they were sent (one at a time). */
  casts: Map<number, Cast[]>;
  closed: boolean;
  /** Once established: its entry of the Beschlussbuch. */
  resolution?: { id: number; number: string };
  /** An establishment sent and not answered, until the check after the kill decides. */
  establishing: boolean;
}

export interface VoteStats {
  answered: number;
  interrupted: number;
  /** Interrupted votes found stored after the kill. */
  interruptedStored: number;
  /** Votes of members whose vote had been cut off, cast after the restart. */
  again: number;
  /** Second secret ballots refused (409) after the restart. */
  refused: number;
  /** Kills after which some members had voted and others had not. */
  midWay: number;
  /** Feststellungen answered under load, interrupted, and interrupted but stored. */
  established: number;
  establishInterrupted: number;
  establishStored: number;
}

export const newVoteStats = (): VoteStats => ({
  answered: 0,
  interrupted: 0,
  interruptedStored: 0,
  again: 0,
  refused: 0,
  midWay: 0,
  established: 0,
  establishInterrupted: 0,
  establishStored: 0,
});

export class UnexpectedAnswer extends Error {}

/** The choice a voter's stored requests leave (the last one; a secret ballot has one), if any. */
export const storedChoice = (motion: MotionModel, userId: number): Choice | undefined =>
  (motion.casts.get(userId) ?? []).filter((cast) => cast.outcome === 'stored').at(-1)?.choice;

/** What the count of a motion must show: the stored choices of the voters. */
export function expectedCounts(motion: MotionModel, voters: readonly Voter[]) {
  const counts = { ja: 0, nein: 0, enthaltung: 0 };
  for (const voter of voters) {
    const choice = storedChoice(motion, voter.userId);
    if (choice) counts[choice] += 1;
  }
  return counts;
}

/** The named result: who voted how, in name order. */
export const expectedNames = (motion: MotionModel, voters: readonly Voter[]) =>
  voters
    .flatMap((voter) => {
      const choice = storedChoice(motion, voter.userId);
      return choice ? [{ name: voter.name, choice }] : [];
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'de'));

/** The parsed body of an answer with the expected status; another status is an UnexpectedAnswer. */
export async function answerOf<T>(res: Response, expected: number, what: string): Promise<T> {
  const body = await res.text();
  if (res.status !== expected) throw new UnexpectedAnswer(`${what}: ${res.status} ${body}`);
  return JSON.parse(body) as T;
}

/** One round's load up to the kill, shared by its clients. */
export interface VoteLoad {
  url: string;
  killing: boolean;
  signal: AbortSignal;
  failures: string[];
  /** Called for every answered vote. */
  answered: () => void;
}

/** Sends one vote; true when it was answered 200 (and the answer shows it). */
async function cast(voter: Voter, motion: MotionModel, choice: Choice, run: VoteLoad, stats: VoteStats) {
  const record: Cast = { choice, outcome: 'open' };
  motion.casts.set(voter.userId, [...(motion.casts.get(voter.userId) ?? []), record]);
  try {
    const res = await clientFor(run.url, voter.token).request(
      'POST',
      `/motions/${motion.id}/votes`,
      { choice },
      run.signal,
    );
    const what = `Stimme von ${voter.name} zu ${motion.mode} ${motion.id}`;
    const { data, message } = await answerOf<{
      data: { own: { voted: boolean; choice: Choice | null } };
      message: string;
    }>(res, 200, what);
    const shown = motion.mode === 'geheim' ? null : choice;
    if (!data.own.voted || data.own.choice !== shown || message !== MOTION_MESSAGES.voted) {
      throw new UnexpectedAnswer(`${what}: ${JSON.stringify({ own: data.own, message })}`);
    }
    record.outcome = 'stored';
    stats.answered += 1;
    run.answered();
    return true;
  } catch (error) {
    // Without an answer because of the kill, the outcome is open; any other answer fails.
    if (!run.killing || error instanceof UnexpectedAnswer) run.failures.push(String(error));
    return false;
  }
}

/**
 * One member's votes in a round: the secret ballot and the open (or named) vote at once; then,
 * sometimes, a change of the open vote to another choice. The choices are drawn before the first
 * request, so the seed decides them whatever the order of the answers.
 */
export async function voterLoad(
  voter: Voter,
  motions: { secret: MotionModel; open: MotionModel },
  run: VoteLoad,
  stats: VoteStats,
  { random, pick }: CrashRandom,
) {
  const secretChoice = pick(CHOICES);
  const openChoice = pick(CHOICES);
  const change = random() < 0.5 ? pick(CHOICES.filter((choice) => choice !== openChoice)) : undefined;
  const [, first] = await Promise.all([
    cast(voter, motions.secret, secretChoice, run, stats),
    cast(voter, motions.open, openChoice, run, stats),
  ]);
  if (first && change && !run.killing) await cast(voter, motions.open, change, run, stats);
}

/** The Vorsitz establishes the closed motions not yet in the Beschlussbuch, one after the other. */
export async function establishLoad(
  chair: ApiClient,
  motions: readonly MotionModel[],
  nextCode: () => Promise<string>,
  run: Pick<VoteLoad, 'killing' | 'signal' | 'failures'>,
  stats?: VoteStats,
) {
  for (const motion of motions) {
    if (run.killing) return;
    try {
      const code = await nextCode();
      motion.establishing = true;
      const res = await chair.request('POST', `/motions/${motion.id}/establish`, { code }, run.signal);
      const { data } = await answerOf<{ data: { id: number; number: string; motion_id: number } }>(
        res,
        200,
        `Feststellung von ${motion.id}`,
      );
      if (data.motion_id !== motion.id) throw new UnexpectedAnswer(`Feststellung: ${JSON.stringify(data)}`);
      motion.resolution = { id: data.id, number: data.number };
      motion.establishing = false;
      if (stats) stats.established += 1;
    } catch (error) {
      if (!run.killing || error instanceof UnexpectedAnswer) run.failures.push(String(error));
      return;
    }
  }
}
