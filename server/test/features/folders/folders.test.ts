// Over 300 lines: the folder routes (create, rename, move, delete, Amtsperiode, access) share one test app
// and build on its protected folders 1–4; split, each file would set up the app and users again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, roleIds, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';

describe('folders', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    admin = users.admin;
  });
  afterAll(() => t.close());

  const get = (url: string, user: TestUser = admin) =>
    t.app.inject({ method: 'GET', url, headers: user.headers });

  it('creates a folder in the given folder with the parent roles and answers 201 { folder }', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: admin.headers,
      payload: { folder_id: 2, title: 'Sitzungen' },
    });
    expect(res.statusCode).toBe(201);
    const { folder } = res.json();
    expect(folder).toMatchObject({
      type: 'folder',
      title: 'Sitzungen',
      format: 'folder',
      breadcrumb: '/Aufsichtsrat/Sitzungen',
      parent: { id: 2, breadcrumb: '/Aufsichtsrat' },
      parent_id: 2,
      roles: ['Aufsichtsrat'],
      roles_string: 'Aufsichtsrat',
      children: 0,
      files: 0,
    });
    expect(folder.date).toBe(t.clock.now().toISOString());
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'folder.created')
      .where('object_id', '=', folder.id)
      .executeTakeFirst();
    expect(audit?.actor_id).toBe(admin.id);
    expect(audit?.object_label).toBe('/Aufsichtsrat/Sitzungen');
  });

  it('creates in the root without folder_id, accepts parent_id and explicit roles by id or name', async () => {
    const top = await createFolder(t, admin, { title: 'Oberste Ebene' });
    expect(top).toMatchObject({
      breadcrumb: '/Oberste Ebene',
      parent: { id: 1, breadcrumb: '/' },
      roles: [],
    });
    const [vertreter] = await roleIds(t, ['Vertreter']);
    const sub = await createFolder(t, admin, {
      parent_id: top.id,
      title: 'Unten',
      roles: [vertreter, 'Aufsichtsrat'],
    });
    expect(sub).toMatchObject({ breadcrumb: '/Oberste Ebene/Unten', roles: ['Aufsichtsrat', 'Vertreter'] });
  });

  it('validates titles: required, at least 3 characters, no slash, unknown roles, unknown parent', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/folders', headers: admin.headers, payload });
    let res = await post({ folder_id: 4 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.title).toEqual(['Name ist erforderlich.']);
    res = await post({ folder_id: 4, title: 'ab' });
    expect(res.json().errors.title).toEqual(['Name muss mindestens 3 Zeichen lang sein.']);
    res = await post({ folder_id: 4, title: 'a/b/c' });
    expect(res.json().errors.title).toEqual(['Der Name darf keinen Schrägstrich (/) enthalten.']);
    res = await post({ folder_id: 4, title: 'Rollenprobe', roles: ['Gibt es nicht'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.roles).toEqual(['Die Rolle „Gibt es nicht“ gibt es nicht.']);
    res = await post({ folder_id: 99999, title: 'Irgendwo' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.folder_id).toEqual(['Der Zielordner wurde nicht gefunden.']);
  });

  it('refuses duplicate sibling titles regardless of case, also on rename and move', async () => {
    await createFolder(t, admin, { folder_id: 4, title: 'Protokolle' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: admin.headers,
      payload: { folder_id: 4, title: 'PROTOKOLLE' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Ein Ordner mit diesem Namen existiert hier bereits.',
      errors: { title: ['Ein Ordner mit diesem Namen existiert hier bereits.'] },
    });
    // The same title elsewhere is fine.
    await createFolder(t, admin, { folder_id: 3, title: 'Protokolle' });

    const other = await createFolder(t, admin, { folder_id: 4, title: 'Berichte' });
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${other.id}`,
      headers: admin.headers,
      payload: { title: 'protokolle' },
    });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().errors.title).toEqual(['Ein Ordner mit diesem Namen existiert hier bereits.']);

    const elsewhere = await createFolder(t, admin, { folder_id: 2, title: 'Protokolle' });
    const move = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${elsewhere.id}`,
      headers: admin.headers,
      payload: { title: 'Protokolle', parent_id: 4 },
    });
    expect(move.statusCode).toBe(422);

    // Changing only the case of its own title is allowed.
    const recase = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${other.id}`,
      headers: admin.headers,
      payload: { title: 'BERICHTE' },
    });
    expect(recase.statusCode).toBe(200);
    expect(recase.json().folder.breadcrumb).toBe('/Allgemein/BERICHTE');
  });

  it('never renames, moves, re-roles or deletes the protected folders 1–4', async () => {
    for (const id of [1, 2, 3, 4]) {
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/folders/${id}`,
        headers: users.superAdmin.headers,
        payload: { title: 'Umbenannt' },
      });
      expect(put.statusCode).toBe(422);
      expect(put.json().message).toBe(
        'Dieser Ordner ist geschützt und kann nicht umbenannt, verschoben, geändert oder gelöscht werden.',
      );
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/folders/${id}`,
        headers: admin.headers,
      });
      expect(del.statusCode).toBe(422);
    }
    const folders = await t.db.kysely
      .selectFrom('folders')
      .select(['id', 'title'])
      .where('id', '<=', 4)
      .execute();
    expect(folders.map((f) => f.title).sort()).toEqual([
      '/',
      'Allgemein',
      'Aufsichtsrat',
      'Mitgliedervertreter',
    ]);
  });

  it('refuses to move a folder into itself or below itself', async () => {
    const a = await createFolder(t, admin, { folder_id: 4, title: 'Zyklus A' });
    const b = await createFolder(t, admin, { folder_id: a.id, title: 'Zyklus B' });
    const c = await createFolder(t, admin, { folder_id: b.id, title: 'Zyklus C' });
    for (const target of [a.id, b.id, c.id]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/folders/${a.id}`,
        headers: admin.headers,
        payload: { title: 'Zyklus A', parent_id: target },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.parent_id).toEqual([
        'Ein Ordner kann nicht in sich selbst oder einen seiner Unterordner verschoben werden.',
      ]);
    }
    const targets = (await get(`/api/v1/breadcrumbs/${a.id}`)).json().data as { id: number }[];
    expect(targets.map((x) => x.id)).not.toContain(a.id);
    expect(targets.map((x) => x.id)).not.toContain(b.id);
    expect(targets.map((x) => x.id)).not.toContain(c.id);
    expect(targets.map((x) => x.id)).toEqual(expect.arrayContaining([1, 2, 3, 4]));
  });

  it('rewrites the breadcrumbs of everything below on rename and move', async () => {
    const top = await createFolder(t, admin, { folder_id: 4, title: 'Wanderer' });
    const mid = await createFolder(t, admin, { folder_id: top.id, title: 'Mitte' });
    const low = await createFolder(t, admin, { folder_id: mid.id, title: 'Tief' });
    const file = await uploadFile(t, admin, {
      title: 'Tiefes Dokument',
      folderId: low.id,
      roles: ['Vertreter'],
    });

    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${top.id}`,
      headers: admin.headers,
      payload: { title: 'Wanderer Neu' },
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().folder.breadcrumb).toBe('/Allgemein/Wanderer Neu');
    expect((await get(`/api/v1/folders/${low.id}`)).json().data.breadcrumb).toBe(
      '/Allgemein/Wanderer Neu/Mitte/Tief',
    );

    const move = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${top.id}`,
      headers: admin.headers,
      payload: { title: 'Wanderer Neu', parent_id: 3 },
    });
    expect(move.statusCode).toBe(200);
    expect(move.json().folder).toMatchObject({
      breadcrumb: '/Mitgliedervertreter/Wanderer Neu',
      parent: { id: 3, breadcrumb: '/Mitgliedervertreter' },
    });
    expect((await get(`/api/v1/folders/${mid.id}`)).json().data).toMatchObject({
      breadcrumb: '/Mitgliedervertreter/Wanderer Neu/Mitte',
      parent: { id: top.id, breadcrumb: '/Mitgliedervertreter/Wanderer Neu' },
    });
    expect((await get(`/api/v1/folders/${low.id}`)).json().data.breadcrumb).toBe(
      '/Mitgliedervertreter/Wanderer Neu/Mitte/Tief',
    );
    const fileData = (await get(`/api/v1/files/${file.id}`)).json().data;
    expect(fileData.folder).toEqual({
      id: low.id,
      title: 'Tief',
      breadcrumb: '/Mitgliedervertreter/Wanderer Neu/Mitte/Tief',
    });
    const targets = (await get('/api/v1/file-breadcrumbs')).json().data as {
      id: number;
      breadcrumb: string;
    }[];
    expect(targets).toContainEqual({
      id: low.id,
      breadcrumb: '/Mitgliedervertreter/Wanderer Neu/Mitte/Tief',
      archived: false,
    });
    expect(targets.some((x) => x.breadcrumb.startsWith('/Allgemein/Wanderer'))).toBe(false);

    // Roles can change with an update; the audit records the move.
    const reRole = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${mid.id}`,
      headers: admin.headers,
      payload: { title: 'Mitte', roles: ['Vertreter'] },
    });
    expect(reRole.json().folder.roles).toEqual(['Vertreter']);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'folder.updated')
      .where('object_id', '=', top.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toMatchObject({ moved: { from: 4, to: 3 } });

    // Sending the same roles again changes nothing, and the entry says no change of roles.
    const same = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${mid.id}`,
      headers: admin.headers,
      payload: { title: 'Mitte', roles: ['Vertreter'] },
    });
    expect(same.statusCode, same.body).toBe(200);
    const again = await t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'folder.updated')
      .where('object_id', '=', mid.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(again.details!)).not.toHaveProperty('roles');
  });

  it('shows counts of what a folder contains and deletes it with everything below', async () => {
    const top = await createFolder(t, admin, { folder_id: 4, title: 'Zum Löschen' });
    const sub = await createFolder(t, admin, { folder_id: top.id, title: 'Unterordner' });
    await createFolder(t, admin, { folder_id: sub.id, title: 'Noch tiefer' });
    const f1 = await uploadFile(t, admin, { title: 'Eins', folderId: top.id, roles: ['Vertreter'] });
    await uploadFile(t, admin, { title: 'Zwei', folderId: sub.id, roles: ['Aufsichtsrat'] });

    const detail = (await get(`/api/v1/folders/${top.id}`)).json().data;
    expect(detail).toMatchObject({ children: 1, files: 1, contents: { folders: 2, files: 2 } });
    // A Vertreter sees only what they may see in the counts.
    const vDetail = (await get(`/api/v1/folders/${top.id}`, users.vertreter)).json().data;
    expect(vDetail.contents).toEqual({ folders: 2, files: 1 });

    const objectsBefore = await t.db.kysely.selectFrom('files').select('storage_key').execute();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/folders/${top.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await get(`/api/v1/folders/${top.id}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/folders/${sub.id}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/files/${f1.id}`)).statusCode).toBe(404);
    const keysAfter = new Set(
      (await t.db.kysely.selectFrom('files').select('storage_key').execute()).map((r) => r.storage_key),
    );
    const removed = objectsBefore.filter((r) => !keysAfter.has(r.storage_key));
    expect(removed).toHaveLength(2);
    // In the Papierkorb the content stays until a Super-Admin removes it for good (decision 125).
    for (const { storage_key } of removed)
      expect(await t.app.context.storage.size(storage_key)).not.toBeNull();
    const purge = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/trash/folder/${top.id}`,
      headers: users.superAdmin.headers,
    });
    expect(purge.statusCode, purge.body).toBe(204);
    for (const { storage_key } of removed) expect(await t.app.context.storage.size(storage_key)).toBeNull();
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'folder.deleted')
      .where('object_id', '=', top.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toEqual({ folders: 2, files: 2, trash: true });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/folders/${top.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('lets only Admin and Super-Admin write: 403 for Aufsichtsrat and Vertreter, 401 anonymous', async () => {
    const target = await createFolder(t, admin, { folder_id: 4, title: 'Schreibschutz' });
    const writes = [
      { method: 'POST' as const, url: '/api/v1/folders', payload: { folder_id: 4, title: 'Neu von mir' } },
      { method: 'PUT' as const, url: `/api/v1/folders/${target.id}`, payload: { title: 'Anders' } },
      { method: 'DELETE' as const, url: `/api/v1/folders/${target.id}` },
      { method: 'POST' as const, url: '/api/v1/period', payload: { folder_id: 4, start: 2026, end: 2027 } },
    ];
    for (const write of writes) {
      for (const user of [users.aufsichtsrat, users.vertreter]) {
        const res = await t.app.inject({ ...write, headers: user.headers });
        expect(res.statusCode, `${write.method} ${write.url}`).toBe(403);
        expect(res.json()).toEqual({ message: 'Dafür fehlt Ihnen die Berechtigung.' });
      }
      const anonymous = await t.app.inject(write);
      expect(anonymous.statusCode).toBe(401);
    }
    const superAdmin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: users.superAdmin.headers,
      payload: { folder_id: target.id, title: 'Vom Super-Admin' },
    });
    expect(superAdmin.statusCode).toBe(201);
    expect((await get('/api/v1/folders', users.vertreter)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/tree' })).statusCode).toBe(401);
  });

  it('creates an Amtsperiode with one folder per year and reuses what exists', async () => {
    const post = (payload: Record<string, unknown>, user: TestUser = admin) =>
      t.app.inject({ method: 'POST', url: '/api/v1/period', headers: user.headers, payload });
    const res = await post({ folder_id: 2, start: 2026, end: 2029 });
    expect(res.statusCode).toBe(201);
    const { folder } = res.json();
    expect(folder).toMatchObject({
      title: 'Amtsperiode 2026–2029',
      breadcrumb: '/Aufsichtsrat/Amtsperiode 2026–2029',
      roles: ['Aufsichtsrat'],
      children: 4,
    });
    const items = (await get(`/api/v1/folders/${folder.id}/files`)).json().data;
    expect(items.map((i: { title: string }) => i.title)).toEqual(['2026', '2027', '2028', '2029']);
    expect(items.every((i: { roles: string[] }) => i.roles.join() === 'Aufsichtsrat')).toBe(true);

    // Again, with strings as a form sends them, and one year more: only 2030 is new.
    const again = await post({ folder_id: '2', start: '2026', end: '2030' });
    expect(again.statusCode).toBe(201);
    expect(again.json().folder.id).not.toBe(folder.id);
    const same = await post({ folder_id: 2, start: 2026, end: 2029 });
    expect(same.json().folder.id).toBe(folder.id);
    expect(same.json().folder.children).toBe(4);
    const count = await t.db.kysely
      .selectFrom('folders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('breadcrumb', 'like', '/Aufsichtsrat/Amtsperiode 2026–2029%')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(5);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['details', 'object_type'])
      .where('action', '=', 'period.created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.object_type).toBe('period');
    expect(JSON.parse(audit.details!).created).toEqual([]);
  });

  it('validates the Amtsperiode years', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/period', headers: admin.headers, payload });
    let res = await post({ folder_id: 2, start: 2030, end: 2026 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.end).toEqual(['Das Ende darf nicht vor dem Start liegen.']);
    res = await post({ folder_id: 2, start: 2020, end: 2030 });
    expect(res.json().errors.end).toEqual(['Eine Amtsperiode umfasst höchstens 10 Jahre.']);
    res = await post({ folder_id: 2, start: 1949, end: 2101 });
    expect(res.json().errors).toEqual({
      start: ['Start darf nicht vor 1950 liegen.'],
      end: ['Ende darf nicht nach 2100 liegen.'],
    });
    res = await post({ folder_id: 2, start: 'zwanzig' });
    expect(res.json().errors).toEqual({
      start: ['Start muss eine Jahreszahl sein.'],
      end: ['Ende ist erforderlich.'],
    });
    res = await post({ folder_id: 99999, start: 2026, end: 2026 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.folder_id).toEqual(['Der Zielordner wurde nicht gefunden.']);
  });

  it('answers a malformed or unknown id with the same 404', async () => {
    const unknown = await get('/api/v1/folders/987654');
    const malformed = await get('/api/v1/folders/abc');
    expect(unknown.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Nicht gefunden.' });
    expect(malformed.json()).toEqual(unknown.json());
  });
});
