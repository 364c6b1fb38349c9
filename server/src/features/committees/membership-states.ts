import { berlinDate } from '@gremienportal/contracts/audit';
import { termTitle, type CommitteeRules, type MemberFunction } from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database, MembershipState } from '../../db/schema.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { recordAudit, type AuditActor } from '../audit/audit-log.service.ts';
import { membershipEndedMail, membershipStartedMail } from './committees.mails.ts';
import * as repo from './committees.repository.ts';
import { nextDay } from './membership-rules.ts';

type StateContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'logger'>;

/**
 * Rows a transaction reads again and again and does not change (an import applies thousands of
 * memberships of one committee and term): read once per transaction.
 */
const readInTransaction = new WeakMap<Transaction<Database>, Map<string, Promise<unknown>>>();
function once<T>(trx: Transaction<Database>, key: string, read: () => Promise<T>): Promise<T> {
  let reads = readInTransaction.get(trx);
  if (!reads) readInTransaction.set(trx, (reads = new Map()));
  if (!reads.has(key)) reads.set(key, read());
  return reads.get(key) as Promise<T>;
}

/** Today as the cooperative counts days: the calendar day in Europe/Berlin. */
export const berlinToday = (ctx: Pick<AppContext, 'clock'>) => berlinDate(ctx.clock.now());

/** Where a membership stands on `today`: its dates are inclusive. */
export function stateOn(
  membership: { valid_from: string; valid_until: string },
  today: string,
): MembershipState {
  if (today < membership.valid_from) return 'pending';
  return today <= membership.valid_until ? 'active' : 'ended';
}

/** An active membership gives the committee's role, an Ersatzmitglied's only if the rules say so. */
export const grantsRole = (fn: MemberFunction, rules: CommitteeRules) =>
  fn !== 'ersatzmitglied' || rules.substitutes_see_papers;

/**
 * Makes the user's committee-given roles (`user_roles.via_committee`) match their applied, active
 * memberships; roles an admin gave directly stay. A row is deleted only when nothing gives it.
 */
export async function syncCommitteeRoles(trx: Transaction<Database>, userId: number): Promise<void> {
  const active = await repo.activeMembershipRoles(trx, userId);
  const wanted = new Set(
    active.filter((row) => grantsRole(row.function, repo.parseRules(row.rules))).map((row) => row.role_id),
  );
  const current = await repo.userRoleRows(trx, userId);
  for (const row of current) {
    if (row.via_committee === 1 && !wanted.has(row.role_id)) {
      if (row.direct === 1) await repo.setViaCommittee(trx, userId, row.role_id, false);
      else await repo.deleteUserRole(trx, userId, row.role_id);
    }
  }
  for (const roleId of wanted) {
    const row = current.find((candidate) => candidate.role_id === roleId);
    if (!row) await repo.insertCommitteeRole(trx, userId, roleId);
    else if (row.via_committee !== 1) await repo.setViaCommittee(trx, userId, roleId, true);
  }
}

/**
 * Applies the state the calendar gives a membership on `today`, if it is not applied yet: moves
 * the state (only the transaction whose update changes the row goes on, so each start and end
 * happens once across instances), records it, tells the member by mail when the membership began
 * or ended, and brings the member's roles in line. Returns whether it changed anything.
 */
export async function applyMembershipState(
  ctx: StateContext,
  trx: Transaction<Database>,
  membership: repo.MembershipRow,
  today: string,
  actor: AuditActor | null,
): Promise<boolean> {
  const next = stateOn(membership, today);
  if (next === membership.state) return false;
  if (!(await repo.claimState(trx, membership, next))) return false;
  const committee = await once(trx, `committee ${membership.committee_id}`, () =>
    repo.findCommittee(trx, membership.committee_id),
  );
  const term = await once(trx, `term ${membership.term_id}`, () => repo.findTerm(trx, membership.term_id));
  const user = membership.user_id === null ? undefined : await repo.findUserBrief(trx, membership.user_id);
  const started = next === 'active';
  // An Ersatzmitglied who moved up serves on without a break: no mail about the end of that part.
  const continues =
    next === 'ended' &&
    membership.user_id !== null &&
    (await repo.membershipsOfUser(trx, membership.user_id)).some(
      (other) =>
        other.committee_id === membership.committee_id &&
        other.valid_from === nextDay(membership.valid_until),
    );
  const ended = next === 'ended' && membership.state === 'active' && !continues;
  if (started || next === 'ended') {
    await recordAudit(trx, ctx.clock, {
      actor,
      action: started ? 'membership.started' : 'membership.ended',
      objectType: 'membership',
      objectId: membership.id,
      objectLabel: `${membership.holder_name}, ${committee?.name ?? ''}`,
      details: {
        committee_id: membership.committee_id,
        from: membership.valid_from,
        until: membership.valid_until,
      },
    });
  }
  if (user && committee && term && (started || ended)) {
    const facts = {
      user,
      committee: { id: committee.id, name: committee.name },
      function: membership.function,
      rank: membership.rank,
      from: membership.valid_from,
      until: membership.valid_until,
      termTitle: termTitle(term.starts_on, term.ends_on),
    };
    const mail = started
      ? membershipStartedMail(facts, today, ctx.config.PUBLIC_URL)
      : membershipEndedMail(facts, today, ctx.config.PUBLIC_URL);
    await enqueueMail(trx, ctx.clock, mail);
  }
  if (membership.user_id !== null) await syncCommitteeRoles(trx, membership.user_id);
  return true;
}

/**
 * The midnight run (every minute, on every instance): starts and ends what the calendar has
 * reached, archives the terms that have ended. Each change in its own transaction; a portal that
 * was down over midnight catches up on its first run.
 */
export async function applyDueMemberships(
  ctx: StateContext,
  archiveTerms: (today: string) => Promise<number>,
) {
  const today = berlinToday(ctx);
  let changed = 0;
  for (const due of await repo.dueMemberships(ctx.db.kysely, today)) {
    const done = await ctx.db.kysely.transaction().execute(async (trx) => {
      const membership = await repo.findMembership(trx, due.id);
      return membership ? applyMembershipState(ctx, trx, membership, today, null) : false;
    });
    if (done) changed += 1;
  }
  const archived = await archiveTerms(today);
  if (changed + archived > 0)
    ctx.logger.info({ changed, archived }, 'Mitgliedschaften und Amtsperioden fortgeschrieben');
  return changed + archived;
}

/**
 * Before an account is deleted (in the deleting transaction): its memberships end today (one that
 * has not begun is removed), recorded with the reason "Sonstiges" where the term runs on, so the
 * directory proposes the Nachrücker; the history keeps the name.
 */
export async function endMembershipsOfDeletedUser(
  ctx: Pick<AppContext, 'clock'>,
  trx: Transaction<Database>,
  userId: number,
  actor: AuditActor | null,
): Promise<void> {
  const today = berlinToday(ctx);
  for (const membership of await repo.membershipsOfUser(trx, userId)) {
    if (membership.valid_until < today) continue;
    const term = await repo.findTerm(trx, membership.term_id);
    const label = membership.holder_name;
    if (membership.valid_from > today) {
      await repo.deleteMembership(trx, membership.id);
    } else {
      await repo.updateMembership(trx, membership.id, {
        valid_until: today,
        reason: term && today < term.ends_on ? 'sonstiges' : membership.reason,
        state: 'ended',
        updated_at: ctx.clock.now().toISOString(),
      });
    }
    await recordAudit(trx, ctx.clock, {
      actor,
      action: 'membership.ended',
      objectType: 'membership',
      objectId: membership.id,
      objectLabel: label,
      details: { committee_id: membership.committee_id, until: today, account_deleted: true },
    });
  }
}
