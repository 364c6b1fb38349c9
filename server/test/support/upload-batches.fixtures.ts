import { expect } from 'vitest';
import type { TestApp } from './build-test-app.ts';
import { chooseNotifications, createUser, type TestUser } from './factories.ts';
import { dataUrl, pdfBytes } from './files.fixtures.ts';

/** The calls the upload batch tests (decision 182) make, against the app `app()` answers then. */
export function batchCalls(app: () => TestApp) {
  const upload = (
    by: TestUser,
    body: { title: string; roles: string[]; folderId: number; batchId?: unknown; notifications?: string[] },
  ) =>
    app().app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: by.headers,
      payload: {
        title: body.title,
        file: dataUrl(pdfBytes(body.title)),
        permissions: body.roles,
        notifications: body.notifications ?? body.roles,
        folder_id: body.folderId,
        ...(body.batchId === undefined ? {} : { batch_id: body.batchId }),
      },
    });
  return {
    upload,
    async uploaded(...args: Parameters<typeof upload>) {
      const res = await upload(...args);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().file as { id: number; title: string };
    },
    complete: (by: TestUser, batchId: string) =>
      app().app.inject({
        method: 'POST',
        url: `/api/v1/files/batches/${batchId}/complete`,
        headers: by.headers,
      }),
    /** The mails sent from now on, with the mail sender's jobs run first (as its timer would). */
    sentSince: async (before: number) => (await app().flushMail()).slice(before),
    mailsTo: <M extends { to: string }>(mails: M[], user: TestUser) =>
      mails.filter((mail) => mail.to === user.email),
    /** A member of these roles who wants documents told this way. */
    async member(roles: ('Vertreter' | 'Aufsichtsrat')[], files: 'sofort' | 'taeglich' | 'nie') {
      const user = await createUser(app(), { roles });
      await chooseNotifications(app(), [user], { files });
      return user;
    },
  };
}
