import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { createFolder } from '../../support/files.fixtures.ts';
import { batchCalls } from '../../support/upload-batches.fixtures.ts';

/*
 * Several documents in one go (decision 182): the files of one batch give every member told at once
 * ("sofort") one mail for the whole batch, with exactly the documents they may see, once however
 * often or wherever the batch is completed; digest members keep their digest rows. The refusals
 * are in upload-batches-refusals.test.ts.
 */
describe('upload batches', () => {
  let t: TestApp;
  let admin: TestUser;
  let board: { id: number; breadcrumb: string };
  let shared: { id: number; breadcrumb: string };
  const { upload, uploaded, complete, sentSince, mailsTo, member } = batchCalls(() => t);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    board = await createFolder(t, admin, { title: 'Sitzungen', folder_id: 2 });
    shared = await createFolder(t, admin, { title: 'Versammlung', folder_id: 4 });
  });
  afterAll(() => t.close());
  // Only this test's members are told anything: everybody else so far hears nothing.
  beforeEach(async () => {
    await t.db.kysely.updateTable('users').set({ notify_files: 'nie' }).execute();
    await t.flushMail();
  });

  it('mails each member once for the whole batch, with what they may see, when it is completed', async () => {
    const vertreter = await member(['Vertreter'], 'sofort');
    const aufsichtsrat = await member(['Aufsichtsrat'], 'sofort');
    const both = await member(['Vertreter', 'Aufsichtsrat'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    const forAll = await uploaded(admin, {
      title: 'Einladung Versammlung',
      roles: ['Vertreter', 'Aufsichtsrat'],
      folderId: shared.id,
      batchId,
    });
    const forVt = await uploaded(admin, {
      title: 'Anlage Vertreter',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    const forAr = await uploaded(admin, {
      title: 'Bericht Aufsichtsrat',
      roles: ['Aufsichtsrat'],
      folderId: board.id,
      batchId,
    });
    // Nothing yet: the batch is open.
    expect(await sentSince(before)).toEqual([]);

    const res = await complete(admin, batchId.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: '3 Dokumente hochgeladen; 3 Personen erhalten eine E-Mail dazu.',
      batch: { id: batchId, files: 3, mails: 3, completed_at: t.clock.now().toISOString() },
    });
    const mails = await sentSince(before);
    expect(mails).toHaveLength(3);
    const [toVt] = mailsTo(mails, vertreter);
    const [toAr] = mailsTo(mails, aufsichtsrat);
    const [toBoth] = mailsTo(mails, both);
    expect(toVt!.subject).toBe('2 neue Dokumente im Gremienportal');
    expect(toAr!.subject).toBe('2 neue Dokumente im Gremienportal');
    expect(toBoth!.subject).toBe('3 neue Dokumente im Gremienportal');
    const link = (file: { id: number }) => `http://portal.test/files/show/${file.id}`;
    expect(toVt!.text).toContain('im Gremienportal wurden 2 neue Dokumente für Sie bereitgestellt:');
    expect(toVt!.text).toContain(`Ordner ${shared.breadcrumb}`);
    for (const file of [forAll, forVt]) expect(toVt!.text).toContain(link(file));
    // The Aufsichtsrat's document, its title and its folder stay out of the Vertreter's mail.
    expect(toVt!.text).not.toContain(link(forAr));
    expect(toVt!.text + toVt!.html).not.toContain('Bericht Aufsichtsrat');
    expect(toVt!.text).not.toContain(board.breadcrumb);
    for (const file of [forAll, forAr]) expect(toAr!.text).toContain(link(file));
    expect(toAr!.text).not.toContain(link(forVt));
    for (const file of [forAll, forVt, forAr]) expect(toBoth!.text).toContain(link(file));
    expect(toBoth!.listUnsubscribe).toBe('http://portal.test/account#benachrichtigungen');

    // Completing again answers the same and mails nothing.
    const again = await complete(admin, batchId);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await sentSince(before + mails.length)).toEqual([]);
  });

  it('names the single document in the subject and leaves out one deleted before the completion', async () => {
    const vertreter = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    const kept = await uploaded(admin, {
      title: 'Tagesordnung',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    const gone = await uploaded(admin, {
      title: 'Entwurf',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/${gone.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await complete(admin, batchId)).json().message).toBe(
      '2 Dokumente hochgeladen; 1 Person erhält eine E-Mail dazu.',
    );
    const [mail, ...more] = mailsTo(await sentSince(before), vertreter);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('1 neues Dokument im Gremienportal: Tagesordnung');
    expect(mail!.text).toContain('im Gremienportal wurde 1 neues Dokument für Sie bereitgestellt:');
    expect(mail!.text).toContain(`http://portal.test/files/show/${kept.id}`);
    expect(mail!.text).not.toContain(`http://portal.test/files/show/${gone.id}`);
  });

  it('leaves digest members as they are: a digest row per document, no batch mail', async () => {
    const daily = await member(['Vertreter'], 'taeglich');
    const never = await member(['Vertreter'], 'nie');
    const now = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    const a = await uploaded(admin, {
      title: 'Haushalt 2027',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    const b = await uploaded(admin, {
      title: 'Stellenplan',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    expect((await complete(admin, batchId)).statusCode).toBe(200);
    const mails = await sentSince(before);
    expect(mailsTo(mails, daily)).toEqual([]);
    expect(mailsTo(mails, never)).toEqual([]);
    expect(mailsTo(mails, now).map((mail) => mail.subject)).toEqual(['2 neue Dokumente im Gremienportal']);
    const queued = (user: TestUser) =>
      t.db.kysely
        .selectFrom('notification_queue')
        .select(['object_id', 'action'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute();
    expect(await queued(daily)).toEqual([
      { object_id: a.id, action: 'created' },
      { object_id: b.id, action: 'created' },
    ]);
    expect(await queued(never)).toEqual([]);
  });

  it('keeps one mail per document without a batch', async () => {
    const now = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    await uploaded(admin, { title: 'Einzeln', roles: ['Vertreter'], folderId: shared.id });
    expect(mailsTo(await sentSince(before), now).map((mail) => mail.subject)).toEqual([
      'Neues Dokument im Gremienportal: Einzeln',
    ]);
  });

  it('completes a batch nobody completes a quiet period after its last document, once', async () => {
    const now = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    await uploaded(admin, { title: 'Ruhig eins', roles: ['Vertreter'], folderId: shared.id, batchId });
    t.clock.advance(9 * MINUTE);
    await uploaded(admin, { title: 'Ruhig zwei', roles: ['Vertreter'], folderId: shared.id, batchId });
    t.clock.advance(9 * MINUTE);
    expect(await sentSince(before)).toEqual([]);
    t.clock.advance(2 * MINUTE);
    const mails = await sentSince(before);
    expect(mailsTo(mails, now).map((mail) => mail.subject)).toEqual(['2 neue Dokumente im Gremienportal']);
    // Completed by the job: the admin's call answers the same, and the next round sends nothing.
    const res = await complete(admin, batchId);
    expect(res.json().batch).toMatchObject({ files: 2, mails: 1 });
    expect(await sentSince(before + mails.length)).toEqual([]);
    // A document arriving after that (a slow one) opens the batch again: one more mail, with it alone.
    const late = await uploaded(admin, {
      title: 'Zu spät',
      roles: ['Vertreter'],
      folderId: shared.id,
      batchId,
    });
    expect(await sentSince(before + mails.length)).toEqual([]);
    const again = await complete(admin, batchId);
    expect(again.json().batch).toMatchObject({ files: 3, mails: 2 });
    const [second, ...more] = mailsTo(await sentSince(before + mails.length), now);
    expect(more).toEqual([]);
    expect(second!.subject).toBe('1 neues Dokument im Gremienportal: Zu spät');
    expect(second!.text).toContain(`http://portal.test/files/show/${late.id}`);
    expect(second!.text).not.toContain('Ruhig eins');
  });

  it('sends the mails once when two completions race', async () => {
    const now = await member(['Vertreter'], 'sofort');
    const before = t.mail.sent.length;
    const batchId = randomUUID();
    await uploaded(admin, { title: 'Gleichzeitig', roles: ['Vertreter'], folderId: shared.id, batchId });
    t.clock.advance(11 * MINUTE);
    const [first, second] = await Promise.all([
      complete(admin, batchId),
      complete(admin, batchId),
      t.app.context.mailSender.runJobs(),
    ]);
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 200]);
    expect(mailsTo(await sentSince(before), now)).toHaveLength(1);
  });

  it('begins one batch when its first two documents arrive at the same time', async () => {
    const batchId = randomUUID();
    const both = await Promise.all(
      ['Zugleich eins', 'Zugleich zwei'].map((title) =>
        upload(admin, { title, roles: ['Vertreter'], folderId: shared.id, batchId }),
      ),
    );
    expect(both.map((res) => res.statusCode)).toEqual([201, 201]);
    expect((await complete(admin, batchId)).json().batch.files).toBe(2);
  });
});
