import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import type { ExplorerItem, StoredFile, TreeNode } from '@gremienportal/contracts/files';
import { newsResponseSchema } from '@gremienportal/contracts/news';
import { treeResponseSchema, explorerListResponseSchema } from '@gremienportal/contracts/files';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { createFolder, multipart, pdfBytes, uploadFile } from '../../support/files.fixtures.ts';

describe('Neu für Sie: read state', () => {
  let t: TestApp;
  let admin: TestUser;
  let vertreter: TestUser;
  let other: TestUser;
  let aufsichtsrat: TestUser;
  let folder: { id: number };
  let sub: { id: number };
  let secret: { id: number };

  const get = async (user: TestUser, url: string, gzip = false) => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...user.headers, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return gzip ? JSON.parse(gunzipSync(res.rawPayload).toString()) : res.json();
  };
  const news = async (user: TestUser) => newsResponseSchema.parse(await get(user, '/api/v1/news')).data;
  const listing = async (user: TestUser, id: number, gzip = false) =>
    explorerListResponseSchema.parse(await get(user, `/api/v1/folders/${id}/files`, gzip)).data;
  const tree = async (user: TestUser, gzip = false) =>
    treeResponseSchema.parse(await get(user, '/api/v1/tree', gzip)).data;
  const node = (root: TreeNode, id: number): TreeNode | undefined =>
    root.id === id ? root : root.children.map((child) => node(child, id)).find(Boolean);
  const fileIn = (items: ExplorerItem[], id: number) =>
    items.find((item) => item.type === 'file' && item.id === id) as StoredFile | undefined;
  const open = async (user: TestUser, external: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${external}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
  };
  const markRead = (user: TestUser, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/news/read',
      headers: user.headers,
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    vertreter = await createUser(t, { roles: ['Vertreter'] });
    other = await createUser(t, { roles: ['Vertreter'] });
    aufsichtsrat = await createUser(t, { roles: ['Aufsichtsrat'] });
    folder = await createFolder(t, admin, {
      title: 'Vertreterunterlagen',
      roles: ['Vertreter', 'Aufsichtsrat'],
    });
    sub = await createFolder(t, admin, { title: 'Sitzung Dezember', folder_id: folder.id });
    secret = await createFolder(t, admin, { title: 'Nur Aufsichtsrat', roles: ['Aufsichtsrat'] });
    t.clock.advance(1000);
  });
  afterAll(() => t.close());

  it('marks an upload new for members who can see it and never for the others', async () => {
    const doc = await uploadFile(t, admin, { title: 'Einladung', folderId: sub.id, roles: ['Vertreter'] });
    const hidden = await uploadFile(t, admin, {
      title: 'Vertraulich',
      folderId: secret.id,
      roles: ['Aufsichtsrat'],
    });
    t.clock.advance(1000);

    const mine = await news(vertreter);
    expect(mine.files.map((file) => file.id)).toEqual([doc.id]);
    expect(mine.files_total).toBe(1);
    expect(mine.files[0]!.new).toBe(true);
    expect(JSON.stringify(mine)).not.toContain('Vertraulich');

    const theirs = await news(aufsichtsrat);
    expect(theirs.files.map((file) => file.id)).toEqual([hidden.id]);

    for (const gzip of [false, true]) {
      const root = await tree(vertreter, gzip);
      expect(node(root, folder.id)!.new_count).toBe(1);
      expect(node(root, sub.id)!.new_count).toBe(1);
      expect(root.new_count).toBe(1);
      expect(node(root, secret.id)).toBeUndefined();
      const items = await listing(vertreter, sub.id, gzip);
      expect(fileIn(items, doc.id)!.new).toBe(true);
      const above = await listing(vertreter, folder.id, gzip);
      expect(above.find((item) => item.id === sub.id && item.type === 'folder')).toMatchObject({
        new_count: 1,
      });
    }
    // The Aufsichtsrat sees the folder but not the Vertreter document: nothing new in it.
    const theirTree = await tree(aufsichtsrat, true);
    expect(node(theirTree, folder.id)!.new_count).toBe(0);
    expect(node(theirTree, secret.id)!.new_count).toBe(1);
    const file = (await get(vertreter, `/api/v1/files/${doc.id}`)).data as StoredFile;
    expect(file.new).toBe(true);
    expect(
      (await get(other, '/api/v1/folders')).data.find((f: { id: number }) => f.id === folder.id).new_count,
    ).toBe(1);
  });

  it('clears "neu" when the member opens the document, and sets it again when the content is replaced', async () => {
    const doc = await uploadFile(t, admin, { title: 'Bericht', folderId: sub.id, roles: ['Vertreter'] });
    t.clock.advance(1000);
    expect(fileIn(await listing(vertreter, sub.id, true), doc.id)!.new).toBe(true);
    await open(vertreter, doc.external);
    expect(fileIn(await listing(vertreter, sub.id, true), doc.id)!.new).toBe(false);
    expect(fileIn(await listing(other, sub.id, true), doc.id)!.new).toBe(true);

    t.clock.advance(1000);
    const body = multipart([], {
      filename: 'Bericht.pdf',
      type: 'application/pdf',
      content: pdfBytes('neu'),
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${doc.id}`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(1000);
    expect(fileIn(await listing(vertreter, sub.id, true), doc.id)!.new).toBe(true);
    expect((await get(vertreter, `/api/v1/files/${doc.id}`)).data.new).toBe(true);
  });

  it('counts per folder exactly the visible new documents below it', async () => {
    const root = await tree(other);
    const ids = (await news(other)).files_total;
    expect(root.new_count).toBe(ids);
    const sum = (n: TreeNode): number => n.files.length + n.children.reduce((s, c) => s + sum(c), 0);
    // `other` opened nothing: every document it sees was added after its account.
    expect(root.new_count).toBe(sum(root));
  });

  it('marks a folder read with everything below it, then everything', async () => {
    await uploadFile(t, admin, { title: 'Anlage', folderId: folder.id, roles: ['Vertreter'] });
    t.clock.advance(1000);
    const before = await news(other);
    expect(before.files_total).toBeGreaterThan(1);

    const hiddenFolder = await markRead(other, { folder_id: secret.id });
    expect(hiddenFolder.statusCode).toBe(404);
    const bad = await markRead(other, { folder_id: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/[äöüÄÖÜß]|ungültig/i);

    const res = await markRead(other, { folder_id: sub.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().marked).toBe(2);
    const root = await tree(other, true);
    expect(node(root, sub.id)!.new_count).toBe(0);
    expect(node(root, folder.id)!.new_count).toBe(1);

    const all = await markRead(other);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().marked).toBe(1);
    expect((await tree(other, true)).new_count).toBe(0);
    expect((await news(other)).files).toEqual([]);
    // Others are untouched.
    expect((await news(vertreter)).files_total).toBeGreaterThan(0);
  });

  it('lists the next three visible events with the own answer', async () => {
    const create = async (title: string, day: number, roles: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: admin.headers,
        payload: {
          title,
          roles,
          start: `2026-12-${String(day).padStart(2, '0')}T18:00`,
          end: `2026-12-${String(day).padStart(2, '0')}T20:00`,
          location: 'Saal 1',
          description: 'Ordentliche Sitzung.',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().event.id as number;
    };
    const ids = [];
    for (const day of [10, 3, 20, 15]) ids.push(await create(`Sitzung ${day}`, day, ['Vertreter']));
    await create('Aufsichtsratssitzung', 1, ['Aufsichtsrat']);
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${ids[1]}/attendance`,
      headers: vertreter.headers,
      payload: { status: 'zugesagt' },
    });
    const { events } = await news(vertreter);
    expect(events.map((event) => event.title)).toEqual(['Sitzung 3', 'Sitzung 10', 'Sitzung 15']);
    expect(events[0]!.my_attendance?.status).toBe('zugesagt');
  });
});
