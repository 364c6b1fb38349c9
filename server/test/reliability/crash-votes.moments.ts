import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './portal-process.ts';
import { fileChanges, type CrashRandom, type PortalPlace } from './crash-rounds.ts';
import type { Inspector } from './inspect.ts';
import { VOTERS } from './crash-votes.model.ts';

/** The moments at which crash-votes.test.ts kills the portal, prepared before each round's load. */

/** Until `measure` has changed `wanted` times (or nothing is left to wait for). */
async function changes(
  place: PortalPlace,
  measure: (db: Inspector) => Promise<string>,
  wanted: number,
  done: () => boolean,
) {
  const db = place.inspect();
  try {
    let last = await measure(db);
    for (let seen = 0; seen < wanted && !done(); await sleep(2)) {
      const now = await measure(db);
      if (now !== last) seen += 1;
      last = now;
    }
  } finally {
    await db.close();
  }
}

/** Until `count` has grown by `wanted` (or nothing is left to wait for). */
async function grown(
  place: PortalPlace,
  count: (db: Inspector) => Promise<number>,
  wanted: number,
  done: () => boolean,
) {
  const db = place.inspect();
  try {
    const start = await count(db);
    while (!done() && (await count(db)) < start + wanted) await sleep(2);
  } finally {
    await db.close();
  }
}

/** Stored ballots and votes of the motions, and entries of the Beschlussbuch. */
const storedRows = (motionIds: number[]) => async (db: Inspector) => {
  const count = async (table: 'motion_ballots' | 'motion_votes') =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('motion_id', 'in', motionIds)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return (await count('motion_ballots')) + (await count('motion_votes'));
};
const resolutionRows = async (db: Inspector) =>
  Number(
    (
      await db.kysely
        .selectFrom('resolutions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * What a vote writes, and the answer after it (which records "first opened"): the marks of the
 * electorate, the stored rows and the audit entries.
 */
const voteWrites = (motionIds: number[]) => async (db: Inspector) => {
  const marks = await db.kysely
    .selectFrom('motion_electorate')
    .select((eb) => [
      eb.fn.sum<number>('voted').as('voted'),
      eb.fn.count<number>('first_opened_at').as('opened'),
    ])
    .where('motion_id', 'in', motionIds)
    .executeTakeFirstOrThrow();
  const audit = await db.kysely
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirstOrThrow();
  return `${marks.voted}:${marks.opened}:${await storedRows(motionIds)(db)}:${audit.last}`;
};

export type KillKind = 'establish' | 'change' | 'stored' | 'answer';

/**
 * When to kill, prepared before the load starts (the votes of PostgreSQL's pool commit well ahead
 * of their answers, so most moments are read from the database). Rounds 3, 7, …: right as the
 * n-th vote is answered, so an answered vote meets the kill before anything else happens. 1, 5,
 * …: as the database changes for the n-th time (SQLite: a write to its log; PostgreSQL: a mark,
 * row or audit entry of the votes, or an answer's "first opened"), which lands between the writes
 * of a vote and its answer. 2, 6, …: as the n-th ballot or vote is committed. 4, 8, …: right as the
 * first entry of the round reaches the Beschlussbuch, before the Vorsitz has its answer.
 */
export function voteKillMoment(
  round: number,
  place: PortalPlace,
  motionIds: number[],
  { between }: CrashRandom,
) {
  const kind = (['establish', 'change', 'stored', 'answer'] as const satisfies KillKind[])[round % 4]!;
  const wanted = kind === 'answer' ? between(1, 2 * VOTERS - 8) : between(1, VOTERS);
  let answers = 0;
  let reached = () => {};
  const answeredEnough = new Promise<void>((resolve) => (reached = resolve));
  let finished = false;
  const done = () => finished;
  const log = join(place.dataDir, 'portal.sqlite-wal');
  const moment = async (): Promise<void> => {
    if (kind === 'answer') return answeredEnough;
    if (kind === 'establish') return grown(place, resolutionRows, 1, done);
    if (kind === 'stored') return grown(place, storedRows(motionIds), wanted, done);
    // A commit writes several pages to the log, each a change.
    if (!place.postgres && existsSync(log)) return fileChanges(log, wanted * 4);
    return changes(place, voteWrites(motionIds), wanted, done);
  };
  return {
    kind,
    moment,
    answered: () => {
      answers += 1;
      if (answers >= wanted) reached();
    },
    /** The load is over: nothing more to wait for. */
    finish: () => {
      finished = true;
      reached();
    },
  };
}
