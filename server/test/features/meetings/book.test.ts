import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MESSAGES } from '@gremienportal/contracts/events';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { malformedPdf } from '../../support/documents.fixtures.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import {
  createMeeting,
  fetchBook,
  FOLDER,
  markedPdf,
  putAgenda,
  uploadDocument,
  type MeetingDocument,
} from '../../support/book.fixtures.ts';
import { readPdf, type ReadPdf } from '../../support/pdf-reader.ts';

/**
 * The Sitzungsmappe (decision 130): per member, of what they may see, with cover,
 * contents, the visible PDFs, "Weitere Unterlagen" and their name on every page.
 */
describe('Sitzungsmappe (GET /events/{id}/book.pdf)', () => {
  let t: TestApp;
  let users: Record<'admin' | 'aufsichtsrat' | 'vertreter', TestUser>;
  let docs: Record<'invitation' | 'secret' | 'report' | 'table' | 'broken', MeetingDocument>;
  let eventId: number;
  /** Pages of the PDFs: invitation 3, secret (Aufsichtsrat only) 2, report (Vertreter only) 4. */
  const PAGES = { invitation: 3, secret: 2, report: 4 } as const;
  const SECRET_TEXT = 'GEHEIMSACHE-AR';

  beforeAll(async () => {
    t = await buildTestApp();
    users = {
      admin: await createUser(t, { roles: ['Admin'], firstname: 'Greta', lastname: 'Geschäftsstelle' }),
      aufsichtsrat: await createUser(t, {
        roles: ['Aufsichtsrat'],
        firstname: 'Anton',
        lastname: 'Aufsicht',
      }),
      vertreter: await createUser(t, { roles: ['Vertreter'], firstname: 'Vera', lastname: 'Vertreterin' }),
    };
    const upload = (options: Parameters<typeof uploadDocument>[2]) => uploadDocument(t, users.admin, options);
    const both = ['Aufsichtsrat', 'Vertreter'];
    docs = {
      invitation: await upload({
        title: 'Einladung',
        folderId: FOLDER.both,
        roles: both,
        content: await markedPdf('EINLADUNGSTEXT', PAGES.invitation),
      }),
      secret: await upload({
        title: 'Prüfbericht vertraulich',
        folderId: FOLDER.ar,
        roles: ['Aufsichtsrat'],
        content: await markedPdf(SECRET_TEXT, PAGES.secret),
      }),
      report: await upload({
        title: 'Bericht der Vertreter',
        folderId: FOLDER.vt,
        roles: ['Vertreter'],
        content: await markedPdf('VERTRETERBERICHT', PAGES.report),
      }),
      table: await upload({
        title: 'Zahlen 2026',
        folderId: FOLDER.both,
        roles: both,
        content: 'keine Tabelle, nur Bytes',
        filename: 'Zahlen 2026.xlsx',
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
      broken: await upload({
        title: 'Beschädigt',
        folderId: FOLDER.both,
        roles: both,
        content: malformedPdf(),
      }),
    };
    eventId = await createMeeting(t, users.admin);
    await putAgenda(t, users.admin, eventId, [
      { title: 'Begrüßung', presenter: 'Vorsitzende', file_ids: [docs.invitation.id] },
      {
        title: 'Berichte',
        children: [
          {
            title: 'Jahresabschluss',
            file_ids: [docs.secret.id, docs.report.id, docs.table.id, docs.broken.id],
          },
          // Linked twice: in the book once, where it is first linked.
          { title: 'Prüfung', file_ids: [docs.invitation.id] },
        ],
      },
      { title: 'Verschiedenes' },
    ]);
  });
  afterAll(() => t?.close());

  const bookOf = async (user: TestUser, id = eventId): Promise<ReadPdf> => {
    const { res, bytes } = await fetchBook(t, user, id);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return readPdf(bytes);
  };
  const footerOf = (name: string) => `Vertraulich – ${name} – 21.11.2026`;

  it('has cover + contents + the visible PDFs’ pages + Weitere Unterlagen, each with the footer', async () => {
    const cases = [
      { user: users.vertreter, name: 'Vera Vertreterin', pdfs: PAGES.invitation + PAGES.report },
      { user: users.aufsichtsrat, name: 'Anton Aufsicht', pdfs: PAGES.invitation + PAGES.secret },
      {
        user: users.admin,
        name: 'Greta Geschäftsstelle',
        pdfs: PAGES.invitation + PAGES.secret + PAGES.report,
      },
    ];
    for (const { user, name, pdfs } of cases) {
      const book = await bookOf(user);
      expect(book.pages, name).toHaveLength(1 + 1 + pdfs + 1);
      book.pages.forEach((text, index) => {
        expect(text, `${name}, Seite ${index + 1}`).toContain(footerOf(name));
        expect(text).toContain(`Seite ${index + 1} von ${book.pages.length}`);
      });
      expect(book.pages[0]).toContain('Aufsichtsratssitzung');
      expect(book.pages[0]).toContain('Mittwoch, 10. März 2027');
      expect(book.pages[0]).toContain('18:00 – 20:00 Uhr');
      expect(book.pages[0]).toContain('Sitzungssaal');
      expect(book.pages[1]).toContain('Tagesordnung');
      expect(book.pages.at(-1)).toContain('Weitere Unterlagen');
    }
  });

  it('leaves out what the member may not see: a Vertreter finds no trace of the Aufsichtsrat’s document', async () => {
    const vertreter = (await bookOf(users.vertreter)).pages.join('\n');
    expect(vertreter).not.toContain(SECRET_TEXT);
    expect(vertreter).not.toContain(docs.secret.title);
    expect(vertreter).toContain('VERTRETERBERICHT Seite 4');
    const aufsichtsrat = (await bookOf(users.aufsichtsrat)).pages.join('\n');
    expect(aufsichtsrat).toContain(`${SECRET_TEXT} Seite 2`);
    expect(aufsichtsrat).toContain(docs.secret.title);
    expect(aufsichtsrat).not.toContain('VERTRETERBERICHT');
  });

  it('puts the PDFs in agenda order, each first page stamped with its agenda item', async () => {
    const book = await bookOf(users.vertreter);
    // Cover, contents, Einladung (3), Bericht der Vertreter (4), Weitere Unterlagen.
    expect(book.pages[2]).toContain('EINLADUNGSTEXT Seite 1');
    expect(book.pages[2]).toContain('TOP 1 – Begrüßung');
    expect(book.pages[3]).not.toContain('TOP 1');
    expect(book.pages[5]).toContain('VERTRETERBERICHT Seite 1');
    expect(book.pages[5]).toContain('TOP 2.1 – Jahresabschluss');
    expect(book.pages[5]).toContain('Bericht der Vertreter');
    expect(book.pages.join('\n').match(/EINLADUNGSTEXT Seite 1/g)).toHaveLength(1);
  });

  it('lists non-PDF and damaged documents under “Weitere Unterlagen”', async () => {
    const last = (await bookOf(users.vertreter)).pages.at(-1)!;
    expect(last).toContain('TOP 2.1 – Jahresabschluss');
    expect(last).toContain('Zahlen 2026 (XLSX, 24 Bytes)');
    expect(last).toContain('Beschädigt (PDF) – konnte nicht eingefügt werden');
    expect(last).not.toContain('Einladung');
  });

  it('has a contents page with page numbers and links, and bookmarks per item', async () => {
    const book = await bookOf(users.vertreter);
    const contents = book.pages[1]!;
    expect(contents).toMatch(/1\s+Begrüßung[\s.]+3/);
    expect(contents).toMatch(/2\.1\s+Jahresabschluss[\s.]+6/);
    expect(contents).toContain('Vortrag: Vorsitzende');
    const weitere = book.pages.length - 1;
    // Begrüßung and its Einladung, (Berichte has no document of its own), 2.1 and its three, 2.2 and its one.
    expect(book.links.filter((link) => link.page === 1).map((link) => link.target)).toEqual([
      2,
      2,
      5,
      5,
      weitere,
      weitere,
      2,
      2,
    ]);
    const titles = (marks: ReadPdf['outline']): unknown[] =>
      marks.map((mark) => [mark.title, mark.page, ...(mark.children.length ? [titles(mark.children)] : [])]);
    expect(titles(book.outline)).toEqual([
      ['Deckblatt', 0],
      ['Tagesordnung', 1],
      ['1 Begrüßung', 2, [['Einladung', 2]]],
      [
        '2 Berichte',
        1,
        [
          [
            '2.1 Jahresabschluss',
            5,
            [
              ['Bericht der Vertreter', 5],
              ['Zahlen 2026', weitere],
              ['Beschädigt', weitere],
            ],
          ],
          ['2.2 Prüfung', 2, [['Einladung', 2]]],
        ],
      ],
      ['3 Verschiedenes', 1],
      ['Weitere Unterlagen', weitere],
    ]);
  });

  it('answers a PDF attachment with a German file name, its length, nosniff and no caching', async () => {
    const { res, bytes } = await fetchBook(t, users.vertreter, eventId);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Sitzungsmappe - Aufsichtsratssitzung - 10.03.2027.pdf"; filename*=UTF-8''${encodeURIComponent('Sitzungsmappe – Aufsichtsratssitzung – 10.03.2027.pdf')}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('is described in the OpenAPI document as a PDF answer, its refusals as JSON', () => {
    type Operation = { responses: Record<string, { content: Record<string, unknown> }> };
    const paths = (t.app.swagger() as { paths: Record<string, { get: Operation }> }).paths;
    const { responses } = paths['/api/v1/events/{id}/book.pdf']!.get;
    expect(Object.keys(responses['200']!.content)).toEqual(['application/pdf']);
    expect(Object.keys(responses['404']!.content)).toEqual(['application/json']);
    expect(Object.keys(responses['503']!.content)).toEqual(['application/json']);
  });

  it('records the book and each inserted document as a delivery, once per session in the window', async () => {
    const member = await createUser(t, { roles: ['Vertreter'] });
    const entries = () =>
      t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'object_type', 'object_id', 'details'])
        .where('actor_id', '=', member.id)
        .orderBy('id')
        .execute();
    expect((await fetchBook(t, member, eventId)).res.statusCode).toBe(200);
    const recorded = await entries();
    expect(recorded.map((entry) => [entry.action, entry.object_id])).toEqual([
      ['event.book_downloaded', eventId],
      ['file.downloaded', docs.invitation.id],
      ['file.downloaded', docs.report.id],
    ]);
    expect(JSON.parse(recorded[0]!.details!)).toEqual({ documents: 2, pages: 10, listed: 2 });
    expect(JSON.parse(recorded[1]!.details!)).toEqual({ sitzungsmappe: eventId });
    expect((await fetchBook(t, member, eventId)).res.statusCode).toBe(200);
    expect(await entries()).toHaveLength(3);
    // HEAD builds nothing and records nothing.
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/v1/events/${eventId}/book.pdf`,
      headers: users.aufsichtsrat.headers,
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe('application/pdf');
  });

  it('answers a hidden, a deleted and a missing event alike with 404', async () => {
    const hidden = await createMeeting(t, users.admin, { roles: ['Aufsichtsrat'] });
    const deleted = await createMeeting(t, users.admin, { roles: ['Vertreter'] });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/events/${deleted}`,
      headers: users.admin.headers,
    });
    expect(res.statusCode).toBe(204);
    for (const method of ['GET', 'HEAD'] as const) {
      const answers = await Promise.all(
        [hidden, deleted, 987_654].map((id) =>
          t.app.inject({ method, url: `/api/v1/events/${id}/book.pdf`, headers: users.vertreter.headers }),
        ),
      );
      for (const answer of answers) {
        expect(answer.statusCode).toBe(404);
        expect(answer.body).toBe(answers[0]!.body);
      }
      if (method === 'GET') expect(answers[0]!.json()).toEqual({ message: EVENT_MESSAGES.notFound });
    }
    expect((await fetchBook(t, users.aufsichtsrat, hidden)).res.statusCode).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/events/${eventId}/book.pdf` });
    expect(anonymous.statusCode).toBe(401);
  });
});
