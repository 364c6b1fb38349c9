import { expect } from 'vitest';
import { CHOICES, MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import type { Db } from '../../src/db/database.ts';
import { verifyChains, type ResolutionRecord } from '../../src/features/resolutions/resolution-chain.ts';
import { clientFor, type ApiClient } from './portal-process.ts';
import type { CrashRandom } from './crash-rounds.ts';
import type { Inspector } from './inspect.ts';
import {
  answerOf,
  expectedCounts,
  expectedNames,
  storedChoice,
  type MotionModel,
  type Voter,
  type VoteStats,
} from './crash-votes.model.ts';

/**
 * What crash-votes.test.ts checks in the database after a kill, after the restart and after the
 * closing, and the votes of the members whose vote was cut off.
 */

const byNumber = (a: number, b: number) => a - b;
const sorted = <T>(list: T[]) => [...list].sort();

/**
 * Every vote against the model, read in one transaction. An open request is decided here: a
 * secret ballot took effect if its voter is marked as having voted, an open vote if the stored
 * row shows its choice (a change always picks another choice). Then, exactly: an elector is marked
 * `voted` iff a request of theirs is stored; a secret vote has as many ballots as marked electors,
 * with exactly their choices, and no audit entry; an open vote has one row per marked elector with
 * the last stored choice and one `motion.voted` entry per stored request.
 */
export async function checkVotes(
  where: string,
  db: Inspector,
  motions: MotionModel[],
  voters: readonly Voter[],
  adminId: number,
  stats?: VoteStats,
) {
  const ids = motions.map((motion) => motion.id);
  const state = await db.kysely.transaction().execute(async (trx) => ({
    electorate: await trx
      .selectFrom('motion_electorate')
      .select(['motion_id', 'user_id', 'voted', 'conflicted'])
      .where('motion_id', 'in', ids)
      .execute(),
    ballots: await trx
      .selectFrom('motion_ballots')
      .select(['motion_id', 'choice'])
      .where('motion_id', 'in', ids)
      .execute(),
    votes: await trx
      .selectFrom('motion_votes')
      .select(['motion_id', 'user_id', 'choice'])
      .where('motion_id', 'in', ids)
      .execute(),
    audits: await trx
      .selectFrom('audit_log')
      .select(['object_id', 'actor_id'])
      .where('object_type', '=', 'motion')
      .where('object_id', 'in', ids)
      .where('action', '=', 'motion.voted')
      .execute(),
  }));
  let midWay = false;
  for (const motion of motions) {
    const what = `${where}: ${motion.mode} ${motion.id}`;
    const electors = state.electorate.filter((row) => row.motion_id === motion.id);
    expect(electors.map((row) => row.user_id).sort(byNumber), `${what}: Stimmberechtigte`).toEqual(
      [adminId, ...voters.map((voter) => voter.userId)].sort(byNumber),
    );
    expect(
      electors.filter((row) => Number(row.conflicted) !== 0),
      `${what}: Befangenheit`,
    ).toEqual([]);
    const marked = new Set(electors.filter((row) => Number(row.voted) === 1).map((row) => row.user_id));
    expect(marked.has(adminId), `${what}: der Vorsitz hat nicht abgestimmt`).toBe(false);
    const rows = new Map(
      state.votes.filter((row) => row.motion_id === motion.id).map((row) => [row.user_id, row.choice]),
    );
    for (const voter of voters) {
      const casts = motion.casts.get(voter.userId) ?? [];
      const last = casts.at(-1);
      if (last?.outcome === 'open') {
        const took =
          motion.mode === 'geheim' ? marked.has(voter.userId) : rows.get(voter.userId) === last.choice;
        last.outcome = took ? 'stored' : 'lost';
        if (stats) {
          stats.interrupted += 1;
          if (took) stats.interruptedStored += 1;
        }
      }
      const who = `${what}, ${voter.name}`;
      expect(
        casts.filter((cast) => cast.outcome === 'open'),
        `${who}: nur die letzte Anfrage ist offen`,
      ).toEqual([]);
      const stored = casts.filter((cast) => cast.outcome === 'stored');
      expect(marked.has(voter.userId), `${who}: als abgestimmt vermerkt`).toBe(stored.length > 0);
      if (motion.mode === 'geheim') {
        expect(stored.length, `${who}: geheime Stimmen`).toBeLessThanOrEqual(1);
        continue;
      }
      expect(rows.get(voter.userId), `${who}: gespeicherte Stimme`).toBe(storedChoice(motion, voter.userId));
      expect(
        state.audits.filter((row) => row.object_id === motion.id && row.actor_id === voter.userId).length,
        `${who}: Protokolleinträge „abgestimmt“`,
      ).toBe(stored.length);
    }
    const ballots = state.ballots.filter((row) => row.motion_id === motion.id).map((row) => row.choice);
    if (motion.mode === 'geheim') {
      expect(ballots.length, `${what}: Stimmzettel und Vermerke`).toBe(marked.size);
      expect(sorted(ballots), `${what}: Stimmzettel`).toEqual(
        sorted(voters.flatMap((voter) => storedChoice(motion, voter.userId) ?? [])),
      );
      expect(
        state.audits.filter((row) => row.object_id === motion.id),
        `${what}: geheime Stimmen im Protokoll`,
      ).toEqual([]);
    } else {
      expect(ballots, `${what}: Stimmzettel einer offenen Abstimmung`).toEqual([]);
      expect([...rows.keys()].sort(byNumber), `${what}: Stimmen und Vermerke`).toEqual(
        [...marked].sort(byNumber),
      );
    }
    if (marked.size > 0 && marked.size < voters.length) midWay = true;
  }
  return { midWay };
}

/**
 * The Beschlussbuch against the model: an open Feststellung took effect wholly (the entry, the
 * motion `festgestellt`, one audit entry, one mail per member) or not at all; each entry's record
 * holds the motion's count; every committee's chain verifies.
 */
export async function checkResolutions(
  where: string,
  db: Inspector,
  motions: readonly MotionModel[],
  voters: readonly Voter[],
  members: number,
  stats?: VoteStats,
) {
  const state = await db.kysely.transaction().execute(async (trx) => ({
    resolutions: await trx.selectFrom('resolutions').selectAll().orderBy('id').execute(),
    motions: await trx.selectFrom('motions').select(['id', 'state']).execute(),
    audits: await trx
      .selectFrom('audit_log')
      .select('object_id')
      .where('action', '=', 'resolution.established')
      .execute(),
    mails: await trx.selectFrom('outbox').select('subject').where('subject', 'like', 'Beschluss %').execute(),
  }));
  for (const motion of motions.filter((candidate) => candidate.closed)) {
    const what = `${where}: Feststellung von ${motion.mode} ${motion.id}`;
    const rows = state.resolutions.filter((row) => row.motion_id === motion.id);
    expect(rows.length, `${what}: Einträge`).toBeLessThanOrEqual(1);
    if (motion.establishing) {
      motion.establishing = false;
      if (rows[0]) motion.resolution = { id: rows[0].id, number: rows[0].number };
      if (stats) {
        stats.establishInterrupted += 1;
        if (rows[0]) stats.establishStored += 1;
      }
    }
    expect(
      rows.map((row) => row.id),
      `${what}: Eintrag im Beschlussbuch`,
    ).toEqual(motion.resolution ? [motion.resolution.id] : []);
    expect(state.motions.find((row) => row.id === motion.id)?.state, `${what}: Zustand`).toBe(
      motion.resolution ? 'festgestellt' : 'geschlossen',
    );
    const row = rows[0];
    if (!row) continue;
    expect(state.audits.filter((entry) => entry.object_id === row.id).length, `${what}: Protokoll`).toBe(1);
    expect(
      state.mails.filter((mail) => mail.subject.startsWith(`Beschluss ${row.number}: `)).length,
      `${what}: Mails an die Mitglieder`,
    ).toBe(members);
    const record = JSON.parse(row.record) as ResolutionRecord;
    expect(
      {
        motion_id: record.motion_id,
        mode: record.mode,
        members: record.members,
        participants: record.participants,
        counts: record.counts,
        names: record.names,
      },
      `${what}: Inhalt`,
    ).toEqual({
      motion_id: motion.id,
      mode: motion.mode,
      members,
      participants: voters.filter((voter) => storedChoice(motion, voter.userId)).length,
      counts: expectedCounts(motion, voters),
      names: motion.mode === 'namentlich' ? expectedNames(motion, voters) : null,
    });
  }
  const known = new Set(motions.map((motion) => motion.id));
  expect(
    state.resolutions.filter((row) => !known.has(row.motion_id!)).map((row) => row.number),
    `${where}: Einträge ohne Feststellung`,
  ).toEqual([]);
  // verifyChains reads through `kysely` only.
  expect(await verifyChains({ kysely: db.kysely } as Db), `${where}: Beschlussbuch`).toEqual({
    ok: true,
    count: state.resolutions.length,
  });
}

/**
 * After the restart: every member whose secret ballot was cut off votes now (200) and cannot vote
 * a second time (409), as the members whose ballot was stored cannot; every member without a
 * stored open vote votes now. Then the Vorsitz closes both votes: the count shows exactly the
 * stored votes, a secret vote's participants are recorded in name order, and no vote is taken any
 * more.
 */
export async function voteAgainAndClose(
  where: string,
  admin: ApiClient,
  db: () => Inspector,
  round: { secret: MotionModel; open: MotionModel },
  voters: readonly Voter[],
  stats: VoteStats,
  { pick }: CrashRandom,
) {
  const vote = (voter: Voter, motion: MotionModel, choice: string) =>
    clientFor(admin.url, voter.token).request('POST', `/motions/${motion.id}/votes`, { choice });
  const secondBallot = async (voter: Voter, motion: MotionModel) => {
    const res = await vote(voter, motion, pick(CHOICES));
    const body = await res.text();
    expect(res.status, `${where}: zweiter Stimmzettel von ${voter.name}: ${body}`).toBe(409);
    expect(body).toContain(MOTION_MESSAGES.alreadyVotedSecret);
    stats.refused += 1;
  };
  await Promise.all(
    voters.flatMap((voter) =>
      [round.secret, round.open].map(async (motion) => {
        if (storedChoice(motion, voter.userId)) {
          if (motion.mode === 'geheim') await secondBallot(voter, motion);
          return;
        }
        const choice = pick(CHOICES);
        await answerOf(await vote(voter, motion, choice), 200, `${where}: erneute Stimme von ${voter.name}`);
        motion.casts.set(voter.userId, [
          ...(motion.casts.get(voter.userId) ?? []),
          { choice, outcome: 'stored' },
        ]);
        stats.again += 1;
        if (motion.mode === 'geheim') await secondBallot(voter, motion);
      }),
    ),
  );

  for (const motion of [round.secret, round.open]) {
    const what = `${where}: Schließen von ${motion.mode} ${motion.id}`;
    const { data } = await answerOf<{ data: { state: string; counts: unknown; names: unknown } }>(
      await admin.request('POST', `/motions/${motion.id}/close`),
      200,
      what,
    );
    motion.closed = true;
    expect(data, what).toMatchObject({
      state: 'geschlossen',
      counts: expectedCounts(motion, voters),
      names: motion.mode === 'namentlich' ? expectedNames(motion, voters) : null,
    });
    const late = await vote(voters[0]!, motion, 'ja');
    expect(late.status, `${what}: Stimme nach dem Schließen`).toBe(409);
  }
  const inspector = db();
  try {
    const participation = await inspector.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('object_type', '=', 'motion')
      .where('object_id', '=', round.secret.id)
      .where('action', '=', 'motion.secret_participation')
      .execute();
    expect(
      participation.map((row) => JSON.parse(row.details!) as unknown),
      `${where}: Teilnahme an der geheimen Abstimmung`,
    ).toEqual([{ participants: expectedNames(round.secret, voters).map((entry) => entry.name) }]);
  } finally {
    await inspector.close();
  }
}
