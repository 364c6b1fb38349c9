import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCounter } from '../../../src/db/query-counter.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, roleIds, type TestUser } from '../../support/factories.ts';
import { newKey } from '../../../src/storage/object-keys.ts';
import { createFolder } from '../../support/files.fixtures.ts';

/**
 * Listing a folder and building the tree take a fixed number of queries, whatever the number of
 * items: folders and roles are loaded in bulk and assembled in memory.
 */
describe('query count', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  const folders: Record<number, number> = {};

  async function fill(parentId: number, n: number) {
    const [vertreter, aufsichtsrat] = (await roleIds(t, ['Vertreter', 'Aufsichtsrat'])) as [number, number];
    const now = t.clock.now().toISOString();
    const parent = await t.db.kysely
      .selectFrom('folders')
      .select('breadcrumb')
      .where('id', '=', parentId)
      .executeTakeFirstOrThrow();
    for (let i = 0; i < n; i += 1) {
      const title = `Unterordner ${i}`;
      const folder = await t.db.kysely
        .insertInto('folders')
        .values({
          parent_id: parentId,
          title,
          breadcrumb: `${parent.breadcrumb}/${title}`,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .insertInto('folder_roles')
        .values([
          { folder_id: folder.id, role_id: vertreter },
          ...(i % 2 === 0 ? [{ folder_id: folder.id, role_id: aufsichtsrat }] : []),
        ])
        .execute();
      const file = await t.db.kysely
        .insertInto('files')
        .values({
          folder_id: i % 3 === 0 ? folder.id : parentId,
          title: `Datei ${i}`,
          format: 'pdf',
          mime_type: 'application/pdf',
          size_bytes: 1000 + i,
          sha256: '0'.repeat(64),
          storage_key: newKey(),
          download_key: newKey(),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .insertInto('file_roles')
        .values({ file_id: file.id, role_id: i % 2 === 0 ? aufsichtsrat : vertreter })
        .execute();
    }
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    folders[10] = (await createFolder(t, users.admin, { folder_id: 4, title: 'Zehn' })).id;
    folders[200] = (await createFolder(t, users.admin, { folder_id: 4, title: 'Zweihundert' })).id;
    await fill(folders[10]!, 10);
    await fill(folders[200]!, 200);
  });
  afterAll(() => t.close());

  /**
   * Queries of one request. Reads are cached per tree version: `cold` measures the first request
   * after a change (everything loaded), `warm` a repeated one.
   */
  async function queriesFor(
    url: string,
    user: TestUser,
    state: 'cold' | 'warm' = 'cold',
  ): Promise<{ count: number; items: number }> {
    if (state === 'cold') {
      // Any write to a tree table raises the version, even one that changes nothing.
      await t.db.kysely
        .updateTable('folders')
        .set({ title: sql`title` })
        .where('id', '=', 1)
        .execute();
    } else {
      await t.app.inject({ method: 'GET', url, headers: user.headers });
    }
    const counter = new QueryCounter();
    const original = t.db.kysely;
    // Every measured request resolves its token from the database, as after any write (the
    // principal cache, decision 137, would otherwise make the count depend on what ran before).
    t.db.principals.invalidate();
    t.db.kysely = original.withPlugin(counter);
    try {
      const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
      expect(res.statusCode, url).toBe(200);
      const data = res.json().data;
      return { count: counter.count, items: JSON.stringify(data).length };
    } finally {
      t.db.kysely = original;
    }
  }

  it('lists a folder of 10 and of 200 items with the same number of queries', async () => {
    for (const user of [users.admin, users.vertreter]) {
      for (const state of ['cold', 'warm'] as const) {
        const small = await queriesFor(`/api/v1/folders/${folders[10]}/files`, user, state);
        const large = await queriesFor(`/api/v1/folders/${folders[200]}/files`, user, state);
        expect(large.items).toBeGreaterThan(small.items * 10);
        expect(large.count, state).toBe(small.count);
        // Warm: session, roles, tree version, the folder's files and their roles; cold adds the folders
        // and the counts, and the member's read state (new content since their watermark, their
        // reads; decision 131), which a warm request takes from the per-member cache.
        expect(large.count).toBeLessThanOrEqual(state === 'cold' ? 9 : 5);
      }
    }
  });

  it('builds the tree and the other lists with a fixed number of queries', async () => {
    for (const user of [users.admin, users.vertreter]) {
      for (const url of [
        '/api/v1/tree',
        '/api/v1/folders',
        '/api/v1/files',
        '/api/v1/file-breadcrumbs',
        '/api/v1/root/files',
      ]) {
        const { count } = await queriesFor(url, user);
        // Six, and the member's read state after a change (decision 131).
        expect(count, url).toBeLessThanOrEqual(8);
      }
      const small = await queriesFor(`/api/v1/breadcrumbs/${folders[10]}`, user);
      const large = await queriesFor(`/api/v1/breadcrumbs/${folders[200]}`, user);
      expect(large.count).toBe(small.count);
      const smallDetail = await queriesFor(`/api/v1/folders/${folders[10]}`, user);
      const largeDetail = await queriesFor(`/api/v1/folders/${folders[200]}`, user);
      expect(largeDetail.count).toBe(smallDetail.count);
    }
  });

  it('keeps the tree at the same number of queries when it grows', async () => {
    // Each measurement follows a change, so the tree is built, not taken from the cache.
    const extra = (await createFolder(t, users.admin, { folder_id: 3, title: 'Wachstum' })).id;
    const before = await queriesFor('/api/v1/tree', users.vertreter);
    await fill(extra, 150);
    const after = await queriesFor('/api/v1/tree', users.vertreter);
    expect(after.items).toBeGreaterThan(before.items);
    expect(after.count).toBe(before.count);
    const adminTree = await queriesFor('/api/v1/tree', users.admin);
    expect(adminTree.count).toBe(after.count);
  });

  it('answers an unchanged tree without loading folders and files again', async () => {
    const built = await queriesFor('/api/v1/tree', users.aufsichtsrat);
    const cached = await queriesFor('/api/v1/tree', users.aufsichtsrat, 'warm');
    expect(cached.items).toBe(built.items);
    // Left: the session check of every request and the tree version; folders and files are
    // not read again.
    expect(cached.count).toBe(3);
    expect(built.count).toBeGreaterThanOrEqual(cached.count + 2);
  });
});
