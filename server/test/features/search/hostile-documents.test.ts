import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../../support/factories.ts';
import {
  docx,
  docxZipBomb,
  malformedPdf,
  pdfWithEmptyPages,
  pdfWithPages,
} from '../../support/documents.fixtures.ts';
import { uploadFile } from '../../support/files.fixtures.ts';

/**
 * Uploaded documents the indexer must survive (decision 128): each hostile one ends as "nicht
 * durchsuchbar" for itself, the queue goes on, and the portal keeps answering meanwhile.
 */
describe('search: hostile documents', () => {
  let t: TestApp;
  let admin: TestUser;
  let vertreter: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ admin, vertreter } = await createRoleUsers(t));
  });
  afterAll(() => t.close());

  const upload = (title: string, content: Uint8Array, filename: string, type: string) =>
    uploadFile(t, admin, {
      title,
      folderId: 4,
      roles: ['Vertreter'],
      content: Buffer.from(content),
      filename,
      type,
    });
  const state = async (id: number) =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/files/${id}`, headers: vertreter.headers })).json()
      .data.text_state;

  it('reads real PDFs and DOCX files, and gives up on bombs and broken files without harm', async () => {
    const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const good = await upload(
      'Lagebericht',
      await pdfWithPages(['Der Lagebericht nennt Rückstellungen.', 'Seite zwei: Mitgliederförderung']),
      'lagebericht.pdf',
      'application/pdf',
    );
    const word = await upload(
      'Einladung',
      docx(['Einladung zur Vertreterversammlung']),
      'einladung.docx',
      DOCX,
    );
    const bomb = await upload('Bombe', docxZipBomb(1), 'bombe.docx', DOCX);
    const broken = await upload('Kaputt', malformedPdf(), 'kaputt.pdf', 'application/pdf');
    const empty = await upload('Leere Seiten', await pdfWithEmptyPages(2_000), 'leer.pdf', 'application/pdf');

    // The portal answers while the indexer works through them.
    const draining = t.app.searchIndexer.drain();
    const started = performance.now();
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await draining).toBe(5);

    expect(await state(good.id)).toBe('done');
    expect(await state(word.id)).toBe('done');
    expect(await state(bomb.id)).toBe('failed');
    expect(await state(broken.id)).toBe('failed');
    expect(await state(empty.id)).toBe('empty');
    const search = async (q: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/search?q=${encodeURIComponent(q)}`,
          headers: vertreter.headers,
        })
      ).json();
    const found = await search('foerderung');
    expect(found.data.map((hit: { title: string }) => hit.title)).toEqual(['Lagebericht']);
    expect(found.data[0].snippet.text).toContain('Mitgliederförderung');
    expect(found.data[0].searchable).toBe(true);
    expect((await search('versammlung')).data.map((hit: { title: string }) => hit.title)).toEqual([
      'Einladung',
    ]);
    // Found by title, marked as not searchable inside.
    const leer = await search('Leere Seiten');
    expect(leer.data[0]).toMatchObject({ title: 'Leere Seiten', searchable: false, snippet: null });
  }, 60_000);
});
