import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneVersions } from '../../../src/features/files/versions-retention.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../../support/factories.ts';
import { createFolder, dataUrl, uploadFile } from '../../support/files.fixtures.ts';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

describe.each([
  ['every version kept', {}],
  ['VERSIONS_KEEP=1', { VERSIONS_KEEP: '1' }],
])('document versions (%s)', (_label, env: Record<string, string>) => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let admin: TestUser;
  let folderId: number;
  beforeAll(async () => {
    t = await buildTestApp({ env });
    users = await createRoleUsers(t);
    admin = users.admin;
    folderId = (await createFolder(t, admin, { folder_id: 4, title: 'Protokolle' })).id;
  });
  afterAll(() => t.close());

  const replace = (id: number, content: string, type = 'text/plain') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${id}`,
      headers: admin.headers,
      payload: { file: dataUrl(content, type) },
    });
  const versions = async (id: number, user: TestUser = admin) =>
    t.app.inject({ method: 'GET', url: `/api/v1/files/${id}/versions`, headers: user.headers });
  const downloadVersion = (id: number, version: number, user: TestUser = admin) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${id}/versions/${version}/download`,
      headers: user.headers,
    });

  it('keeps the replaced content byte for byte and makes a new version from an old one', async () => {
    const original = Buffer.from('%PDF-1.4\n% Unterschriebenes Protokoll\n%%EOF\n');
    const file = await uploadFile(t, admin, {
      title: 'Protokoll März',
      folderId,
      roles: ['Vertreter'],
      content: original,
    });
    t.clock.advance(60_000);
    expect((await replace(file.id, 'Versehentlich überschrieben')).statusCode).toBe(200);

    let list = (await versions(file.id)).json().data;
    expect(list.map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(list[1]).toMatchObject({
      format: 'pdf',
      size_bytes: original.length,
      replaced_by: expect.stringContaining(admin.email),
      replaced_at: t.clock.now().toISOString(),
    });
    const old = await downloadVersion(file.id, 1);
    expect(old.statusCode).toBe(200);
    expect(sha256(old.rawPayload)).toBe(sha256(original));
    expect(old.headers['content-disposition']).toContain('Version 1');

    t.clock.advance(60_000);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/v1/files/${file.id}/versions/1/restore`,
      headers: admin.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().file).toMatchObject({ id: file.id, format: 'pdf', size_bytes: original.length });
    const current = await t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${file.external}`,
      headers: users.vertreter.headers,
    });
    expect(sha256(current.rawPayload)).toBe(sha256(original));

    list = (await versions(file.id)).json().data;
    expect(list[0]).toMatchObject({ version: 3, current: true, restored_from: 1 });
    // Nothing is lost: the overwritten content is still version 2 (unless VERSIONS_KEEP prunes it).
    expect((await downloadVersion(file.id, 2)).body).toBe('Versehentlich überschrieben');
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'object_label'])
      .where('object_type', '=', 'file')
      .where('object_id', '=', file.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'file.created',
      'file.updated',
      'file.downloaded',
      'file.version_restored',
      'file.downloaded',
      'file.downloaded',
    ]);
    expect(audit[3]!.object_label).toBe('Protokoll März.pdf');

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/files/${file.id}/versions/3/restore`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Das ist bereits die aktuelle Version.');
    expect((await downloadVersion(file.id, 9)).statusCode).toBe(404);
  });

  it('shows members the current version only: every version route answers them 404', async () => {
    const file = await uploadFile(t, admin, { title: 'Nur aktuell', folderId, roles: ['Vertreter'] });
    await replace(file.id, 'Zweite Fassung');
    for (const user of [users.vertreter, users.aufsichtsrat]) {
      expect((await versions(file.id, user)).statusCode).toBe(404);
      expect((await downloadVersion(file.id, 1, user)).statusCode).toBe(404);
      const restore = await t.app.inject({
        method: 'POST',
        url: `/api/v1/files/${file.id}/versions/1/restore`,
        headers: user.headers,
      });
      expect(restore.statusCode).toBe(404);
    }
    expect((await versions(file.id, users.superAdmin)).json().data).toHaveLength(2);
  });

  it('limits old versions to VERSIONS_KEEP in the daily maintenance, oldest first', async () => {
    const file = await uploadFile(t, admin, { title: 'Oft ersetzt', folderId, roles: ['Vertreter'] });
    for (const text of ['zwei', 'drei', 'vier']) expect((await replace(file.id, text)).statusCode).toBe(200);
    const keys = async () =>
      (
        await t.db.kysely
          .selectFrom('file_versions')
          .select(['version', 'storage_key'])
          .where('file_id', '=', file.id)
          .orderBy('version')
          .execute()
      ).map((row) => row);
    const before = await keys();
    expect(before.map((row) => row.version)).toEqual([1, 2, 3]);
    await pruneVersions(t.app.context);
    const after = await keys();
    if (env.VERSIONS_KEEP === '1') {
      expect(after.map((row) => row.version)).toEqual([3]);
      for (const row of before.slice(0, 2))
        expect(await t.app.context.storage.size(row.storage_key)).toBeNull();
      const removed = await t.db.kysely
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'file.version_removed')
        .where('object_id', '=', file.id)
        .execute();
      expect(removed.map((row) => JSON.parse(row.details!).version)).toEqual([1, 2]);
      // Running again (another instance, the next day) removes nothing more.
      expect(await pruneVersions(t.app.context)).toBe(0);
    } else {
      expect(after).toEqual(before);
    }
    expect((await downloadVersion(file.id, 3)).body).toBe('drei');
  });
});
