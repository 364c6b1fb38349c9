import {
  COMMITTEE_MESSAGES,
  termTitle,
  type CreateTermBody,
  type Term,
  type UpdateTermBody,
} from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, invalidField, notFound } from '../../errors.ts';
import { auditBy, changeOf, recordAudit } from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { mayReopenTerm } from '../../policies/committees.policy.ts';
import type { foldersService } from '../folders/folders.service.ts';
import * as repo from './committees.repository.ts';
import { berlinToday } from './membership-states.ts';

type Folders = ReturnType<typeof foldersService>;

export const toTerm = (row: repo.TermRow): Term => ({
  id: row.id,
  committee_id: row.committee_id,
  start: row.starts_on,
  end: row.ends_on,
  title: termTitle(row.starts_on, row.ends_on),
  folder_id: row.folder_id,
  archived: row.archived === 1,
  reopened: row.reopened === 1,
});

/** The term that holds `today`; else the last one begun; else the next one. `terms`: newest first. */
export function currentTermOf<T extends { starts_on: string; ends_on: string }>(
  terms: readonly T[],
  today: string,
) {
  return (
    terms.find((term) => term.starts_on <= today && today <= term.ends_on) ??
    terms.find((term) => term.starts_on <= today) ??
    terms.at(-1)
  );
}

const overlaps = (a: { starts_on: string; ends_on: string }, b: { starts_on: string; ends_on: string }) =>
  a.starts_on <= b.ends_on && b.starts_on <= a.ends_on;

/** Amtsperioden of a committee: their dates, their folders and the archive of a term that ended. */
export function termsService(
  ctx: AppContext,
  folders: Folders,
  visibleCommittee: (principal: Principal, id: number) => Promise<unknown>,
) {
  const db = () => ctx.db.kysely;
  const audit = (trx: Transaction<Database>, actor: Actor, entry: Parameters<typeof recordAudit>[2]) =>
    recordAudit(trx, ctx.clock, { ...auditBy(actor), ...entry });

  return {
    async list(principal: Principal, committeeId: number): Promise<Term[]> {
      await visibleCommittee(principal, committeeId);
      return (await repo.termsOf(db(), [committeeId])).map(toTerm);
    },

    /** A term and, in the committee's folder, its folders (what "Amtsperiode erstellen" creates). */
    async create(actor: Actor, committeeId: number, body: CreateTermBody): Promise<Term> {
      const committee = await repo.findCommittee(db(), committeeId);
      if (!committee) throw notFound();
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          await repo.lockCommittee(trx, ctx.db.dialect, committeeId);
          const candidate = { starts_on: body.start, ends_on: body.end };
          if ((await repo.termsOf(trx, [committeeId])).some((term) => overlaps(term, candidate))) {
            throw invalidField('start', COMMITTEE_MESSAGES.termOverlap);
          }
          const id = await repo.insertTerm(trx, {
            committee_id: committeeId,
            ...candidate,
            folder_id: null,
            // A term entered after it ended is an archive from the start.
            archived: body.end < berlinToday(ctx) ? 1 : 0,
            created_at: ctx.clock.now().toISOString(),
          });
          await audit(trx, actor, {
            action: 'term.created',
            objectType: 'committee',
            objectId: committeeId,
            objectLabel: `${committee.name}: ${termTitle(body.start, body.end)}`,
            details: { term_id: id, start: body.start, end: body.end },
          });
          return id;
        });
      if (committee.folder_id !== null) {
        try {
          const folder = await folders.createPeriod(actor, {
            folder_id: committee.folder_id,
            start: Number(body.start.slice(0, 4)),
            end: Number(body.end.slice(0, 4)),
          });
          await repo.updateTerm(db(), id, { folder_id: folder.id });
        } catch (error) {
          // The folders refused (an archived committee folder): the term goes again.
          await repo.deleteTerm(db(), id);
          throw error;
        }
      }
      return toTerm((await repo.findTerm(db(), id))!);
    },

    /**
     * `POST /period` in a committee's folder also records the term (1 January to 31 December of
     * the years), unless the committee already has one overlapping it; an identical one gets the folder.
     */
    async recordPeriod(
      actor: Actor,
      parentFolderId: number,
      periodFolderId: number,
      start: number,
      end: number,
    ) {
      const committee = await db()
        .selectFrom('committees')
        .select(['id', 'name'])
        .where('folder_id', '=', parentFolderId)
        .executeTakeFirst();
      if (!committee) return;
      const candidate = { starts_on: `${start}-01-01`, ends_on: `${end}-12-31` };
      await db()
        .transaction()
        .execute(async (trx) => {
          await repo.lockCommittee(trx, ctx.db.dialect, committee.id);
          const terms = await repo.termsOf(trx, [committee.id]);
          const same = terms.find(
            (term) =>
              term.starts_on.slice(0, 4) === String(start) && term.ends_on.slice(0, 4) === String(end),
          );
          if (same) {
            if (same.folder_id === null) await repo.updateTerm(trx, same.id, { folder_id: periodFolderId });
            return;
          }
          if (terms.some((term) => overlaps(term, candidate))) return;
          const id = await repo.insertTerm(trx, {
            committee_id: committee.id,
            ...candidate,
            folder_id: periodFolderId,
            archived: candidate.ends_on < berlinToday(ctx) ? 1 : 0,
            created_at: ctx.clock.now().toISOString(),
          });
          await audit(trx, actor, {
            action: 'term.created',
            objectType: 'committee',
            objectId: committee.id,
            objectLabel: `${committee.name}: ${termTitle(candidate.starts_on, candidate.ends_on)}`,
            details: { term_id: id, start: candidate.starts_on, end: candidate.ends_on },
          });
        });
    },

    async update(actor: Actor, id: number, body: UpdateTermBody): Promise<Term> {
      const today = berlinToday(ctx);
      await db()
        .transaction()
        .execute(async (trx) => {
          const term = await repo.findTerm(trx, id);
          if (!term) throw notFound();
          await repo.lockCommittee(trx, ctx.db.dialect, term.committee_id);
          const candidate = { starts_on: body.start, ends_on: body.end };
          const others = (await repo.termsOf(trx, [term.committee_id])).filter((other) => other.id !== id);
          if (others.some((other) => overlaps(other, candidate))) {
            throw invalidField('start', COMMITTEE_MESSAGES.termOverlap);
          }
          const members = await repo.membershipsOfTerm(trx, id);
          if (members.some((m) => m.valid_from < body.start || m.valid_until > body.end)) {
            throw invalidField('end', COMMITTEE_MESSAGES.termDatesOutside);
          }
          let { archived, reopened } = term;
          if (body.archived !== undefined && body.archived !== (term.archived === 1 && term.reopened === 0)) {
            if (!mayReopenTerm(actor.principal)) throw forbidden(COMMITTEE_MESSAGES.reopenSuperAdmin);
            if (term.archived !== 1) throw invalidField('archived', COMMITTEE_MESSAGES.reopenSuperAdmin);
            reopened = body.archived ? 0 : 1;
          }
          // A term moved into the future is no longer over.
          if (body.end >= today) [archived, reopened] = [0, 0];
          await repo.updateTerm(trx, id, { ...candidate, archived, reopened });
          await audit(trx, actor, {
            action: reopened !== term.reopened && reopened === 1 ? 'term.reopened' : 'term.updated',
            objectType: 'committee',
            objectId: term.committee_id,
            objectLabel: termTitle(body.start, body.end),
            details: {
              term_id: id,
              ...changeOf('start', term.starts_on, body.start),
              ...changeOf('end', term.ends_on, body.end),
              ...changeOf(
                'archived',
                term.archived === 1 && term.reopened === 0,
                archived === 1 && reopened === 0,
              ),
            },
          });
        });
      return toTerm((await repo.findTerm(db(), id))!);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await db()
        .transaction()
        .execute(async (trx) => {
          const term = await repo.findTerm(trx, id);
          if (!term) throw notFound();
          await repo.lockCommittee(trx, ctx.db.dialect, term.committee_id);
          if ((await repo.membershipsOfTerm(trx, id)).length > 0) {
            throw new AppError('validation', COMMITTEE_MESSAGES.termHasMembers);
          }
          await repo.deleteTerm(trx, id);
          await audit(trx, actor, {
            action: 'term.deleted',
            objectType: 'committee',
            objectId: term.committee_id,
            objectLabel: termTitle(term.starts_on, term.ends_on),
            details: { term_id: id },
          });
        });
    },
  };
}

/** The daily part: a term whose end has passed is archived once (its folder becomes read-only). */
export async function archiveEndedTerms(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  today: string,
): Promise<number> {
  let archived = 0;
  for (const term of await repo.termsToArchive(ctx.db.kysely, today)) {
    const done = await ctx.db.kysely.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('committee_terms')
        .set({ archived: 1 })
        .where('id', '=', term.id)
        .where('archived', '=', 0)
        .where('ends_on', '<', today)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await recordAudit(trx, ctx.clock, {
        action: 'term.archived',
        objectType: 'committee',
        objectLabel: `${term.name}: ${termTitle(term.starts_on, term.ends_on)}`,
        details: { term_id: term.id },
      });
      return true;
    });
    if (done) archived += 1;
  }
  return archived;
}
