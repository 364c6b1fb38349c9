import { announcedEvent } from '../events/events.mails.ts';
import {
  MEETING_MESSAGES,
  MINUTES_MESSAGES,
  type Minutes,
  type MinutesUploadBody,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import { invalidField, notFound } from '../../errors.ts';
import type { StoredUpload } from '../../http/upload-source.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeEvent } from '../../policies/events.policy.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { newKey } from '../../storage/object-keys.ts';
import { auditOnEvent, recordAudit } from '../audit/audit-log.service.ts';
import { acceptedBy } from './attendance.repository.ts';
import { inviteesSeeing } from '../events/event-change-notice.ts';
import { lockEventRow, updateEventRow } from '../events/events.service.ts';
import { minutesPublishedMail } from './meetings.mails.ts';
import { visibleEvent } from '../events/visible-event.ts';
import { deleteReleasedObject } from '../../storage/released-objects.ts';

const NO_MINUTES = {
  minutes_storage_key: null,
  minutes_download_key: null,
  minutes_format: null,
  minutes_mime_type: null,
  minutes_size_bytes: null,
  minutes_sha256: null,
  minutes_published_at: null,
} as const;

/** The Protokoll der Sitzung (decision 130): stored like the information file, beside it on the event. */
export function minutesService(ctx: AppContext) {
  const db = ctx.db.kysely;

  return {
    /**
     * Publishes the Protokoll (already in storage) with a new download key; a replaced one is
     * deleted after the commit. The first publication mails everyone who said Zusage and can
     * still see the event, or every invitee who can (a link, never the file). A meeting that has
     * not begun needs `confirm_future` (decision 181).
     */
    async publish(
      actor: Actor,
      id: number,
      file: StoredUpload,
      options: Pick<MinutesUploadBody, 'recipients' | 'confirm_future'> = {
        recipients: 'zugesagt',
        confirm_future: false,
      },
    ): Promise<Minutes> {
      const now = ctx.clock.now().toISOString();
      const { replacedKey, minutes } = await db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, id);
        const event = await visibleEvent(trx, actor.principal, id);
        const first = event.minutes_storage_key === null;
        if (Date.parse(event.start_at) > ctx.clock.now().getTime() && !options.confirm_future) {
          throw invalidField('confirm_future', MEETING_MESSAGES.minutesFuture);
        }
        const downloadKey = newKey();
        await updateEventRow(trx, id, {
          minutes_storage_key: file.key,
          minutes_download_key: downloadKey,
          minutes_format: file.format,
          minutes_mime_type: file.mimeType,
          minutes_size_bytes: file.size,
          minutes_sha256: file.sha256,
          minutes_published_at: now,
        });
        // "Attended" (decision 130): said Zusage and can see the event now, whatever roles they had.
        const recipients = !first
          ? []
          : options.recipients === 'alle'
            ? await inviteesSeeing(
                trx,
                event,
                event.roles.map((role) => role.id),
              )
            : (await acceptedBy(trx, id)).filter((user) => canSeeEvent(viewerOfRoles(user.roles), event));
        const announced = announcedEvent(event);
        await enqueueMail(
          trx,
          ctx.clock,
          recipients.map((user) =>
            minutesPublishedMail(user, announced, ctx.config.PUBLIC_URL, options.recipients === 'zugesagt'),
          ),
        );
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: 'event.minutes_published',
          details: {
            format: file.format,
            size: file.size,
            replaced: !first,
            ...(first ? { recipients: options.recipients } : {}),
            notified_users: recipients.length,
          },
        });
        return {
          replacedKey: event.minutes_storage_key,
          minutes: { external: downloadKey, format: file.format, size_bytes: file.size, published_at: now },
        };
      });
      await deleteReleasedObject(ctx, replacedKey);
      return minutes;
    },

    /** Takes the Protokoll off the event; its object is deleted after the commit. */
    async remove(actor: Actor, id: number): Promise<void> {
      const removedKey = await db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, id);
        const event = await visibleEvent(trx, actor.principal, id);
        if (event.minutes_storage_key === null) throw notFound(MINUTES_MESSAGES.none);
        await updateEventRow(trx, id, NO_MINUTES);
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: 'event.minutes_removed',
          details: { format: event.minutes_format },
        });
        return event.minutes_storage_key;
      });
      await deleteReleasedObject(ctx, removedKey);
    },
  };
}
