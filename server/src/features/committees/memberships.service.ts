import {
  COMMITTEE_MESSAGES,
  type CreateMembershipBody,
  type Membership,
  type UpdateMembershipBody,
} from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import { auditBy, changeOf, recordAudit, type AuditActor } from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeMemberEmail, seesSuccessorProposals } from '../../policies/committees.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import * as repo from './committees.repository.ts';
import {
  assertValid,
  holderName,
  nextDay,
  proposedSuccessor,
  type MembershipDraft,
} from './membership-rules.ts';
import { applyMembershipState, berlinToday, syncCommitteeRoles } from './membership-states.ts';
import { currentTermOf } from './terms.service.ts';

export function membershipsService(
  ctx: AppContext,
  visibleCommittee: (principal: Principal, id: number) => Promise<unknown>,
) {
  const db = () => ctx.db.kysely;
  const writes = membershipWrites(ctx);

  function present(
    principal: Principal,
    row: repo.MembershipWithUser,
    today: string,
    successor?: repo.MembershipWithUser,
  ): Membership {
    const user = {
      id: row.user_id,
      title: row.title ?? '',
      firstname: row.firstname ?? row.holder_name,
      lastname: row.lastname ?? '',
      ...(row.email !== null && canSeeMemberEmail(principal, row) ? { email: row.email } : {}),
    };
    return {
      id: row.id,
      committee_id: row.committee_id,
      term_id: row.term_id,
      user,
      function: row.function,
      rank: row.rank,
      from: row.valid_from,
      until: row.valid_until,
      district: row.district,
      reason: row.reason,
      active: row.state === 'active',
      ...(seesSuccessorProposals(principal)
        ? {
            proposed_successor: successor
              ? {
                  membership_id: successor.id,
                  name: `${successor.firstname ?? ''} ${successor.lastname ?? ''}`.trim(),
                }
              : null,
          }
        : {}),
    };
  }

  async function termOf(
    trx: Transaction<Database> | typeof ctx.db.kysely,
    committeeId: number,
    termId: number,
  ) {
    const term = await repo.findTerm(trx, termId);
    if (!term || term.committee_id !== committeeId)
      throw invalidField('term_id', COMMITTEE_MESSAGES.termNotFound);
    return term;
  }

  async function loadForWrite(trx: Transaction<Database>, id: number) {
    const row = await repo.findMembership(trx, id);
    if (!row) throw notFound();
    await repo.lockCommittee(trx, ctx.db.dialect, row.committee_id);
    const term = (await repo.findTerm(trx, row.term_id))!;
    return { row, term, others: await repo.membershipsOfTerm(trx, term.id) };
  }

  const one = async (principal: Principal, id: number) => {
    const row = await repo.findMembership(db(), id);
    if (!row) throw notFound();
    const term = (await repo.findTerm(db(), row.term_id))!;
    const successor = seesSuccessorProposals(principal)
      ? proposedSuccessor(row, term, await repo.membershipsOfTerm(db(), term.id))
      : undefined;
    return present(principal, row, berlinToday(ctx), successor);
  };

  return {
    /** The term's members (default: the current term), for the committee's members and admins. */
    async list(principal: Principal, committeeId: number, termId?: number): Promise<Membership[]> {
      await visibleCommittee(principal, committeeId);
      const today = berlinToday(ctx);
      const term =
        termId === undefined
          ? currentTermOf(await repo.termsOf(db(), [committeeId]), today)
          : await repo.findTerm(db(), termId);
      if (!term || term.committee_id !== committeeId) {
        if (termId === undefined) return [];
        throw notFound();
      }
      const members = await repo.membershipsOfTerm(db(), term.id);
      return members.map((row) =>
        present(
          principal,
          row,
          today,
          seesSuccessorProposals(principal) ? proposedSuccessor(row, term, members) : undefined,
        ),
      );
    },

    async create(actor: Actor, committeeId: number, body: CreateMembershipBody): Promise<Membership> {
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          if (!(await repo.findCommittee(trx, committeeId))) throw notFound();
          await repo.lockCommittee(trx, ctx.db.dialect, committeeId);
          const term = await termOf(trx, committeeId, body.term_id);
          const user = await repo.findUserBrief(trx, body.user_id);
          if (!user) throw invalidField('user_id', COMMITTEE_MESSAGES.userNotFound);
          const draft: MembershipDraft = {
            user_id: user.id,
            function: body.function,
            rank: body.rank ?? null,
            from: body.from ?? term.starts_on,
            until: body.until ?? term.ends_on,
            district: body.district ?? null,
            reason: null,
          };
          assertValid(draft, term, await repo.membershipsOfTerm(trx, term.id));
          return writes.insertDraft(trx, actor, committeeId, term.id, draft, holderName(user));
        });
      return one(actor.principal, id);
    },

    async update(actor: Actor, id: number, body: UpdateMembershipBody): Promise<Membership> {
      await db()
        .transaction()
        .execute(async (trx) => {
          const { row, term, others } = await loadForWrite(trx, id);
          if (row.user_id === null) throw notFound();
          const draft: MembershipDraft = {
            id,
            user_id: row.user_id,
            function: body.function,
            rank: body.rank ?? null,
            from: body.from,
            until: body.until,
            district: body.district ?? null,
            reason: body.reason ?? null,
          };
          assertValid(draft, term, others);
          await writes.updateDraft(trx, actor, row, draft);
        });
      return one(actor.principal, id);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await db()
        .transaction()
        .execute(async (trx) => {
          const { row } = await loadForWrite(trx, id);
          await repo.deleteMembership(trx, id);
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'membership.deleted',
            objectType: 'membership',
            objectId: id,
            objectLabel: row.holder_name,
            details: { committee_id: row.committee_id, function: row.function },
          });
          if (row.user_id !== null) await syncCommitteeRoles(trx, row.user_id);
        });
    },

    /**
     * Nachrücken: the proposed Ersatzmitglied serves as Ersatzmitglied until the day the ended
     * membership ended and as Mitglied from the next day to the end of its own membership.
     */
    async confirmSuccessor(actor: Actor, id: number): Promise<Membership> {
      const newId = await db()
        .transaction()
        .execute(async (trx) => {
          const { row, term, others } = await loadForWrite(trx, id);
          if (row.succeeded_by !== null)
            throw new AppError('validation', COMMITTEE_MESSAGES.alreadySucceeded);
          if (row.valid_until >= term.ends_on)
            throw new AppError('validation', COMMITTEE_MESSAGES.successorNotDue);
          const successor = proposedSuccessor(row, term, others);
          if (!successor || successor.user_id === null)
            throw new AppError('validation', COMMITTEE_MESSAGES.noSuccessor);
          const from = nextDay(row.valid_until);
          await repo.updateMembership(trx, successor.id, {
            valid_until: row.valid_until,
            updated_at: ctx.clock.now().toISOString(),
          });
          const draft: MembershipDraft = {
            user_id: successor.user_id,
            function: 'mitglied',
            rank: null,
            from,
            until: successor.valid_until,
            district: successor.district,
            reason: null,
          };
          const rest = (await repo.membershipsOfTerm(trx, term.id)).filter((m) => m.id !== successor.id);
          assertValid(draft, term, rest);
          const created = await writes.insertDraft(
            trx,
            actor,
            row.committee_id,
            term.id,
            draft,
            successor.holder_name,
          );
          await repo.updateMembership(trx, id, { succeeded_by: created });
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'membership.successor',
            objectType: 'membership',
            objectId: created,
            objectLabel: successor.holder_name,
            details: { committee_id: row.committee_id, for: row.holder_name, from },
          });
          await writes.settle(trx, actor, successor.id, [successor.user_id]);
          return created;
        });
      return one(actor.principal, newId);
    },
  };
}

export type MembershipWrites = ReturnType<typeof membershipWrites>;

/** The writes of a membership with their audit entries, shared by the forms and the import. */
export function membershipWrites(ctx: AppContext) {
  const auditActor = (actor: Actor): AuditActor => auditBy(actor).actor!;

  /** Applies a membership's change, applies what the calendar says about it and the member's roles. */
  async function settle(
    trx: Transaction<Database>,
    actor: Actor,
    id: number,
    userIds: readonly (number | null)[],
  ) {
    const row = await repo.findMembership(trx, id);
    // A change of state brings the member's roles in line itself; anyone else's are synced here.
    const applied = row
      ? await applyMembershipState(ctx, trx, row, berlinToday(ctx), auditActor(actor))
      : false;
    for (const userId of new Set(userIds)) {
      if (userId !== null && !(applied && userId === row?.user_id)) await syncCommitteeRoles(trx, userId);
    }
  }

  async function insertDraft(
    trx: Transaction<Database>,
    actor: Actor,
    committeeId: number,
    termId: number,
    draft: MembershipDraft,
    name: string,
  ): Promise<number> {
    const now = ctx.clock.now().toISOString();
    const id = await repo.insertMembership(trx, {
      committee_id: committeeId,
      term_id: termId,
      user_id: draft.user_id,
      holder_name: name,
      function: draft.function,
      rank: draft.rank,
      valid_from: draft.from,
      valid_until: draft.until,
      district: draft.district,
      reason: draft.reason,
      succeeded_by: null,
      created_at: now,
      updated_at: now,
    });
    await recordAudit(trx, ctx.clock, {
      ...auditBy(actor),
      action: 'membership.created',
      objectType: 'membership',
      objectId: id,
      objectLabel: name,
      details: { committee_id: committeeId, function: draft.function, from: draft.from, until: draft.until },
    });
    await settle(trx, actor, id, [draft.user_id]);
    return id;
  }

  async function updateDraft(
    trx: Transaction<Database>,
    actor: Actor,
    row: repo.MembershipRow,
    draft: MembershipDraft,
  ) {
    await repo.updateMembership(trx, row.id, {
      function: draft.function,
      rank: draft.rank,
      valid_from: draft.from,
      valid_until: draft.until,
      district: draft.district,
      reason: draft.reason,
      updated_at: ctx.clock.now().toISOString(),
    });
    await recordAudit(trx, ctx.clock, {
      ...auditBy(actor),
      action: 'membership.updated',
      objectType: 'membership',
      objectId: row.id,
      objectLabel: row.holder_name,
      details: {
        committee_id: row.committee_id,
        ...changeOf('function', row.function, draft.function),
        ...changeOf('rank', row.rank, draft.rank),
        ...changeOf('from', row.valid_from, draft.from),
        ...changeOf('until', row.valid_until, draft.until),
        ...changeOf('district', row.district, draft.district),
        ...changeOf('reason', row.reason, draft.reason),
      },
    });
    await settle(trx, actor, row.id, [row.user_id]);
  }

  return { settle, insertDraft, updateDraft };
}
