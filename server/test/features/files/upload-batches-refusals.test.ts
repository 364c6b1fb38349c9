import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/files-batches';
import { MINUTE } from '../../../src/clock.ts';
import { uploadBatchTasks } from '../../../src/features/files/upload-batches.service.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { createFolder, multipart, pdfBytes, storedObjects } from '../../support/files.fixtures.ts';
import { batchCalls } from '../../support/upload-batches.fixtures.ts';

/*
 * Upload batches (decision 182), what they refuse and forget: a malformed batch id (422 in German,
 * nothing stored), an unknown or another admin's batch (404), another admin's batch for a document
 * (422, before the file is stored); the batch id as a multipart field; the week's clean-up.
 */
describe('upload batches: refusals and clean-up', () => {
  let t: TestApp;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let shared: { id: number; breadcrumb: string };
  const { upload, uploaded, complete, sentSince, mailsTo, member } = batchCalls(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    otherAdmin = await createUser(t, { roles: ['Admin'] });
    shared = await createFolder(t, admin, { title: 'Versammlung', folder_id: 4 });
  });
  afterAll(() => t.close());
  // Only this test's members are told anything: everybody else so far hears nothing.
  beforeEach(async () => {
    await t.db.kysely.updateTable('users').set({ notify_files: 'nie' }).execute();
    await t.flushMail();
  });

  it('refuses a bad batch id with 422 in German, in JSON and multipart, and stores nothing', async () => {
    const files = async () => (await t.db.kysely.selectFrom('files').select('id').execute()).length;
    const count = await files();
    for (const batchId of ['keine-uuid', 42, '123e4567-e89b-12d3-a456-42661417400', ['a']]) {
      const res = await upload(admin, {
        title: 'Falsch',
        roles: ['Vertreter'],
        folderId: shared.id,
        batchId,
      });
      expect(res.statusCode, JSON.stringify(batchId)).toBe(422);
      expect(res.json().errors.batch_id).toEqual([UPLOAD_BATCH_MESSAGES.invalidBatchId]);
    }
    const form = multipart(
      [
        ['title', 'Falsch'],
        ['permissions', 'Vertreter'],
        ['folder_id', String(shared.id)],
        ['batch_id', 'nicht-gültig'],
      ],
      { filename: 'falsch.pdf', type: 'application/pdf', content: pdfBytes() },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ batch_id: [UPLOAD_BATCH_MESSAGES.invalidBatchId] });
    expect(await files()).toBe(count);
    expect(
      await t.db.kysely.selectFrom('upload_batches').select('id').where('id', '=', 'keine-uuid').execute(),
    ).toEqual([]);

    // In the path, as every malformed id there: a batch that does not exist.
    const path = await complete(admin, 'keine-uuid');
    expect(path.statusCode).toBe(404);
    expect(path.json()).toEqual({ message: 'Nicht gefunden.' });
  });

  it('takes the batch id as a multipart field', async () => {
    const now = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    for (const title of ['Teil eins', 'Teil zwei']) {
      const form = multipart(
        [
          ['title', title],
          ['permissions', 'Vertreter'],
          ['notifications', 'Vertreter'],
          ['folder_id', String(shared.id)],
          ['batch_id', batchId],
        ],
        { filename: `${title}.pdf`, type: 'application/pdf', content: pdfBytes(title) },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await complete(admin, batchId)).json().batch).toMatchObject({ files: 2, mails: 1 });
    expect(mailsTo(await sentSince(before), now).map((mail) => mail.subject)).toEqual([
      '2 neue Dokumente im Gremienportal',
    ]);
  });

  it("answers 404 for an unknown or another admin's batch and refuses adding to another's", async () => {
    const unknown = await complete(admin, randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: UPLOAD_BATCH_MESSAGES.notFound });

    const batchId = randomUUID();
    await uploaded(admin, { title: 'Meins', roles: ['Vertreter'], folderId: shared.id, batchId });
    const foreign = await complete(otherAdmin, batchId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    const intruder = await upload(otherAdmin, {
      title: 'Fremd',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    expect(intruder.statusCode).toBe(422);
    expect(intruder.json().errors).toEqual({ batch_id: [UPLOAD_BATCH_MESSAGES.batchForeign] });
    // In multipart with the fields first, refused before the file is stored.
    const stored = await storedObjects(t);
    const form = multipart(
      [
        ['title', 'Fremd'],
        ['permissions', 'Vertreter'],
        ['folder_id', String(shared.id)],
        ['batch_id', batchId],
      ],
      { filename: 'fremd.pdf', type: 'application/pdf', content: pdfBytes('fremd') },
    );
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...otherAdmin.headers, ...form.headers },
      payload: form.payload,
    });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors).toEqual({ batch_id: [UPLOAD_BATCH_MESSAGES.batchForeign] });
    expect(await storedObjects(t)).toEqual(stored);
    // Still open for its own admin.
    expect((await complete(admin, batchId)).json().batch.files).toBe(1);

    const vertreter = await createUser(t, { roles: ['Vertreter'] });
    expect((await complete(vertreter, batchId)).statusCode).toBe(403);
  });

  it('forgets completed batches after a week in the daily maintenance', async () => {
    const batchId = randomUUID();
    await uploaded(admin, { title: 'Alt', roles: ['Vertreter'], folderId: shared.id, batchId });
    expect((await complete(admin, batchId)).statusCode).toBe(200);
    const open = randomUUID();
    await uploaded(admin, { title: 'Offen', roles: ['Vertreter'], folderId: shared.id, batchId: open });
    const ids = async () =>
      (
        await t.db.kysely
          .selectFrom('upload_batches')
          .select('id')
          .where('id', 'in', [batchId, open])
          .execute()
      )
        .map((row) => row.id)
        .sort();
    t.clock.advance(6 * 24 * 60 * MINUTE);
    for (const task of uploadBatchTasks) await task.run(t.app.context);
    expect(await ids()).toEqual([batchId, open].sort());
    t.clock.advance(2 * 24 * 60 * MINUTE);
    for (const task of uploadBatchTasks) await task.run(t.app.context);
    expect(await ids()).toEqual([open]);
  });
});
