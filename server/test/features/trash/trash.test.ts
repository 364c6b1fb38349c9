// Over 300 lines: one test app walks the Papierkorb's life cycle (delete, hide, list, restore, clash,
// purge, expiry, races) for documents, folders and events; splitting it would repeat the set-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../../src/clock.ts';
import { trashTasks } from '../../../src/features/trash/trash-expiry.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, sessionFor, type TestUser } from '../../support/factories.ts';
import { createFolder, dataUrl, uploadFile } from '../../support/files.fixtures.ts';

describe('Papierkorb', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    admin = users.admin;
  });
  afterAll(() => t.close());

  /** Moves the clock and signs everyone in again (sessions end after the idle limit). */
  async function advanceDays(days: number) {
    t.clock.advance(days * DAY);
    for (const user of Object.values(users)) {
      user.token = await sessionFor(t, user.id);
      user.headers = { authorization: `Bearer ${user.token}` };
    }
  }

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    user: TestUser = admin,
    payload?: object,
  ) => t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const del = (url: string) => call('DELETE', url);
  const restore = (type: string, id: number, body?: object, user: TestUser = admin) =>
    call('POST', `/api/v1/trash/${type}/${id}/restore`, user, body ?? {});
  const trashList = async (query = '', user: TestUser = admin) =>
    (await call('GET', `/api/v1/trash${query}`, user)).json();
  const visibleText = async (user: TestUser) =>
    [
      await call('GET', '/api/v1/tree', user),
      await call('GET', '/api/v1/files', user),
      await call('GET', '/api/v1/folders', user),
      await call('GET', '/api/v1/files/upload-targets', user),
      await call('GET', '/api/v1/events', user),
    ]
      .map((res) => res.body)
      .join('\n');

  it('hides a deleted document everywhere, lists it, and restores it with its roles and key', async () => {
    const folder = await createFolder(t, admin, { folder_id: 4, title: 'Sitzungen' });
    const file = await uploadFile(t, admin, {
      title: 'Einladung Juni',
      folderId: folder.id,
      roles: ['Vertreter', 'Aufsichtsrat'],
    });
    expect((await del(`/api/v1/files/${file.id}`)).statusCode).toBe(204);
    for (const user of [admin, users.vertreter, users.superAdmin]) {
      expect((await call('GET', `/api/v1/files/${file.id}`, user)).statusCode).toBe(404);
      expect((await call('GET', `/api/v1/download/${file.external}`, user)).statusCode).toBe(404);
      expect(await visibleText(user)).not.toContain('Einladung Juni');
      const listing = (await call('GET', `/api/v1/folders/${folder.id}`, user)).json().data;
      expect(listing).toMatchObject({ files: 0 });
    }
    const list = await trashList();
    expect(list.data[0]).toMatchObject({
      type: 'file',
      object_id: file.id,
      title: 'Einladung Juni.pdf',
      former_path: '/Allgemein/Sitzungen',
      former_folder_id: folder.id,
      needs_target: false,
      deleted_by: { id: admin.id, label: expect.stringContaining(admin.email) },
      files: 1,
      folders: 0,
      expires_at: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    expect(list.meta).toMatchObject({ all: 1, total: 1, may_purge: false });
    expect((await call('GET', '/api/v1/trash', users.vertreter)).statusCode).toBe(404);
    expect((await restore('file', file.id, {}, users.vertreter)).statusCode).toBe(404);

    const res = await restore('file', file.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      type: 'file',
      id: file.id,
      title: 'Einladung Juni',
      folder_id: folder.id,
      renamed: false,
    });
    const back = (await call('GET', `/api/v1/files/${file.id}`, users.vertreter)).json().data;
    expect(back).toMatchObject({ roles: ['Aufsichtsrat', 'Vertreter'], external: file.external });
    expect((await call('GET', `/api/v1/download/${file.external}`, users.aufsichtsrat)).statusCode).toBe(200);
    expect((await trashList()).meta.all).toBe(0);
    // A second restore finds nothing to restore: the German 409 of the slower admin.
    const late = await restore('file', file.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/nicht mehr im Papierkorb/);
    expect((await restore('file', 2_000_000)).statusCode).toBe(404);
  });

  it('restores a folder subtree as it was deleted, not what was deleted before on its own', async () => {
    const top = await createFolder(t, admin, {
      folder_id: 2,
      title: 'Amtsperiode alt',
      roles: ['Aufsichtsrat'],
    });
    const sub = await createFolder(t, admin, { folder_id: top.id, title: '2024' });
    const kept = await uploadFile(t, admin, { title: 'Bilanz', folderId: sub.id, roles: ['Aufsichtsrat'] });
    const early = await uploadFile(t, admin, { title: 'Entwurf', folderId: sub.id, roles: ['Aufsichtsrat'] });
    expect((await del(`/api/v1/files/${early.id}`)).statusCode).toBe(204);
    expect((await del(`/api/v1/folders/${top.id}`)).statusCode).toBe(204);
    for (const url of [
      `/api/v1/folders/${top.id}`,
      `/api/v1/folders/${sub.id}`,
      `/api/v1/files/${kept.id}`,
    ]) {
      expect((await call('GET', url, users.aufsichtsrat)).statusCode).toBe(404);
    }
    const item = (await trashList('?type=folder')).data[0];
    expect(item).toMatchObject({ object_id: top.id, title: 'Amtsperiode alt', files: 1, folders: 2 });

    expect((await restore('folder', top.id)).statusCode).toBe(200);
    const subBack = (await call('GET', `/api/v1/folders/${sub.id}`, users.aufsichtsrat)).json().data;
    expect(subBack).toMatchObject({
      breadcrumb: '/Aufsichtsrat/Amtsperiode alt/2024',
      roles: ['Aufsichtsrat'],
    });
    expect((await call('GET', `/api/v1/files/${kept.id}`, users.aufsichtsrat)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/files/${early.id}`)).statusCode).toBe(404);
    // The document deleted on its own before is still in the Papierkorb, and its folder exists again.
    const earlyItem = (await trashList('?type=file')).data.find(
      (i: { object_id: number }) => i.object_id === early.id,
    );
    expect(earlyItem).toMatchObject({ needs_target: false, former_folder_id: sub.id });
  });

  it('asks for a target when the former folder is gone, and renames on a title clash', async () => {
    const parent = await createFolder(t, admin, { folder_id: 4, title: 'Vergänglich' });
    const file = await uploadFile(t, admin, { title: 'Waise', folderId: parent.id, roles: ['Vertreter'] });
    expect((await del(`/api/v1/files/${file.id}`)).statusCode).toBe(204);
    expect((await del(`/api/v1/folders/${parent.id}`)).statusCode).toBe(204);
    const item = (await trashList('?type=file')).data.find(
      (i: { object_id: number }) => i.object_id === file.id,
    );
    expect(item.needs_target).toBe(true);
    let res = await restore('file', file.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      folder_id: ['Der frühere Ordner ist nicht mehr vorhanden. Bitte einen Zielordner wählen.'],
    });
    expect((await restore('file', file.id, { folder_id: 1 })).statusCode).toBe(422);
    expect((await restore('file', file.id, { folder_id: 999_999 })).json().errors.folder_id).toEqual([
      'Der Zielordner wurde nicht gefunden.',
    ]);
    const target = await createFolder(t, admin, { folder_id: 4, title: 'Neues Zuhause' });
    await uploadFile(t, admin, { title: 'Waise', folderId: target.id, roles: ['Vertreter'] });
    res = await restore('file', file.id, { folder_id: target.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      title: 'Waise (wiederhergestellt)',
      folder_id: target.id,
      renamed: true,
    });

    // A folder whose place holds one of the same name by now.
    await createFolder(t, admin, { folder_id: 4, title: 'Vergänglich' });
    res = await restore('folder', parent.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'Vergänglich (wiederhergestellt)', renamed: true });
    const back = (await call('GET', `/api/v1/folders/${parent.id}`)).json().data;
    expect(back.breadcrumb).toBe('/Allgemein/Vergänglich (wiederhergestellt)');
  });

  it('sends an event with its information file through the Papierkorb', async () => {
    const created = await call('POST', '/api/v1/events', admin, {
      title: 'Vertreterversammlung',
      start: '2026-12-10T18:00',
      end: '2026-12-10T20:00',
      location: 'Stadthalle',
      description: 'Jährliche Versammlung',
      roles: ['Vertreter'],
      data: dataUrl('%PDF-1.4\n% Tagesordnung\n%%EOF\n'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const event = created.json().event as { id: number; external: string };
    expect((await del(`/api/v1/events/${event.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/events/${event.id}`, users.vertreter)).statusCode).toBe(404);
    expect(await visibleText(users.vertreter)).not.toContain('Vertreterversammlung');
    expect((await call('GET', `/api/v1/info/${event.external}`)).statusCode).toBe(404);
    expect((await restore('event', event.id, { folder_id: 4 })).statusCode).toBe(422);
    expect((await restore('event', event.id)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/events/${event.id}`, users.vertreter)).json().data.title).toBe(
      'Vertreterversammlung',
    );
    expect((await call('GET', `/api/v1/info/${event.external}`, users.vertreter)).statusCode).toBe(200);
  });

  it('lets only the Super-Admin purge, and purging frees the storage of every version', async () => {
    const folder = await createFolder(t, admin, { folder_id: 4, title: 'Zum Entsorgen' });
    const file = await uploadFile(t, admin, { title: 'Alt', folderId: folder.id, roles: ['Vertreter'] });
    await call('PUT', `/api/v1/files/${file.id}`, admin, { file: dataUrl('neu', 'text/plain') });
    const keys = [
      ...(await t.db.kysely.selectFrom('files').select('storage_key').where('id', '=', file.id).execute()),
      ...(await t.db.kysely
        .selectFrom('file_versions')
        .select('storage_key')
        .where('file_id', '=', file.id)
        .execute()),
    ].map((row) => row.storage_key);
    expect(keys).toHaveLength(2);
    expect((await del(`/api/v1/folders/${folder.id}`)).statusCode).toBe(204);
    expect((await trashList('?type=folder')).data[0]).toMatchObject({
      files: 1,
      size_bytes: expect.any(Number),
    });
    expect((await call('DELETE', `/api/v1/trash/folder/${folder.id}`, admin)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/trash/folder/${folder.id}`, users.vertreter)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/trash', admin)).statusCode).toBe(403);
    for (const key of keys) expect(await t.app.context.storage.size(key)).not.toBeNull();
    expect((await trashList('', users.superAdmin)).meta.may_purge).toBe(true);
    expect((await call('DELETE', `/api/v1/trash/folder/${folder.id}`, users.superAdmin)).statusCode).toBe(
      204,
    );
    for (const key of keys) expect(await t.app.context.storage.size(key)).toBeNull();
    expect((await restore('folder', folder.id)).statusCode).toBe(409);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'object_label'])
      .where('object_type', '=', 'folder')
      .where('object_id', '=', folder.id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'folder.created', object_label: '/Allgemein/Zum Entsorgen' },
      { action: 'folder.deleted', object_label: '/Allgemein/Zum Entsorgen' },
      { action: 'trash.purged', object_label: 'Zum Entsorgen' },
    ]);
  });

  it('filters by type, person and time, and pages', async () => {
    const folder = await createFolder(t, admin, { folder_id: 4, title: 'Filterprobe' });
    for (const title of ['Eins', 'Zwei', 'Drei']) {
      const file = await uploadFile(t, users.superAdmin, {
        title,
        folderId: folder.id,
        roles: ['Vertreter'],
      });
      await advanceDays(1);
      await call('DELETE', `/api/v1/files/${file.id}`, users.superAdmin);
    }
    const bySuper = await trashList(`?deleted_by=${users.superAdmin.id}&per_page=2`);
    expect(bySuper.data.map((i: { title: string }) => i.title)).toEqual(['Drei.pdf', 'Zwei.pdf']);
    expect(bySuper.meta).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(bySuper.meta.deleters.map((d: { id: number }) => d.id)).toContain(users.superAdmin.id);
    const today = t.clock.now().toISOString().slice(0, 10);
    const recent = await trashList(`?deleted_by=${users.superAdmin.id}&from=${today}`);
    expect(recent.data.map((i: { title: string }) => i.title)).toEqual(['Drei.pdf']);
    const bad = await call('GET', '/api/v1/trash?type=user&page=0');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['page', 'type']);
  });

  it('empties the Papierkorb and expires entries after TRASH_DAYS exactly once', async () => {
    const folder = await createFolder(t, admin, { folder_id: 4, title: 'Ablauf' });
    const old = await uploadFile(t, admin, { title: 'Uralt', folderId: folder.id, roles: ['Vertreter'] });
    await del(`/api/v1/files/${old.id}`);
    await advanceDays(31);
    const fresh = await uploadFile(t, admin, { title: 'Frisch', folderId: folder.id, roles: ['Vertreter'] });
    await del(`/api/v1/files/${fresh.id}`);
    const before = (await trashList()).meta.all;
    // Two instances run the daily maintenance at the same moment.
    await Promise.all([trashTasks[0]!.run(t.app.context), trashTasks[0]!.run(t.app.context)]);
    const after = await trashList();
    expect(after.data.map((i: { title: string }) => i.title)).toContain('Frisch.pdf');
    expect(after.data.map((i: { title: string }) => i.title)).not.toContain('Uralt.pdf');
    expect(after.meta.all).toBeLessThan(before);
    const expired = await t.db.kysely
      .selectFrom('audit_log')
      .select('actor_id')
      .where('action', '=', 'trash.expired')
      .where('object_id', '=', old.id)
      .execute();
    expect(expired).toEqual([{ actor_id: null }]);

    const emptied = await call('DELETE', '/api/v1/trash', users.superAdmin);
    expect(emptied.statusCode).toBe(200);
    expect(emptied.json().data.removed).toBe(after.meta.all);
    expect((await trashList()).meta.all).toBe(0);
    const rest = await t.db.kysely.selectFrom('trash_objects').select('storage_key').execute();
    expect(rest).toEqual([]);
  });

  it('ends concurrent restores and purges in one consistent state with a 409 for the loser', async () => {
    for (let round = 0; round < 10; round += 1) {
      const folder = await createFolder(t, admin, { folder_id: 4, title: `Wettlauf ${round}` });
      await createFolder(t, admin, { folder_id: folder.id, title: 'Innen' });
      await uploadFile(t, admin, { title: 'Papier', folderId: folder.id, roles: ['Vertreter'] });
      await del(`/api/v1/folders/${folder.id}`);
      const racers =
        round % 2 === 0
          ? [restore('folder', folder.id), restore('folder', folder.id, {}, users.superAdmin)]
          : [
              restore('folder', folder.id),
              call('DELETE', `/api/v1/trash/folder/${folder.id}`, users.superAdmin),
            ];
      const statuses = (await Promise.all(racers)).map((res) => res.statusCode).sort();
      expect(statuses[1]).toBe(409);
      expect([200, 204]).toContain(statuses[0]);
      const live = await t.db.kysely
        .selectFrom('folders')
        .select('id')
        .where('parent_id', '=', folder.id)
        .execute();
      const inTrash = await t.db.kysely
        .selectFrom('trash_items')
        .select('id')
        .where('kind', '=', 'folder')
        .where('object_id', '=', folder.id)
        .execute();
      expect(inTrash).toEqual([]);
      const restored = (await call('GET', `/api/v1/folders/${folder.id}`)).statusCode === 200;
      expect(live.length).toBe(restored ? 1 : 0);
    }
  });
});
