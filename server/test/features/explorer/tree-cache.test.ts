import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  explorerListResponseSchema,
  treeResponseSchema,
  type TreeNode,
} from '@gremienportal/contracts/files';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, roleIds, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';
import { acceptsGzip } from '../../../src/http/spliced-json.ts';

const titles = (node: TreeNode): string[] => [
  node.breadcrumb,
  ...node.files.map((file) => `${node.breadcrumb}:${file.title}`),
  ...node.children.flatMap(titles),
];

/**
 * The tree is served from a cache per kind of viewer; the database's tree version must make any
 * change visible at once, including changes another instance made.
 */
describe('cached tree', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;

  async function treeOf(user: TestUser): Promise<string[]> {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/tree', headers: user.headers });
    expect(res.statusCode).toBe(200);
    return titles(treeResponseSchema.parse(res.json()).data);
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    const folder = await createFolder(t, users.admin, { folder_id: 4, title: 'Gemeinsam' });
    await uploadFile(t, users.admin, {
      title: 'Für alle',
      folderId: folder.id,
      roles: ['Vertreter', 'Aufsichtsrat'],
    });
    await uploadFile(t, users.admin, {
      title: 'Nur Aufsichtsrat',
      folderId: folder.id,
      roles: ['Aufsichtsrat'],
    });
  });
  afterAll(() => t.close());

  it('keeps each kind of viewer to what it may see', async () => {
    for (let round = 0; round < 2; round += 1) {
      expect(await treeOf(users.vertreter)).toContain('/Allgemein/Gemeinsam:Für alle');
      expect(await treeOf(users.vertreter)).not.toContain('/Allgemein/Gemeinsam:Nur Aufsichtsrat');
      expect(await treeOf(users.vertreter)).not.toContain('/Aufsichtsrat');
      expect(await treeOf(users.aufsichtsrat)).toContain('/Allgemein/Gemeinsam:Nur Aufsichtsrat');
      expect(await treeOf(users.aufsichtsrat)).not.toContain('/Mitgliedervertreter');
      expect(await treeOf(users.admin)).toEqual(await treeOf(users.superAdmin));
    }
  });

  it('shows changes made straight in the database, as another instance would make them', async () => {
    await treeOf(users.vertreter);
    const k = t.db.kysely;
    await k
      .updateTable('folders')
      .set({ title: 'Umbenannt', breadcrumb: '/Allgemein/Umbenannt' })
      .where('title', '=', 'Gemeinsam')
      .execute();
    expect(await treeOf(users.vertreter)).toContain('/Allgemein/Umbenannt:Für alle');

    await k.deleteFrom('files').where('title', '=', 'Für alle').execute();
    expect(await treeOf(users.vertreter)).not.toContain('/Allgemein/Umbenannt:Für alle');

    const [vertreter] = await roleIds(t, ['Vertreter']);
    const folder = await k
      .selectFrom('folders')
      .select('id')
      .where('title', '=', 'Umbenannt')
      .executeTakeFirstOrThrow();
    await k
      .deleteFrom('folder_roles')
      .where('folder_id', '=', folder.id)
      .where('role_id', '=', vertreter!)
      .execute();
    expect(await treeOf(users.vertreter)).not.toContain('/Allgemein/Umbenannt');
  });

  it('hides a document from listings and downloads as soon as its role is removed elsewhere', async () => {
    const folder = await createFolder(t, users.admin, { folder_id: 4, title: 'Entzug' });
    const file = await uploadFile(t, users.admin, {
      title: 'Bald verborgen',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const list = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/folders/${folder.id}/files`,
        headers: users.vertreter.headers,
      });
    const download = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/download/${file.external}`,
        headers: users.vertreter.headers,
      });
    expect((await list()).json().data.map((item: { title: string }) => item.title)).toEqual([
      'Bald verborgen',
    ]);
    expect((await download()).statusCode).toBe(200);

    await t.db.kysely.deleteFrom('file_roles').where('file_id', '=', file.id).execute();
    expect((await list()).json().data).toEqual([]);
    expect((await download()).statusCode).toBe(404);
  });

  it('sends the same tree gzip-compressed to clients that take it', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/v1/tree', headers: users.admin.headers });
    const packed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/tree',
      headers: { ...users.admin.headers, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toContain('accept-encoding');
    expect(packed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(packed.headers['cache-control']).toBe('no-store');
    expect(gunzipSync(packed.rawPayload).toString('utf8')).toBe(plain.body);
    expect(treeResponseSchema.safeParse(plain.json()).success).toBe(true);
    // Listings are served the same way.
    const listing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/folders/4/files',
      headers: users.admin.headers,
    });
    expect(explorerListResponseSchema.safeParse(listing.json()).success).toBe(true);
    expect(listing.json().data.length).toBeGreaterThan(0);
  });

  it('leaves the documents out with ?files=false and keeps the folders', async () => {
    const folderIds = (node: TreeNode): number[] => [node.id, ...node.children.flatMap(folderIds)];
    const fileCount = (node: TreeNode): number =>
      node.files.length + node.children.reduce((n, c) => n + fileCount(c), 0);
    for (const user of [users.admin, users.aufsichtsrat]) {
      const full = await t.app.inject({ method: 'GET', url: '/api/v1/tree', headers: user.headers });
      const light = await t.app.inject({
        method: 'GET',
        url: '/api/v1/tree?files=false',
        headers: user.headers,
      });
      const fullTree = treeResponseSchema.parse(full.json()).data;
      const lightTree = treeResponseSchema.parse(light.json()).data;
      expect(fileCount(fullTree)).toBeGreaterThan(0);
      expect(fileCount(lightTree)).toBe(0);
      expect(folderIds(lightTree)).toEqual(folderIds(fullTree));
    }
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/v1/tree?files=nein',
      headers: users.admin.headers,
    });
    expect(wrong.statusCode).toBe(422);
  });

  it('reads Accept-Encoding as HTTP means it', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true);
    expect(acceptsGzip('GZIP')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.000')).toBe(false);
    expect(acceptsGzip('deflate, br')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
  });
});
