import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { chooseNotifications, createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';

interface Node {
  id: number;
  breadcrumb: string;
  children: Node[];
  files: { id: number }[];
}

function collect(node: Node, folders: number[] = [], files: number[] = []) {
  folders.push(node.id);
  for (const file of node.files) files.push(file.id);
  for (const child of node.children) collect(child, folders, files);
  return { folders, files };
}

/**
 * One tree with folders and files of mixed roles, seen by every role (product.md P5): a Vertreter
 * never meets anything of the Aufsichtsrat, through any call.
 */
describe('visibility of folders and files', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let both: TestUser;
  const f: Record<string, { id: number }> = {};
  const d: Record<string, { id: number; external: string }> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    both = await createUser(t, { roles: ['Aufsichtsrat', 'Vertreter'] });
    // The single mails are tested here ("sofort"); digests in the notifications tests.
    await chooseNotifications(t, [...Object.values(users), both], { files: 'sofort' });
    const admin = users.admin;
    f.arSecret = await createFolder(t, admin, { folder_id: 2, title: 'Vertrauliches' });
    f.vtMeeting = await createFolder(t, admin, { folder_id: 3, title: 'Versammlung' });
    f.shared = await createFolder(t, admin, { folder_id: 4, title: 'Gemeinsam' });
    f.arInShared = await createFolder(t, admin, {
      folder_id: f.shared.id,
      title: 'AR intern',
      roles: ['Aufsichtsrat'],
    });
    // Vertreter role, but below a folder they cannot see: hidden for them all the same.
    f.vtBelowAr = await createFolder(t, admin, {
      folder_id: f.arInShared.id,
      title: 'Für Vertreter',
      roles: ['Vertreter'],
    });
    f.adminOnly = await createFolder(t, admin, { title: 'Nur Verwaltung' });

    d.arSecret = await uploadFile(t, admin, {
      title: 'Prüfbericht',
      folderId: f.arSecret.id,
      roles: ['Aufsichtsrat'],
    });
    d.vtMeeting = await uploadFile(t, admin, {
      title: 'Einladung',
      folderId: f.vtMeeting.id,
      roles: ['Vertreter'],
    });
    d.sharedBoth = await uploadFile(t, admin, {
      title: 'Satzung',
      folderId: f.shared.id,
      roles: ['Aufsichtsrat', 'Vertreter'],
    });
    d.sharedAr = await uploadFile(t, admin, {
      title: 'Vorstandsvorlage',
      folderId: f.shared.id,
      roles: ['Aufsichtsrat'],
    });
    d.arInShared = await uploadFile(t, admin, {
      title: 'Beschluss',
      folderId: f.arInShared.id,
      roles: ['Aufsichtsrat', 'Vertreter'],
      notifications: ['Aufsichtsrat', 'Vertreter'],
    });
    d.vtBelowAr = await uploadFile(t, admin, {
      title: 'Versteckt',
      folderId: f.vtBelowAr.id,
      roles: ['Vertreter'],
      notifications: ['Vertreter'],
    });
    d.adminOnly = await uploadFile(t, admin, { title: 'Intern', folderId: f.adminOnly.id, roles: ['Admin'] });
  });
  afterAll(() => t.close());

  const get = (url: string, user: TestUser) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const ids = (list: { id: number }[]) => list.map((x) => x.id);

  const expectations = () => ({
    vertreter: {
      folders: [1, 3, 4, f.vtMeeting!.id, f.shared!.id],
      files: [d.vtMeeting!.id, d.sharedBoth!.id],
    },
    aufsichtsrat: {
      folders: [1, 2, 4, f.arSecret!.id, f.shared!.id, f.arInShared!.id],
      files: [d.arSecret!.id, d.sharedBoth!.id, d.sharedAr!.id, d.arInShared!.id],
    },
    both: {
      folders: [1, 2, 3, 4, f.arSecret!.id, f.vtMeeting!.id, f.shared!.id, f.arInShared!.id, f.vtBelowAr!.id],
      files: [
        d.arSecret!.id,
        d.vtMeeting!.id,
        d.sharedBoth!.id,
        d.sharedAr!.id,
        d.arInShared!.id,
        d.vtBelowAr!.id,
      ],
    },
    admin: {
      folders: [1, 2, 3, 4, ...Object.values(f).map((x) => x.id)],
      files: Object.values(d).map((x) => x.id),
    },
  });
  const viewers = () => ({
    vertreter: users.vertreter,
    aufsichtsrat: users.aufsichtsrat,
    both,
    admin: users.admin,
  });
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

  it('builds each role its own tree, folder list, file list and upload targets', async () => {
    for (const [name, user] of Object.entries(viewers())) {
      const expected = expectations()[name as keyof ReturnType<typeof expectations>];
      const tree = await get('/api/v1/tree', user);
      expect(tree.statusCode).toBe(200);
      const seen = collect(tree.json().data);
      expect(sorted(seen.folders), `${name}: tree folders`).toEqual(sorted(expected.folders));
      expect(sorted(seen.files), `${name}: tree files`).toEqual(sorted(expected.files));

      const folders = (await get('/api/v1/folders', user)).json().data;
      expect(sorted(ids(folders)), `${name}: /folders`).toEqual(sorted(expected.folders));
      const files = (await get('/api/v1/files', user)).json().data;
      expect(sorted(ids(files)), `${name}: /files`).toEqual(sorted(expected.files));
      const targets = (await get('/api/v1/file-breadcrumbs', user)).json().data;
      expect(sorted(ids(targets)), `${name}: /file-breadcrumbs`).toEqual(
        sorted(expected.folders.filter((id) => id !== 1)),
      );
      const moveTargets = (await get(`/api/v1/breadcrumbs/${f.shared!.id}`, user)).json().data;
      expect(sorted(ids(moveTargets)), `${name}: /breadcrumbs`).toEqual(
        sorted(
          expected.folders.filter((id) => ![f.shared!.id, f.arInShared!.id, f.vtBelowAr!.id].includes(id)),
        ),
      );
    }
  });

  it('gives a Vertreter nothing of the Aufsichtsrat in any listing or count', async () => {
    const v = users.vertreter;
    const root = (await get('/api/v1/root/files', v)).json().data;
    expect(root.map((item: { id: number; type: string }) => `${item.type}:${item.id}`)).toEqual([
      'folder:4',
      'folder:3',
    ]);
    const shared = (await get(`/api/v1/folders/${f.shared!.id}/files`, v)).json().data;
    expect(shared.map((item: { id: number; type: string }) => `${item.type}:${item.id}`)).toEqual([
      `file:${d.sharedBoth!.id}`,
    ]);
    const sharedFolder = (await get(`/api/v1/folders/${f.shared!.id}`, v)).json().data;
    expect(sharedFolder).toMatchObject({ children: 0, files: 1, contents: { folders: 0, files: 1 } });
    const allgemein = (await get('/api/v1/folders/4', v)).json().data;
    expect(allgemein).toMatchObject({ children: 1, files: 0, contents: { folders: 1, files: 1 } });
    // The admin sees the real numbers.
    const adminView = (await get(`/api/v1/folders/${f.shared!.id}`, users.admin)).json().data;
    expect(adminView).toMatchObject({ children: 1, files: 2, contents: { folders: 2, files: 4 } });

    const body = JSON.stringify([root, shared, (await get('/api/v1/tree', v)).json()]);
    for (const hidden of [
      '/Aufsichtsrat',
      'Vertrauliches',
      'Prüfbericht',
      'Vorstandsvorlage',
      'AR intern',
      'Beschluss',
    ]) {
      expect(body).not.toContain(hidden);
    }
  });

  it('answers hidden folders, files and downloads exactly like nonexistent ones', async () => {
    const v = users.vertreter;
    const missingFolder = await get('/api/v1/folders/999999', v);
    expect(missingFolder.statusCode).toBe(404);
    for (const url of [
      '/api/v1/folders/2',
      `/api/v1/folders/${f.arSecret!.id}`,
      `/api/v1/folders/${f.arSecret!.id}/files`,
      `/api/v1/folders/${f.arInShared!.id}`,
      `/api/v1/folders/${f.vtBelowAr!.id}`,
      `/api/v1/breadcrumbs/${f.arSecret!.id}`,
      `/api/v1/files/${d.arSecret!.id}`,
      `/api/v1/files/${d.sharedAr!.id}`,
      `/api/v1/files/${d.arInShared!.id}`,
      `/api/v1/files/${d.vtBelowAr!.id}`,
      `/api/v1/download/${d.arSecret!.external}`,
      `/api/v1/download/${d.arInShared!.external}`,
      `/api/v1/download/${d.vtBelowAr!.external}`,
      '/api/v1/download/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/v1/files/999999',
    ]) {
      const res = await get(url, v);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toBe(missingFolder.body);
    }
    // The same keys open for those who may see them.
    expect((await get(`/api/v1/download/${d.arSecret!.external}`, users.aufsichtsrat)).statusCode).toBe(200);
    expect((await get(`/api/v1/download/${d.vtBelowAr!.external}`, both)).statusCode).toBe(200);
    expect((await get(`/api/v1/files/${d.adminOnly!.id}`, users.aufsichtsrat)).statusCode).toBe(404);
    expect((await get(`/api/v1/files/${d.adminOnly!.id}`, users.superAdmin)).statusCode).toBe(200);
    // A key alone opens nothing.
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/download/${d.vtMeeting!.external}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('mails only users who may see the file', async () => {
    const sent = await t.flushMail();
    const to = (fileTitle: string) =>
      sent
        .filter((m) => m.subject.includes(fileTitle))
        .map((m) => m.to)
        .sort();
    // Beschluss: notified Aufsichtsrat and Vertreter, but it lies in an Aufsichtsrat-only folder.
    expect(to('Beschluss')).toEqual([users.aufsichtsrat.email, both.email].sort());
    // Versteckt: notified Vertreter, but below the Aufsichtsrat-only folder: only "both" may see it.
    expect(to('Versteckt')).toEqual([both.email]);
    expect(sent.some((m) => m.to === users.vertreter.email)).toBe(false);
    const mail = sent.find((m) => m.subject.includes('Beschluss') && m.to === users.aufsichtsrat.email)!;
    expect(mail.subject).toBe('Neues Dokument im Gremienportal: Beschluss');
    expect(mail.text).toContain(`http://portal.test/files/show/${d.arInShared!.id}`);
    expect(mail.text).toContain('Ordner: /Allgemein/Gemeinsam/AR intern');
  });

  it('follows role changes from the next request on', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${f.arInShared!.id}`,
      headers: users.admin.headers,
      payload: { title: 'AR intern', roles: ['Aufsichtsrat', 'Vertreter'] },
    });
    expect(res.statusCode).toBe(200);
    const files = (await get('/api/v1/files', users.vertreter)).json().data;
    expect(sorted(ids(files))).toEqual(
      sorted([d.vtMeeting!.id, d.sharedBoth!.id, d.arInShared!.id, d.vtBelowAr!.id]),
    );
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/folders/${f.arInShared!.id}`,
      headers: users.admin.headers,
      payload: { title: 'AR intern', roles: ['Aufsichtsrat'] },
    });
    expect((await get(`/api/v1/files/${d.arInShared!.id}`, users.vertreter)).statusCode).toBe(404);
  });
});
