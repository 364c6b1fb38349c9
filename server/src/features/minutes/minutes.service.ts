import { parseCommitteeRules } from '@gremienportal/contracts/committees';
import {
  MINUTES_MESSAGES,
  minutesContentSchema,
  type Minutes,
  type MinutesContent,
  type SaveMinutesBody,
} from '@gremienportal/contracts/minutes';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden, invalidField, notFound } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeMinutesDraft, canSeeSealedMinutes, mayWriteMinutes } from '../../policies/minutes.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { visibleEvent } from '../events/visible-event.ts';
import { draftContent } from './minutes-draft.ts';
import * as repo from './minutes.repository.ts';

/*
 * Niederschriften (decision 193), without HTTP: the draft from the meeting, reading and saving in
 * versions. Decisions of this module:
 * - A draft is made for one committee of the meeting: the one named, or the only committee whose
 *   role the meeting invites (several: 422, none: 422). One Niederschrift per meeting and
 *   committee (409); the check and the insert run under the event's row lock.
 * - A save names the version it is based on; when another save came first it is refused (409,
 *   `reason: 'stale'`) and nothing is lost: the client keeps its text and shows the newer one.
 * - Only the section texts, the header and the attendance are saved; the structure (sections,
 *   their documents and the quoted resolutions) stays as the draft made it.
 * - Hidden meetings, committees and Niederschriften answer 404, as missing ones.
 */

const WRITABLE = new Set(['entwurf', 'abstimmung']);

export function minutesService(ctx: AppContext) {
  const db = () => ctx.db.kysely;
  const now = () => ctx.clock.now().toISOString();

  async function accessOf(principal: Principal, committee: { id: number; rules: string }) {
    const functions = await repo.activeFunctions(db(), committee.id, principal.id);
    const signers = parseCommitteeRules(committee.rules).minutes_signers;
    return { functions, signers };
  }

  /** The Niederschrift and its committee if the principal may read it in its state; else 404. */
  async function readable(principal: Principal, id: number) {
    const minutes = await repo.findMinutes(db(), id);
    const committee = minutes ? await repo.committeeById(db(), minutes.committee_id) : undefined;
    if (!minutes || !committee) throw notFound(MINUTES_MESSAGES.notFound);
    const { functions, signers } = await accessOf(principal, committee);
    const sees =
      minutes.state === 'unterzeichnet'
        ? canSeeSealedMinutes(principal, functions)
        : canSeeMinutesDraft(principal, functions, signers);
    if (!sees) throw notFound(MINUTES_MESSAGES.notFound);
    return { minutes, committee, functions };
  }

  async function present(
    minutes: repo.MinutesRow,
    committee: { id: number; name: string },
  ): Promise<Minutes> {
    const latest = await repo.latestVersion(db(), minutes.id);
    const event = await db()
      .selectFrom('events')
      .select(['id', 'title'])
      .where('id', '=', minutes.event_id)
      .executeTakeFirstOrThrow();
    return {
      id: minutes.id,
      event,
      committee: { id: committee.id, name: committee.name },
      kind: minutes.kind,
      state: minutes.state,
      version: minutes.version,
      saved_at: latest.saved_at,
      saved_by: latest.firstname === null ? null : `${latest.firstname} ${latest.lastname}`,
      content: minutesContentSchema.parse(JSON.parse(latest.content)),
    };
  }

  return {
    /** "Niederschrift erstellen": the first draft, as version 1. */
    async createDraft(actor: Actor, eventId: number, committeeId?: number): Promise<Minutes> {
      const event = await visibleEvent(db(), actor.principal, eventId);
      const committees = await repo.committeesOfEvent(db(), event.id);
      const candidates =
        committeeId === undefined ? committees : committees.filter((c) => c.id === committeeId);
      if (candidates.length === 0) throw invalidField('committee_id', MINUTES_MESSAGES.noCommittee);
      if (candidates.length > 1) throw invalidField('committee_id', MINUTES_MESSAGES.committeeRequired);
      const committee = candidates[0]!;
      const { functions } = await accessOf(actor.principal, committee);
      if (!mayWriteMinutes(actor.principal, functions)) throw forbidden(MINUTES_MESSAGES.onlyWriters);
      const content = await draftContent(ctx, actor.principal, event, committee.id);
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          // Serialises drafts of the same meeting (SQLite has one writer anyway).
          if (ctx.db.dialect === 'postgres') {
            await trx.selectFrom('events').select('id').where('id', '=', event.id).forUpdate().execute();
          }
          if (await repo.minutesOfEvent(trx, event.id, committee.id)) {
            throw new AppError('conflict', MINUTES_MESSAGES.exists);
          }
          const at = now();
          const id = await repo.insertMinutes(trx, {
            event_id: event.id,
            committee_id: committee.id,
            amends_id: null,
            review_until: null,
            review_audience: null,
            review_version: null,
            frozen_storage_key: null,
            frozen_sha256: null,
            frozen_at: null,
            sealed_storage_key: null,
            sealed_sha256: null,
            sealed_size_bytes: null,
            sealed_at: null,
            filed_file_id: null,
            created_by: actor.principal.id,
            created_at: at,
            updated_at: at,
          });
          await repo.insertVersion(trx, {
            minutes_id: id,
            version: 1,
            content: JSON.stringify(content),
            author_id: actor.principal.id,
            saved_at: at,
          });
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'minutes', id, event.title),
            action: 'minutes.created',
            details: { committee: committee.name },
          });
          return id;
        });
      return this.get(actor.principal, id);
    },

    async get(principal: Principal, id: number): Promise<Minutes> {
      const { minutes, committee } = await readable(principal, id);
      return present(minutes, committee);
    },

    /** A save based on `body.version`: a new version, or 409 when another save came first. */
    async save(actor: Actor, id: number, body: SaveMinutesBody): Promise<Minutes> {
      const { minutes, committee, functions } = await readable(actor.principal, id);
      if (!mayWriteMinutes(actor.principal, functions)) throw forbidden(MINUTES_MESSAGES.onlyWriters);
      await db()
        .transaction()
        .execute(async (trx) => {
          const current = await repo.lockMinutes(trx, ctx.db.dialect, minutes.id);
          if (!current || !WRITABLE.has(current.state))
            throw new AppError('conflict', MINUTES_MESSAGES.notDraft);
          if (current.version !== body.version) {
            throw new AppError('conflict', MINUTES_MESSAGES.stale, undefined, undefined, 'stale');
          }
          const latest = minutesContentSchema.parse(
            JSON.parse((await repo.latestVersion(trx, current.id)).content),
          );
          const keys = new Set(latest.sections.map((s) => s.key));
          for (const key of Object.keys(body.bodies)) {
            if (!keys.has(key)) throw invalidField(`bodies.${key}`, MINUTES_MESSAGES.unknownSection);
          }
          const content: MinutesContent = {
            header: body.header,
            attendance: body.attendance,
            sections: latest.sections.map((s) => ({ ...s, body: body.bodies[s.key] ?? s.body })),
          };
          const at = now();
          if (!(await repo.claimVersion(trx, current.id, current.version, at))) {
            throw new AppError('conflict', MINUTES_MESSAGES.stale, undefined, undefined, 'stale');
          }
          await repo.insertVersion(trx, {
            minutes_id: current.id,
            version: current.version + 1,
            content: JSON.stringify(content),
            author_id: actor.principal.id,
            saved_at: at,
          });
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'minutes', current.id, committee.name),
            action: 'minutes.saved',
            details: { version: current.version + 1 },
          });
        });
      return this.get(actor.principal, id);
    },
  };
}
