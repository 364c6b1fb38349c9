// Over 300 lines because create, update and delete each run the event, its file, its roles, mails and audit in one transaction; split apart they would share most helpers.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  EVENT_MESSAGES,
  toBerlinLocal,
  type CreateEventBody,
  type EventRoleRef,
  type PortalEvent,
  type UpdateEventBody,
} from '@gremienportal/contracts/events';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { auditBy, auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { invalidField, notFound } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeEvent, eventFilter } from '../../policies/events.policy.ts';
import { viewerOf, viewerOfRoles } from '../../policies/principal.ts';
import type { StoredUpload } from '../../http/upload-source.ts';
import { newKey } from '../../storage/object-keys.ts';
import { allRoles, resolveRoleRefs } from '../roles/roles.service.ts';
import { buildCalendar, calendarEventOf } from './events.ics.ts';
import { cancellationMails, cancelledCalendarFor } from './calendar-feed.service.ts';
import { eventNotificationMail } from './events.mails.ts';
import { sendChangeNotice, toldByNotice } from './event-change-notice.ts';
import {
  findEvent,
  insertEvent,
  listEvents,
  lockEvent,
  replaceEventRoles,
  updateEvent,
  type EventRecord,
  type RoleRow,
} from './events.repository.ts';
import { usersWithAnyRole } from '../users/users.service.ts';
import { deliverNotifications } from '../notifications/notifications.service.ts';
import { trashEvent } from '../trash/move-to-trash.service.ts';
import { agendaCounts, myAttendanceByEvent, myAttendanceTo } from '../../db/meeting-facts.ts';
import { findVisibleEvent, visibleEvent } from './visible-event.ts';
import { deleteReleasedObject } from '../../storage/released-objects.ts';

type Trx = Transaction<Database>;

/** An event's row with its roles, as the guard and the meetings feature read it. */
export type { EventRecord, RoleRow };

/**
 * For the meetings feature, whose changes (agenda, attendance reminder, Protokoll) are changes of
 * the event (decision 177): locks the event's row in the caller's transaction, on PostgreSQL
 * against concurrent changes, and writes its columns.
 */
export const lockEventRow = (trx: Trx, dialect: AppContext['db']['dialect'], id: number) =>
  lockEvent(trx, dialect, id);
export const updateEventRow = (trx: Trx, id: number, patch: Parameters<typeof updateEvent>[2]) =>
  updateEvent(trx, id, patch);

/** What an event carries for the signed-in member besides its row (decision 130). */
export interface EventExtras {
  myAttendance: PortalEvent['my_attendance'];
  agendaCount: number;
}

const NO_EXTRAS: EventExtras = { myAttendance: null, agendaCount: 0 };

export function toPortalEvent(record: EventRecord, extras: EventExtras = NO_EXTRAS): PortalEvent {
  const roleNames = record.roles.map((role) => role.name);
  return {
    id: record.id,
    title: record.title,
    start: record.start_at,
    end: record.end_at,
    location: record.location,
    description: record.description,
    external: record.file_download_key,
    file_format: record.file_format,
    roles: roleNames,
    roles_string: roleNames.join(', '),
    default_start: toBerlinLocal(record.start_at),
    default_end: toBerlinLocal(record.end_at),
    created_at: record.created_at,
    updated_at: record.updated_at,
    my_attendance: extras.myAttendance,
    minutes:
      record.minutes_download_key && record.minutes_published_at
        ? {
            external: record.minutes_download_key,
            format: record.minutes_format ?? 'bin',
            size_bytes: Number(record.minutes_size_bytes ?? 0),
            published_at: record.minutes_published_at,
          }
        : null,
    agenda_count: extras.agendaCount,
    agenda_published_at: record.agenda_published_at,
  };
}

/** Role references (ids or names) to role rows; every unknown one is a 422 under `field`. */
async function resolveRoles(trx: Trx, refs: readonly EventRoleRef[], field: string): Promise<RoleRow[]> {
  return resolveRoleRefs(await allRoles(trx), refs, field, { message: EVENT_MESSAGES.unknownRoleNamed });
}

/** One event with its roles, whoever may see it (for "who can see this"; the caller decides). */
export function eventById(db: Kysely<Database> | Transaction<Database>, id: number) {
  return findEvent(db, id);
}

/** The stored information file's columns, or all null. */
function fileColumns(file: StoredUpload | undefined) {
  return {
    file_storage_key: file?.key ?? null,
    file_download_key: file ? newKey() : null,
    file_format: file?.format ?? null,
    file_mime_type: file?.mimeType ?? null,
    file_size_bytes: file?.size ?? null,
    file_sha256: file?.sha256 ?? null,
  };
}

/** A stable iCalendar UID; the right-hand side names the portal, as RFC 5545 recommends. */
function newCalendarUid(publicUrl: string): string {
  const uid = `${randomUUID()}@${new URL(publicUrl).hostname}`;
  return uid.length <= 100 ? uid : randomUUID();
}

export function eventsService(ctx: AppContext) {
  const db = ctx.db.kysely;

  return {
    /**
     * The visible events, by start; with `upcoming` only those not over yet, at most that many
     * ("Neu für Sie" shows three of thousands, decision 186).
     */
    async list(principal: Principal, upcoming?: { endsFrom: string; limit: number }): Promise<PortalEvent[]> {
      const records = await listEvents(db, eventFilter(viewerOf(principal)), upcoming);
      const [counts, answers] = await Promise.all([
        agendaCounts(
          db,
          records.map((record) => record.id),
        ),
        myAttendanceByEvent(db, principal.id),
      ]);
      return records.map((record) =>
        toPortalEvent(record, {
          myAttendance: answers.get(record.id) ?? null,
          agendaCount: counts.get(record.id) ?? 0,
        }),
      );
    },

    async get(principal: Principal, id: number): Promise<PortalEvent> {
      const record = await visibleEvent(db, principal, id);
      const [counts, myAttendance] = await Promise.all([
        agendaCounts(db, [id]),
        myAttendanceTo(db, id, principal.id),
      ]);
      return toPortalEvent(record, { myAttendance, agendaCount: counts.get(id) ?? 0 });
    },

    /**
     * Creates the event with its roles and information file (already in storage), queues one
     * notification mail per recipient and the audit entry, all in one transaction.
     */
    async create(actor: Actor, body: CreateEventBody, file: StoredUpload | undefined): Promise<PortalEvent> {
      const now = ctx.clock.now().toISOString();
      const id = await db.transaction().execute(async (trx) => {
        const roles = await resolveRoles(trx, body.roles, 'roles');
        const notified = await resolveRoles(trx, body.notifications ?? [], 'notifications');
        if (notified.some((role) => !roles.some((r) => r.id === role.id))) {
          throw invalidField('notifications', EVENT_MESSAGES.notificationsOutsideRoles);
        }
        const eventId = await insertEvent(trx, {
          uid: newCalendarUid(ctx.config.PUBLIC_URL),
          sequence: 0,
          title: body.title,
          start_at: body.start,
          end_at: body.end,
          location: body.location,
          description: body.description,
          ...fileColumns(file),
          created_at: now,
          updated_at: now,
        });
        await replaceEventRoles(
          trx,
          eventId,
          roles.map((role) => role.id),
        );
        // product.md P7.3: holders of the chosen roles who may see the event (the chosen roles are
        // among the event's roles, so that is every holder).
        const recipients = (
          await usersWithAnyRole(
            trx,
            notified.map((role) => role.id),
          )
        ).filter((user) => canSeeEvent(viewerOfRoles(user.roles), { roles }));
        // Decision 131: each recipient's own setting decides between a mail now, a digest and nothing.
        await deliverNotifications(
          ctx,
          trx,
          { kind: 'event', objectId: eventId, action: 'created' },
          recipients,
          (user) =>
            eventNotificationMail(
              user,
              { id: eventId, title: body.title, start: body.start, end: body.end, location: body.location },
              ctx.config.PUBLIC_URL,
            ),
        );
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'event', eventId, body.title),
          action: 'event.created',
          details: {
            start: body.start,
            end: body.end,
            location: body.location,
            roles: roles.map((role) => role.name),
            file: file ? { format: file.format, size: file.size } : null,
            notified_roles: notified.map((role) => role.name),
            notified_users: recipients.length,
          },
        });
        return eventId;
      });
      return toPortalEvent((await findEvent(db, id))!);
    },

    /**
     * Changes the event; a new information file (already in storage) replaces the old one, which
     * is deleted after the commit. The calendar SEQUENCE rises with every update.
     */
    async update(
      actor: Actor,
      id: number,
      body: UpdateEventBody,
      file: StoredUpload | undefined,
    ): Promise<{ event: PortalEvent; notified?: number }> {
      const now = ctx.clock.now().toISOString();
      const { replacedKey, notified } = await db.transaction().execute(async (trx) => {
        await lockEvent(trx, ctx.db.dialect, id);
        const before = await visibleEvent(trx, actor.principal, id);
        const roles = body.roles ? await resolveRoles(trx, body.roles, 'roles') : before.roles;
        const notifiedRoles = body.notify
          ? await resolveRoles(trx, body.notifications ?? [], 'notifications')
          : [];
        if (notifiedRoles.some((role) => !roles.some((r) => r.id === role.id))) {
          throw invalidField('notifications', EVENT_MESSAGES.notificationsOutsideRoles);
        }
        const patch = {
          title: body.title,
          start_at: body.start,
          end_at: body.end,
          location: body.location,
          description: body.description,
        };
        const told = toldByNotice(before, patch, file !== undefined);
        if (body.notify && told.length === 0) {
          throw invalidField('notify', EVENT_MESSAGES.notifyNothingChanged);
        }
        await updateEvent(trx, id, {
          ...patch,
          sequence: before.sequence + 1,
          ...(file ? fileColumns(file) : {}),
          updated_at: now,
        });
        if (body.roles) {
          await replaceEventRoles(
            trx,
            id,
            roles.map((role) => role.id),
          );
        }
        const mails = body.notify
          ? await sendChangeNotice(ctx, trx, {
              before,
              id,
              roleIds: notifiedRoles.map((role) => role.id),
              lines: told,
            })
          : [];
        const comparisons: [string, string, string][] = [
          ['title', before.title, body.title],
          ['start', before.start_at, body.start],
          ['end', before.end_at, body.end],
          ['location', before.location, body.location],
          ['description', before.description, body.description],
          ['roles', before.roles.map((role) => role.id).join(','), roles.map((role) => role.id).join(',')],
        ];
        const changed = comparisons.filter(([, old, next]) => old !== next).map(([field]) => field);
        if (file) changed.push('file');
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'event', id, body.title),
          action: 'event.updated',
          details: {
            changed,
            ...(body.title !== before.title ? { previous_title: before.title } : {}),
            ...(body.roles ? { roles: roles.map((role) => role.name) } : {}),
            ...(file ? { file: { format: file.format, size: file.size } } : {}),
            ...(body.notify
              ? { notified_roles: notifiedRoles.map((role) => role.name), notified_users: mails.length }
              : {}),
          },
        });
        return {
          replacedKey: file ? before.file_storage_key : null,
          notified: body.notify ? mails.length : undefined,
        };
      });
      await deleteReleasedObject(ctx, replacedKey);
      const agendaCount = (await agendaCounts(db, [id])).get(id) ?? 0;
      const myAttendance = await myAttendanceTo(db, id, actor.principal.id);
      const event = toPortalEvent((await findEvent(db, id))!, { myAttendance, agendaCount });
      return notified === undefined ? { event } : { event, notified };
    },

    /** Moves the event with its information file to the Papierkorb; nothing is removed. */
    async remove(actor: Actor, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockEvent(trx, ctx.db.dialect, id);
        const event = await visibleEvent(trx, actor.principal, id);
        const audit = auditBy(actor);
        const deletedAt = ctx.clock.now().toISOString();
        // Read before the answers go with the event: those who said Zusage get the cancellation.
        const cancellations = await cancellationMails(ctx, trx, event, deletedAt);
        await trashEvent(trx, id, {
          title: event.title,
          formerPath: null,
          formerParentId: null,
          deletedAt,
          deletedBy: audit.actor ?? null,
        });
        await enqueueMail(trx, ctx.clock, cancellations);
        await recordAudit(trx, ctx.clock, {
          ...audit,
          action: 'event.deleted',
          objectType: 'event',
          objectId: id,
          objectLabel: event.title,
          details: {
            start: event.start_at,
            end: event.end_at,
            roles: event.roles.map((role) => role.name),
            had_file: event.file_storage_key !== null,
            trash: true,
            cancellations_sent: cancellations.length,
          },
        });
      });
    },

    /**
     * The event as an iCalendar file (decision 041); an event in the Papierkorb as its
     * cancellation, for those who could see it (decision 130).
     */
    async calendar(principal: Principal, id: number): Promise<{ title: string; body: string }> {
      const event = await findVisibleEvent(db, principal, { id });
      if (event) {
        const body = buildCalendar(calendarEventOf(event, ctx.config.PUBLIC_URL), ctx.clock.now());
        return { title: event.title, body };
      }
      const cancelled = await cancelledCalendarFor(ctx, viewerOf(principal), id);
      if (!cancelled) throw notFound(EVENT_MESSAGES.notFound);
      return cancelled;
    },
  };
}
