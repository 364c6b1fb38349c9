import type { Transaction } from 'kysely';
import {
  calendarChanged,
  NOTICE_MESSAGES,
  type AgendaPublication,
  type AgendaPublishResponse,
} from '@gremienportal/contracts/meeting-notices';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { loadFolders } from '../../db/document-records.ts';
import { AppError } from '../../errors.ts';
import { enqueueMail, type OutgoingMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { treesByViewer } from '../../policies/folders.policy.ts';
import { viewerOfRoles, type Principal } from '../../policies/principal.ts';
import { auditOnEvent, recordAudit } from '../audit/audit-log.service.ts';
import {
  eventChangedMail,
  inviteesSeeing,
  type PublishedAgendaState,
} from '../events/event-change-notice.ts';
import { announcedEvent, answerLinkBlocks, eventMail, eventPageUrl } from '../events/events.mails.ts';
import { lockEventRow, updateEventRow, type EventRecord } from '../events/events.service.ts';
import { visibleEvent } from '../events/visible-event.ts';
import { filesByIds } from './agenda.repository.ts';
import { readAgenda } from './agenda.service.ts';
import { agendaLines, changesFor, currentState, type SeenDocument } from './agenda-publication.ts';

type Trx = Transaction<Database>;

const EVERYTHING: (file: SeenDocument) => boolean = () => true;

/** The event page's Sitzungsmappe (the page scrolls to it). */
export const bookSectionUrl = (publicUrl: string, eventId: number) =>
  `${eventPageUrl(publicUrl, eventId)}#sitzungsmappe`;

/**
 * "Tagesordnung veröffentlichen" (decision 181): the first call mails the agenda to everyone the
 * meeting is for, each with the documents they may see; a later call mails each of them what
 * changed since, as far as they may see it, with the updated calendar entry when time or place
 * changed. The state told is recorded on the locked event row in the same transaction.
 */
export function agendaPublicationService(ctx: AppContext) {
  const db = ctx.db.kysely;
  const publicUrl = ctx.config.PUBLIC_URL;

  async function read(trx: Trx | typeof db, event: EventRecord) {
    const items = await readAgenda(trx, event.id);
    const current = currentState(event, items);
    const before = event.agenda_published_state
      ? (JSON.parse(event.agenda_published_state) as PublishedAgendaState)
      : null;
    const linked = new Set(current.documents.map((doc) => doc.id));
    const gone = before
      ? await filesByIds(
          trx,
          before.documents.map((doc) => doc.id).filter((id) => !linked.has(id)),
        )
      : [];
    const documents = { current: items.flatMap((item) => item.files), gone };
    return { items, current, before, documents };
  }

  function firstMail(
    user: Parameters<typeof eventMail>[0],
    event: EventRecord,
    lines: string[],
  ): OutgoingMail {
    return eventMail(user, announcedEvent(event), {
      subject: 'Tagesordnung: ',
      opening: 'die Tagesordnung der folgenden Sitzung ist veröffentlicht:',
      rest: [
        { kind: 'list', title: 'Tagesordnung', items: lines.map((text) => ({ text })) },
        { kind: 'action', label: 'Sitzung ansehen', url: eventPageUrl(publicUrl, event.id) },
        {
          kind: 'links',
          links: [{ label: 'Sitzungsmappe herunterladen', url: bookSectionUrl(publicUrl, event.id) }],
        },
        ...answerLinkBlocks(publicUrl, event.id),
      ],
    });
  }

  return {
    /** What publishing would do now: for the confirmation (admins see every document). */
    async preview(principal: Principal, eventId: number): Promise<AgendaPublication> {
      const event = await visibleEvent(db, principal, eventId);
      const { current, before, documents } = await read(db, event);
      const recipients = await inviteesSeeing(
        db,
        event,
        event.roles.map((role) => role.id),
      );
      return {
        published_at: event.agenda_published_at,
        recipients: recipients.length,
        changes: before ? changesFor(before, current, documents, EVERYTHING) : [],
      };
    },

    async publish(actor: Actor, eventId: number): Promise<AgendaPublishResponse> {
      const now = ctx.clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, eventId);
        const event = await visibleEvent(trx, actor.principal, eventId);
        const { items, current, before, documents } = await read(trx, event);
        if (items.length === 0) throw new AppError('conflict', NOTICE_MESSAGES.emptyAgenda);
        const overall = before ? changesFor(before, current, documents, EVERYTHING) : [];
        if (before && overall.length === 0) throw new AppError('conflict', NOTICE_MESSAGES.nothingChanged);
        const recipients = await inviteesSeeing(
          trx,
          event,
          event.roles.map((role) => role.id),
        );
        if (!before && recipients.length === 0) throw new AppError('conflict', NOTICE_MESSAGES.nobodyInvited);
        const treeOf = treesByViewer(await loadFolders(trx));
        const calendar = before !== null && calendarChanged(before.facts, current.facts);
        const mails = recipients.flatMap((user) => {
          const tree = treeOf(viewerOfRoles(user.roles));
          const canSee = (file: SeenDocument) => canSeeFile(tree, file);
          if (!before) return [firstMail(user, event, agendaLines(items, canSee))];
          const lines = changesFor(before, current, documents, canSee);
          if (lines.length === 0) return [];
          return [
            eventChangedMail(ctx, user, event, {
              word: 'Sitzung',
              lines,
              calendar,
              extra: [
                {
                  kind: 'links',
                  links: [{ label: 'Sitzungsmappe herunterladen', url: bookSectionUrl(publicUrl, event.id) }],
                },
              ],
            }),
          ];
        });
        await enqueueMail(trx, ctx.clock, mails);
        await updateEventRow(trx, eventId, {
          agenda_published_at: now,
          agenda_published_state: JSON.stringify(current),
        });
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: before ? 'event.agenda_changes_published' : 'event.agenda_published',
          details: { recipients: mails.length, ...(before ? { changes: overall.length } : {}) },
        });
        return {
          message: before
            ? NOTICE_MESSAGES.changesSent(mails.length)
            : NOTICE_MESSAGES.published(mails.length),
          data: { sent: mails.length, published_at: now, changes: overall },
        };
      });
    },
  };
}
