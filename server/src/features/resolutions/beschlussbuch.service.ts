import {
  RESOLUTION_REGISTER_MESSAGES as MESSAGES,
  type FollowUpBody,
  type Resolution,
  type ResolutionListQuery,
} from '@gremienportal/contracts/beschlussbuch';
import type { AppContext } from '../../context.ts';
import { forbidden, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { composeMail } from '../../mail/compose.ts';
import type { Actor } from '../../plugins/auth.ts';
import { seesAllCommittees } from '../../policies/committees.policy.ts';
import { mayWriteDraft, resolutionFilter } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { visibleFileNames } from './linked-files.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import { berlinToday } from '../committees/membership-states.ts';
import * as followUps from './follow-ups.repository.ts';
import { activeFunctions } from './motions.repository.ts';
import * as repo from './resolutions.repository.ts';
import { RESULT_LABELS, summaryOf, type ResolutionSummary } from './resolutions.present.ts';
import type { resolutionsService } from './resolutions.service.ts';
import { germanDate } from '@gremienportal/contracts/committees';

/*
 * The Beschlussbuch as members read it (decision 190): the resolutions of their committees
 * (admins: all; others 404), each with the linked documents the files policy shows them and its
 * follow-up. Follow-up is kept by the office: admins and the committee's Vorsitz and
 * Schriftführung; the responsible person is reminded once a day while it is overdue.
 */

type Resolutions = ReturnType<typeof resolutionsService>;

export function beschlussbuchService(ctx: AppContext, resolutions: Resolutions) {
  const k = () => ctx.db.kysely;

  async function present(principal: Principal, rows: readonly ResolutionSummary[]): Promise<Resolution[]> {
    const [names, follow] = await Promise.all([
      visibleFileNames(
        ctx,
        principal,
        rows.flatMap((row) => row.file_ids),
      ),
      followUps.followUpsOf(
        k(),
        rows.map((row) => row.id),
      ),
    ]);
    const today = berlinToday(ctx);
    return rows.map(({ file_ids, ...row }) => {
      const f = follow.get(row.id);
      return {
        ...row,
        files: file_ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
        follow_up: f
          ? {
              responsible:
                f.responsible_id === null
                  ? null
                  : { id: f.responsible_id, name: `${f.responsible_first} ${f.responsible_last}` },
              due_on: f.due_on,
              status: f.status,
              note: f.note,
              overdue: f.status === 'offen' && f.due_on !== null && f.due_on < today,
              updated_at: f.updated_at,
            }
          : null,
      };
    });
  }

  async function visibleRow(principal: Principal, id: number) {
    const row = await repo.findResolution(k(), id, resolutionFilter(principal));
    if (!row) throw notFound(MESSAGES.notFound);
    return row;
  }

  async function list(principal: Principal, query: ResolutionListQuery = {}): Promise<Resolution[]> {
    const { overdue, ...filter } = query;
    const all = await present(principal, await resolutions.list(principal, filter));
    return overdue ? all.filter((row) => row.follow_up?.overdue) : all;
  }

  return {
    list,

    /** What the register shows, for the PDF's cover: "Aufsichtsrat · 2026 · Angenommen". */
    async filterLabel(principal: Principal, query: ResolutionListQuery): Promise<string> {
      const parts: string[] = [];
      if (query.committee_id !== undefined) {
        const committee = await repo.committeeBrief(k(), query.committee_id);
        const mine =
          seesAllCommittees(principal) ||
          (await repo.committeesOfMember(k(), principal.id)).includes(query.committee_id);
        if (committee && mine) parts.push(committee.name);
      }
      if (query.year !== undefined) parts.push(String(query.year));
      if (query.result !== undefined) parts.push(RESULT_LABELS[query.result]);
      if (query.q) parts.push(`„${query.q}“`);
      if (query.overdue) parts.push('Umsetzung überfällig');
      return parts.length > 0 ? parts.join(' · ') : 'Alle Beschlüsse';
    },

    async get(principal: Principal, id: number): Promise<Resolution> {
      const row = await visibleRow(principal, id);
      return (await present(principal, [summaryOf(row)]))[0]!;
    },

    async putFollowUp(actor: Actor, id: number, body: FollowUpBody): Promise<Resolution> {
      const row = await visibleRow(actor.principal, id);
      const functions = await activeFunctions(k(), row.committee_id, actor.principal.id);
      if (!mayWriteDraft(actor.principal, functions)) throw forbidden(MESSAGES.onlyOffice);
      if (body.responsible_id !== null && !(await followUps.userById(k(), body.responsible_id))) {
        throw invalidField('responsible_id', MESSAGES.responsibleNotFound);
      }
      await k()
        .transaction()
        .execute(async (trx) => {
          await followUps.putFollowUp(trx, row.id, {
            responsible_id: body.responsible_id,
            due_on: body.due_on,
            status: body.status,
            note: body.note,
            updated_at: ctx.clock.now().toISOString(),
          });
          await recordAudit(trx, ctx.clock, {
            ...auditBy(actor),
            action: 'resolution.follow_up',
            objectType: 'resolution',
            objectId: row.id,
            objectLabel: row.number,
            details: { status: body.status, due_on: body.due_on },
          });
        });
      return this.get(actor.principal, id);
    },
  };
}

/** The minute job's part: one reminder a day to the person responsible for an overdue follow-up. */
export async function remindOverdueFollowUps(ctx: AppContext): Promise<number> {
  const today = berlinToday(ctx);
  let sent = 0;
  for (const due of await followUps.overdueUnreminded(ctx.db.kysely, today)) {
    const title = (JSON.parse(due.record) as { title: string }).title;
    await ctx.db.kysely.transaction().execute(async (trx) => {
      if (!(await followUps.claimFollowUpReminder(trx, due.id, today))) return;
      await enqueueMail(trx, ctx.clock, [
        composeMail({
          to: due.email,
          subject: `Umsetzung überfällig: ${due.number} ${title}`,
          recipient: due,
          blocks: [
            {
              kind: 'paragraph',
              lines: [
                `Die Umsetzung des Beschlusses ${due.number} „${title}“ war am ${germanDate(due.due_on!)} fällig.`,
                'Bitte tragen Sie den Stand im Beschlussbuch ein.',
              ],
            },
            {
              kind: 'action',
              label: 'Zum Beschlussbuch',
              url: `${ctx.config.PUBLIC_URL}/beschluesse/${due.resolution_id}`,
            },
          ],
        }),
      ]);
      sent += 1;
    });
  }
  return sent;
}
