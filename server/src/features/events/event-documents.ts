import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { GERMAN, notFound } from '../../errors.ts';
import { sendDownload, type DownloadObject } from '../../http/send-download.ts';
import { actorOf } from '../../plugins/auth.ts';
import { auditOnEvent, recordDelivery } from '../audit/audit-log.service.ts';
import type { EventLookup, EventRecord } from './events.repository.ts';
import { visibleEvent } from './visible-event.ts';

/**
 * An event's two documents, the information file and the Protokoll (decisions 130, 177): one way
 * to find them by their download key, send them and record the delivery. `GET /info/{key}` and
 * `GET /minutes/{key}` (meetings) both answer through `sendEventDocument`.
 */
export type EventDocument = 'information' | 'minutes';

/** Where each document's stored object, format and media type sit in the event's row. */
const DOCUMENTS = {
  information: {
    lookup: (key: string): EventLookup => ({ downloadKey: key }),
    columns: ['file_storage_key', 'file_format', 'file_mime_type'],
    title: (event: EventRecord) => event.title,
    action: 'event.file_downloaded',
  },
  minutes: {
    lookup: (key: string): EventLookup => ({ minutesKey: key }),
    columns: ['minutes_storage_key', 'minutes_format', 'minutes_mime_type'],
    title: (event: EventRecord) => `Protokoll ${event.title}`,
    action: 'event.minutes_downloaded',
  },
} as const;

/**
 * Sends the document behind `key` if the member may see its event (hidden and missing alike
 * 404), GET and HEAD with ranges. Every answer with content is recorded before its first byte
 * leaves, once per session and version within the window (decision 116).
 */
export async function sendEventDocument(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  which: EventDocument,
  key: string,
): Promise<FastifyReply> {
  const document = DOCUMENTS[which];
  const actor = actorOf(request);
  const event = await visibleEvent(ctx.db.kysely, actor.principal, document.lookup(key), GERMAN.notFound);
  const [keyColumn, formatColumn, mimeColumn] = document.columns;
  const storageKey = event[keyColumn];
  if (!storageKey) throw notFound();
  const format = event[formatColumn];
  const download: DownloadObject = {
    kind: 'event',
    id: event.id,
    key: storageKey,
    title: document.title(event),
    format: format ?? 'bin',
    mimeType: event[mimeColumn],
  };
  return sendDownload(request, reply, ctx, download, {
    beforeSend: async ({ head }) => {
      if (head) return;
      await recordDelivery(
        ctx.db.kysely,
        ctx.clock,
        {
          sessionId: actor.principal.sessionId,
          objectKind: 'event',
          objectId: event.id,
          contentVersion: storageKey,
          purpose: 'download',
        },
        {
          ...auditOnEvent(actor, event),
          action: document.action,
          details: { format },
        },
      );
    },
  });
}
