import { createHash } from 'node:crypto';
import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';
import { MEETING_BOOK, MEETING_MESSAGES, meetingBookName } from '@gremienportal/contracts/meetings';
import { BookBusyError, BookFailedError, type BookBuilder, type BuiltBook } from '../../book/book-builder.ts';
import { formatShortDate } from '../../book/book-text.ts';
import type { BookPlan, BookSource } from '../../book/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { downloadName } from '../../http/send-download.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { viewerOf } from '../../policies/principal.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { auditOnEvent, recordDeliveries } from '../audit/audit-log.service.ts';
import { fileDelivery } from '../files/files.service.ts';
import type { AgendaDocument } from './agenda.repository.ts';
import { visibleAgenda, type AgendaEntry } from './agenda.service.ts';
import type { EventRecord } from '../events/events.service.ts';
import { visibleEvent } from '../events/visible-event.ts';
import { motionsByAgendaItem } from '../resolutions/book-motions.ts';

/*
 * The Sitzungsmappe (decision 130): one PDF per member of what they may see of a
 * meeting, made by the book builder away from the request thread and recorded like every other
 * delivery of content before its first byte leaves.
 */

/** The member's previous book is still being built or downloaded (one at a time, decision 149). */
const inProgress = () =>
  new AppError('too_many_requests', MEETING_MESSAGES.bookInProgress, undefined, {
    'Retry-After': String(MEETING_BOOK.retryAfterSeconds),
  });

const busy = () =>
  new AppError('unavailable', MEETING_MESSAGES.bookBusy, undefined, {
    'Retry-After': String(MEETING_BOOK.retryAfterSeconds),
  });

/** A stored object whole (the book's helper gets a copy), or why not. */
async function readStored(storage: FileStorage, key: string, maxBytes: number): Promise<BookSource> {
  try {
    const size = await storage.size(key);
    if (size === null) return { failed: 'missing' };
    if (size > maxBytes) return { failed: 'too_large' };
    const bytes = new Uint8Array(size);
    let at = 0;
    for await (const chunk of await storage.get(key)) {
      const part = chunk as Buffer;
      if (at + part.length > size) return { failed: 'too_large' };
      bytes.set(part, at);
      at += part.length;
    }
    return at === size ? { bytes } : { failed: 'missing' };
  } catch {
    return { failed: 'missing' };
  }
}

/** The plan of the book: items in reading order, each visible document once (first link wins). */
function planOf(
  event: EventRecord,
  agenda: AgendaEntry[],
  principal: Principal,
  createdAt: string,
  motions: ReadonlyMap<number, { title: string; text: string }[]>,
) {
  const documents: AgendaDocument[] = [];
  const indexOf = new Map<number, number>();
  const items = agenda.map((entry) => ({
    number: entry.number,
    title: entry.title,
    presenter: entry.presenter,
    description: entry.description,
    sub: entry.parent_id !== null,
    motions: motions.get(entry.id) ?? [],
    documents: entry.documents.map((document) => {
      let index = indexOf.get(document.id);
      if (index === undefined) {
        index = documents.push(document) - 1;
        indexOf.set(document.id, index);
      }
      return index;
    }),
  }));
  const plan: BookPlan = {
    event: { title: event.title, start: event.start_at, end: event.end_at, location: event.location },
    reader: `${principal.firstname} ${principal.lastname}`.trim(),
    createdAt,
    timeZone: EVENT_TIME_ZONE,
    items,
    documents: documents.map((document) => ({
      title: document.title,
      format: document.format.toLowerCase(),
      sizeBytes: document.size_bytes,
    })),
  };
  return { plan, documents };
}

/** "Sitzungsmappe – Titel – 10.03.2027.pdf", safe as a file name. */
const fileNameOf = (event: EventRecord) =>
  downloadName(meetingBookName(event.title, formatShortDate(event.start_at, EVENT_TIME_ZONE)), 'pdf');

export function bookService(ctx: AppContext, books: BookBuilder) {
  const db = ctx.db.kysely;
  /**
   * Members whose book is being built or downloaded from this instance: one at a time each, so
   * that one member cannot take every build slot (decision 149). Per instance, like the slots.
   */
  const members = new Set<number>();

  /**
   * One entry for the book (once per session and content within the window, decision 116) and one
   * `file.downloaded` per inserted document: the book carries their content.
   */
  async function recordBook(actor: Actor, event: EventRecord, documents: AgendaDocument[], book: BuiltBook) {
    const inserted = book.inserted.map((index) => documents[index]!);
    const version = createHash('sha256')
      .update([event.updated_at, ...inserted.map((document) => document.storage_key)].join('\n'))
      .digest('base64url');
    // One transaction for all of them: one commit, however many documents the book carries.
    await recordDeliveries(db, ctx.clock, [
      {
        delivery: {
          sessionId: actor.principal.sessionId,
          objectKind: 'event',
          objectId: event.id,
          contentVersion: `book:${version}`,
          purpose: 'download',
        },
        entry: {
          ...auditOnEvent(actor, event),
          action: 'event.book_downloaded',
          details: {
            documents: inserted.length,
            pages: book.pages,
            listed: documents.length - inserted.length,
          },
        },
      },
      ...inserted.map((document) =>
        fileDelivery(
          actor,
          { id: document.id, key: document.storage_key, label: document.title },
          'download',
          {
            sitzungsmappe: event.id,
          },
        ),
      ),
    ]);
  }

  return {
    /** What HEAD answers: whether the member may have the book, and its name; nothing is built. */
    async check(principal: Principal, eventId: number): Promise<{ fileName: string }> {
      return { fileName: fileNameOf(await visibleEvent(db, principal, eventId)) };
    },

    /**
     * Builds the member's book and records its delivery; the caller sends `book.stream`. The member
     * may ask for the next book once that stream has ended or closed (read to its end, destroyed).
     */
    async build(actor: Actor, eventId: number): Promise<{ fileName: string; book: BuiltBook }> {
      const event = await visibleEvent(db, actor.principal, eventId);
      const member = actor.principal.id;
      if (members.has(member)) throw inProgress();
      if (books.full) throw busy();
      members.add(member);
      let book: BuiltBook | undefined;
      try {
        const agenda = await visibleAgenda(ctx, viewerOf(actor.principal), event.id);
        const motions = await motionsByAgendaItem(ctx, actor.principal, event.id);
        const { plan, documents } = planOf(
          event,
          agenda,
          actor.principal,
          ctx.clock.now().toISOString(),
          motions,
        );
        try {
          book = await books.build(plan, (index, maxBytes) =>
            readStored(ctx.storage, documents[index]!.storage_key, maxBytes),
          );
        } catch (error) {
          if (error instanceof BookBusyError) throw busy();
          if (error instanceof BookFailedError) {
            ctx.logger.warn({ eventId: event.id }, 'Sitzungsmappe konnte nicht erstellt werden');
            throw new AppError('unavailable', MEETING_MESSAGES.bookFailed);
          }
          throw error;
        }
        await recordBook(actor, event, documents, book);
      } catch (error) {
        members.delete(member);
        book?.stream.destroy();
        throw error;
      }
      // Read to its end (its file closes a moment later) or destroyed (the client went away).
      const done = () => members.delete(member);
      book.stream.once('end', done).once('close', done);
      return { fileName: fileNameOf(event), book };
    },
  };
}
