// Over 300 lines: the seat kinds, what each owes after the run and the kill moments are one model that
// the rounds, the after-kill checks and the final check all read; split, they would pass it around.
import { berlinDate } from '@gremienportal/contracts/audit';
import type { MemberFunction } from '@gremienportal/contracts/committees';
import { sleep } from './portal-process.ts';
import type { Inspector } from './inspect.ts';
import type { CrashRandom, PortalPlace } from './crash-rounds.ts';

/**
 * The model of crash-memberships.test.ts: the memberships each round leaves for the membership run
 * (decision 189) as a portal that was down over midnight finds them, what the run owes each of
 * them, and the moments at which a round kills the run.
 */

/** New members per round; enough that a run lasts a good part of a second. */
export const SEATS_PER_ROUND = 120;

type State = 'pending' | 'active' | 'ended';
/**
 * - `start`: began yesterday, not applied yet: becomes active, a start mail, the role.
 * - `end`: ended the day before yesterday, still applied as active: ends, an end mail, no role.
 * - `endDirect`: the same for someone who also holds the role directly: the role stays, as direct.
 * - `moveUp`: an Ersatzmitglied (no role) whose part ended, Mitglied since yesterday: the end
 *   without a mail (serves on), the start with one, the role.
 * - `missed`: began and ended while the portal was down: ends without a mail and never gives the role.
 * - `future`: begins in a month: nothing. `stay`: active and still running: nothing.
 */
export type SeatKind = 'start' | 'end' | 'endDirect' | 'moveUp' | 'missed' | 'future' | 'stay';
const KINDS: readonly SeatKind[] = ['start', 'end', 'endDirect', 'moveUp', 'missed', 'future', 'stay'];

export interface ModelMembership {
  id: number;
  function: MemberFunction;
  from: string;
  until: string;
  /** As inserted, and as the run must leave it. */
  initial: State;
  target: State;
  /** The mail the transition owes: none for an end that is no end (moving up) or one never begun. */
  mail: 'start' | 'end' | null;
}

export interface Seat {
  kind: SeatKind;
  userId: number;
  email: string;
  direct: boolean;
  memberships: ModelMembership[];
}

export interface MembershipModel {
  committeeId: number;
  committeeName: string;
  termId: number;
  roleId: number;
  seats: Seat[];
  bySeatEmail: Map<string, Seat>;
}

/** `day` moved by `days` (`YYYY-MM-DD`). */
export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Today in Berlin, as the portal counts days. Dates keep two days' distance, so a midnight meanwhile changes nothing. */
export const berlinToday = () => berlinDate(new Date());

/**
 * With the portal down: new members whose memberships the calendar has overtaken, each as the
 * portal left it before (an active membership has its role, `via_committee`), so that the next
 * start's run has their starts and ends to apply.
 */
export async function addSeats(
  place: PortalPlace,
  model: MembershipModel,
  round: number,
  { pick }: CrashRandom,
) {
  const db = place.inspect(true);
  const today = berlinToday();
  const now = new Date().toISOString();
  try {
    for (let i = 0; i < SEATS_PER_ROUND; i += 1) {
      const kind = i < KINDS.length ? KINDS[i]! : pick(KINDS);
      const email = `gremium-${round}-${i}@example.org`;
      const lastname = `Mitglied ${round}-${i}`;
      const { id: userId } = await db.kysely
        .insertInto('users')
        .values({
          title: 'Herr',
          firstname: 'Jan',
          lastname,
          email,
          password_hash: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const seat: Seat = { kind, userId, email, direct: kind === 'endDirect', memberships: [] };
      const add = async (m: Omit<ModelMembership, 'id'>) => {
        const { id } = await db.kysely
          .insertInto('committee_memberships')
          .values({
            committee_id: model.committeeId,
            term_id: model.termId,
            user_id: userId,
            holder_name: `Jan ${lastname}`,
            function: m.function,
            rank: m.function === 'ersatzmitglied' ? 1 : null,
            valid_from: m.from,
            valid_until: m.until,
            district: null,
            reason: null,
            state: m.initial,
            succeeded_by: null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        seat.memberships.push({ id, ...m });
      };
      const long = shiftDay(today, 400);
      if (kind === 'start') {
        await add({
          function: 'mitglied',
          from: shiftDay(today, -1),
          until: long,
          initial: 'pending',
          target: 'active',
          mail: 'start',
        });
      } else if (kind === 'end' || kind === 'endDirect') {
        await add({
          function: 'mitglied',
          from: shiftDay(today, -400),
          until: shiftDay(today, -2),
          initial: 'active',
          target: 'ended',
          mail: 'end',
        });
      } else if (kind === 'moveUp') {
        const ended = shiftDay(today, -2);
        await add({
          function: 'ersatzmitglied',
          from: shiftDay(today, -300),
          until: ended,
          initial: 'active',
          target: 'ended',
          mail: null,
        });
        await add({
          function: 'mitglied',
          from: shiftDay(ended, 1),
          until: long,
          initial: 'pending',
          target: 'active',
          mail: 'start',
        });
      } else if (kind === 'missed') {
        await add({
          function: 'mitglied',
          from: shiftDay(today, -9),
          until: shiftDay(today, -2),
          initial: 'pending',
          target: 'ended',
          mail: null,
        });
      } else if (kind === 'future') {
        await add({
          function: 'mitglied',
          from: shiftDay(today, 30),
          until: long,
          initial: 'pending',
          target: 'pending',
          mail: null,
        });
      } else {
        await add({
          function: 'mitglied',
          from: shiftDay(today, -30),
          until: long,
          initial: 'active',
          target: 'active',
          mail: null,
        });
      }
      // The role as the portal gave it: by an active Mitglied's membership, and directly.
      const viaBefore = seat.memberships.some(
        (m) => m.initial === 'active' && m.function !== 'ersatzmitglied',
      );
      if (viaBefore || seat.direct) {
        await db.kysely
          .insertInto('user_roles')
          .values({
            user_id: userId,
            role_id: model.roleId,
            direct: seat.direct ? 1 : 0,
            via_committee: viaBefore ? 1 : 0,
          })
          .execute();
      }
      model.seats.push(seat);
      model.bySeatEmail.set(email, seat);
    }
  } finally {
    await db.close();
  }
}

/** How many transitions a run still owes (memberships whose applied state is not the calendar's). */
export const owedTransitions = (model: MembershipModel, states: ReadonlyMap<number, string>) =>
  model.seats.flatMap((seat) => seat.memberships).filter((m) => states.get(m.id) !== m.target).length;

/** What the checks read, in one transaction. */
export async function membershipState(db: Inspector, model: MembershipModel) {
  return db.kysely.transaction().execute(async (trx) => ({
    memberships: await trx
      .selectFrom('committee_memberships')
      .select(['id', 'state', 'user_id'])
      .where('committee_id', '=', model.committeeId)
      .execute(),
    roles: await trx
      .selectFrom('user_roles')
      .select(['user_id', 'direct', 'via_committee'])
      .where('role_id', '=', model.roleId)
      .execute(),
    audits: await trx
      .selectFrom('audit_log')
      .select(['object_id', 'action'])
      .where('object_type', '=', 'membership')
      .where('action', 'in', ['membership.started', 'membership.ended'])
      .execute(),
    outbox: await trx
      .selectFrom('outbox')
      .select(['id', 'to_address', 'subject', 'sent_at'])
      .where('subject', 'like', `Ihre Mitgliedschaft im Gremium%`)
      .orderBy('id')
      .execute(),
  }));
}

/** Transitions recorded so far (each writes one audit entry in its transaction). */
export async function countTransitions(inspect: () => Inspector): Promise<number> {
  const db = inspect();
  try {
    const row = await db.kysely
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', 'in', ['membership.started', 'membership.ended'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.close();
  }
}

/**
 * When to kill the membership run, prepared before the portal starts. Rounds 1, 4: when the n-th
 * new transition is committed; 2, 5: a random time after the run's first one; 3, 6: when the n-th
 * membership mail of the round is in the outbox (the same commit, seen from the mail's side).
 */
export async function membershipKillMoment(
  round: number,
  place: { inspect: () => Inspector },
  before: { transitions: number; mails: number },
  owed: number,
  { between }: CrashRandom,
): Promise<() => Promise<void>> {
  const until = async (count: (db: Inspector) => Promise<number>, wanted: number) => {
    const db = place.inspect();
    try {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(2)) {
        if ((await count(db)) >= wanted) return;
      }
    } finally {
      await db.close();
    }
  };
  const transitions = async (db: Inspector) =>
    Number(
      (
        await db.kysely
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('action', 'in', ['membership.started', 'membership.ended'])
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mails = async (db: Inspector) =>
    Number(
      (
        await db.kysely
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('subject', 'like', 'Ihre Mitgliedschaft im Gremium%')
          .executeTakeFirstOrThrow()
      ).n,
    );
  if (round % 3 === 1) {
    const wanted = before.transitions + between(1, Math.max(2, owed));
    return () => until(transitions, wanted);
  }
  if (round % 3 === 0) {
    const wanted = before.mails + between(1, Math.max(2, Math.floor(owed / 2)));
    return () => until(mails, wanted);
  }
  const delay = between(0, 60);
  return async () => {
    await until(transitions, before.transitions + 1);
    await sleep(delay);
  };
}
