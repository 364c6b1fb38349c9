import { expect } from 'vitest';
import type { TestApp } from './build-test-app.ts';
import { pdfWithPages } from './documents.fixtures.ts';
import type { TestUser } from './factories.ts';
import { uploadFile } from './files.fixtures.ts';

/** /Aufsichtsrat (2), /Mitgliedervertreter (3), /Allgemein (4), as the seed creates them. */
export const FOLDER = { ar: 2, vt: 3, both: 4 } as const;

/** A PDF whose every page names `marker`, so its text can be found in a book. */
export const markedPdf = (marker: string, pages: number) =>
  pdfWithPages(Array.from({ length: pages }, (_, page) => `${marker} Seite ${page + 1}`));

export interface MeetingDocument {
  id: number;
  title: string;
}

/** Uploads a document as the admin: a PDF by default, another format with `filename` and `type`. */
export async function uploadDocument(
  t: TestApp,
  admin: TestUser,
  options: {
    title: string;
    folderId: number;
    roles: string[];
    content: Uint8Array | string;
    filename?: string;
    type?: string;
  },
): Promise<MeetingDocument> {
  const file = await uploadFile(t, admin, {
    ...options,
    content: typeof options.content === 'string' ? options.content : Buffer.from(options.content),
  });
  return { id: file.id, title: file.title };
}

/** Creates an event for `roles` as the admin and answers its id. */
export async function createMeeting(
  t: TestApp,
  admin: TestUser,
  options: { title?: string; roles?: string[]; start?: string; end?: string; location?: string } = {},
): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: admin.headers,
    payload: {
      title: options.title ?? 'Aufsichtsratssitzung',
      roles: options.roles ?? ['Aufsichtsrat', 'Vertreter'],
      start: options.start ?? '2027-03-10T18:00',
      end: options.end ?? '2027-03-10T20:00',
      location: options.location ?? 'Sitzungssaal',
      description: 'Ordentliche Sitzung',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().event.id as number;
}

export async function putAgenda(
  t: TestApp,
  admin: TestUser,
  eventId: number,
  items: unknown[],
): Promise<void> {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/events/${eventId}/agenda`,
    headers: admin.headers,
    payload: { items },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** `GET /events/{id}/book.pdf` as `user`, body as bytes. */
export async function fetchBook(t: TestApp, user: TestUser, eventId: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/events/${eventId}/book.pdf`,
    headers: user.headers,
  });
  return { res, bytes: new Uint8Array(res.rawPayload) };
}
