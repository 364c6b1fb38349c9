import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMMITTEE_RULES } from '@gremienportal/contracts/committees';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import type { TreeNode } from '@gremienportal/contracts/files';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, roleIds, type TestUser } from '../../support/factories.ts';
import {
  createFolder,
  dataUrl,
  multipart,
  pdfBytes,
  storedObjects,
  uploadFile,
} from '../../support/files.fixtures.ts';

/*
 * The archive (decision 189): the folder of an ended Amtsperiode and everything below it is
 * read-only, also for Admins and Super-Admins, until a Super-Admin reopens the term. The term's
 * flags are set here through SQL, as the committees feature sets them.
 */
describe('archived folders of ended Amtsperioden', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let termId: number;
  /** `Amtsperiode 2018–2022` in the Aufsichtsrat's folder, with the subfolder `2018`. */
  let term: { id: number; breadcrumb: string };
  let year: { id: number; breadcrumb: string };
  /** A folder that holds an archived one (`Altbestand/Amtsperiode 2014–2018`). */
  let holder: { id: number };
  let heldTerm: { id: number };
  /** An ordinary folder beside it. */
  let open: { id: number };
  let archivedFile: { id: number; external: string; title: string };
  let yearFile: { id: number; external: string; title: string };
  let openFile: { id: number; title: string };
  let trashedFile: { id: number };
  let trashedFolder: { id: number };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, ...(payload ? { payload } : {}) });

  /**
   * Sets the term's flags through SQL, past every service: the triggers of `committee_terms` raise
   * the tree version (migration 0016), so the cached tree and listings must follow.
   */
  async function setTerm(id: number, flags: { archived: 0 | 1; reopened: 0 | 1 }) {
    await t.db.kysely.updateTable('committee_terms').set(flags).where('id', '=', id).execute();
  }

  async function insertTerm(committeeId: number, folderId: number, startsOn: string, endsOn: string) {
    const row = await t.db.kysely
      .insertInto('committee_terms')
      .values({
        committee_id: committeeId,
        starts_on: startsOn,
        ends_on: endsOn,
        folder_id: folderId,
        created_at: t.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The Aufsichtsrat's committee: the first start makes it; made here if it does not. */
  async function committeeId(): Promise<number> {
    const [roleId] = await roleIds(t, ['Aufsichtsrat']);
    const existing = await t.db.kysely
      .selectFrom('committees')
      .select('id')
      .where('role_id', '=', roleId!)
      .executeTakeFirst();
    if (existing) return existing.id;
    const now = t.clock.now().toISOString();
    const row = await t.db.kysely
      .insertInto('committees')
      .values({
        name: 'Aufsichtsrat',
        kind: 'aufsichtsrat',
        role_id: roleId!,
        folder_id: 2,
        rules: JSON.stringify(DEFAULT_COMMITTEE_RULES),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const findNode = (node: TreeNode, id: number): TreeNode | undefined =>
    node.id === id ? node : node.children.map((child) => findNode(child, id)).find(Boolean);

  const expectArchived = (res: { statusCode: number; body: string; json: () => any }) => {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(FOLDER_MESSAGES.archived);
  };

  /** What a refused write must leave untouched: the folders and documents with their roles. */
  async function documentArea() {
    const folders = await t.db.kysely
      .selectFrom('folders')
      .select(['id', 'parent_id', 'title', 'breadcrumb'])
      .orderBy('id')
      .execute();
    const files = await t.db.kysely
      .selectFrom('files')
      .select(['id', 'folder_id', 'title', 'storage_key', 'version'])
      .orderBy('id')
      .execute();
    const trash = await t.db.kysely.selectFrom('trash_items').select(['id']).orderBy('id').execute();
    return { folders, files, trash };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    const admin = users.admin;
    term = await createFolder(t, admin, { folder_id: 2, title: 'Amtsperiode 2018–2022' });
    year = await createFolder(t, admin, { folder_id: term.id, title: '2018' });
    holder = await createFolder(t, admin, { folder_id: 4, title: 'Altbestand' });
    heldTerm = await createFolder(t, admin, { folder_id: holder.id, title: 'Amtsperiode 2014–2018' });
    open = await createFolder(t, admin, { folder_id: 4, title: 'Laufend' });
    archivedFile = await uploadFile(t, admin, {
      title: 'Geschäftsordnung',
      folderId: term.id,
      roles: ['Aufsichtsrat'],
    });
    yearFile = await uploadFile(t, admin, {
      title: 'Protokoll Mai',
      folderId: year.id,
      roles: ['Aufsichtsrat'],
    });
    openFile = await uploadFile(t, admin, { title: 'Einladung', folderId: open.id, roles: ['Aufsichtsrat'] });
    // A second version of the archived document, so that an old one could be restored.
    const replaced = await call('PUT', `/files/${archivedFile.id}`, admin, {
      file: dataUrl(pdfBytes('Fassung 2')),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    // Deleted before the term ended: they wait in the Papierkorb to come back into it.
    trashedFile = await uploadFile(t, admin, {
      title: 'Entwurf',
      folderId: year.id,
      roles: ['Aufsichtsrat'],
    });
    expect((await call('DELETE', `/files/${trashedFile.id}`, admin)).statusCode).toBe(204);
    trashedFolder = await createFolder(t, admin, { folder_id: term.id, title: 'Ausschuss' });
    expect((await call('DELETE', `/folders/${trashedFolder.id}`, admin)).statusCode).toBe(204);

    // The tree is cached before the terms end: the end must reach it.
    expect(findNode((await call('GET', '/tree', admin)).json().data, term.id)?.archived).toBe(false);
    const committee = await committeeId();
    termId = await insertTerm(committee, term.id, '2018-07-01', '2022-06-30');
    await setTerm(termId, { archived: 1, reopened: 0 });
    await setTerm(await insertTerm(committee, heldTerm.id, '2014-07-01', '2018-06-30'), {
      archived: 1,
      reopened: 0,
    });
  });
  afterAll(() => t.close());

  it('shows the archive in the tree, the listings and the folder answers, for admins and members', async () => {
    for (const user of [users.admin, users.aufsichtsrat]) {
      const tree: TreeNode = (await call('GET', '/tree', user)).json().data;
      expect(findNode(tree, term.id)?.archived).toBe(true);
      expect(findNode(tree, year.id)?.archived).toBe(true);
      expect(findNode(tree, 2)?.archived).toBe(false);
      const folders: TreeNode = (await call('GET', '/tree?files=false', user)).json().data;
      expect(findNode(folders, year.id)?.archived).toBe(true);

      const listing = (await call('GET', '/folders/2/files', user)).json().data as {
        id: number;
        type: string;
        archived?: boolean;
      }[];
      expect(listing.find((item) => item.type === 'folder' && item.id === term.id)?.archived).toBe(true);
      const inside = (await call('GET', `/folders/${term.id}/files`, user)).json().data as {
        id: number;
        type: string;
        archived?: boolean;
      }[];
      expect(inside.find((item) => item.type === 'folder' && item.id === year.id)?.archived).toBe(true);

      const detail = (await call('GET', `/folders/${year.id}`, user)).json().data;
      expect(detail).toMatchObject({ archived: true, parent: { id: term.id, archived: true } });
      const list = (await call('GET', '/folders', user)).json().data as { id: number; archived: boolean }[];
      expect(list.find((folder) => folder.id === term.id)?.archived).toBe(true);
      expect(list.find((folder) => folder.id === 2)?.archived).toBe(false);
    }
    const targets = (await call('GET', '/file-breadcrumbs', users.admin)).json().data as {
      id: number;
      archived: boolean;
    }[];
    expect(targets.find((target) => target.id === year.id)?.archived).toBe(true);
    expect(targets.find((target) => target.id === open.id)?.archived).toBe(false);
  });

  it('still lets everyone read what is archived', async () => {
    for (const user of [users.admin, users.superAdmin, users.aufsichtsrat]) {
      expect((await call('GET', `/files/${yearFile.id}`, user)).statusCode).toBe(200);
      expect((await call('GET', `/download/${yearFile.external}`, user)).statusCode).toBe(200);
      expect((await call('GET', `/folders/${year.id}/files`, user)).statusCode).toBe(200);
    }
    expect((await call('GET', `/files/${archivedFile.id}/versions`, users.admin)).statusCode).toBe(200);
    expect((await call('GET', `/files/${archivedFile.id}/versions/1/download`, users.admin)).statusCode).toBe(
      200,
    );
  });

  describe.each(['admin', 'superAdmin'] as const)('as %s', (who) => {
    const actor = () => users[who];

    const refusals: [string, () => Promise<{ statusCode: number; body: string; json: () => any }>][] = [
      [
        'an upload into the term folder',
        () =>
          call('POST', '/files', actor(), {
            title: 'Nachtrag',
            file: dataUrl(pdfBytes()),
            permissions: ['Aufsichtsrat'],
            folder_id: term.id,
          }),
      ],
      [
        'an upload into a folder below it',
        () =>
          call('POST', '/files', actor(), {
            title: 'Nachtrag',
            file: dataUrl(pdfBytes()),
            permissions: ['Aufsichtsrat'],
            folder_id: year.id,
          }),
      ],
      [
        'an upload of a batch',
        () =>
          call('POST', '/files', actor(), {
            title: 'Nachtrag',
            file: dataUrl(pdfBytes()),
            permissions: ['Aufsichtsrat'],
            folder_id: year.id,
            batch_id: randomUUID(),
          }),
      ],
      [
        'a multipart upload, before a byte is stored',
        async () => {
          const body = multipart(
            [
              ['title', 'Nachtrag'],
              ['permissions', 'Aufsichtsrat'],
              ['folder_id', String(year.id)],
            ],
            { filename: 'nachtrag.pdf', type: 'application/pdf', content: pdfBytes() },
          );
          return t.app.inject({
            method: 'POST',
            url: '/api/v1/files',
            headers: { ...actor().headers, ...body.headers },
            payload: body.payload,
          });
        },
      ],
      [
        'a replacement of a document',
        () => call('PUT', `/files/${yearFile.id}`, actor(), { file: dataUrl(pdfBytes('neu')) }),
      ],
      [
        'a multipart replacement of a document',
        async () => {
          const body = multipart([], { filename: 'neu.pdf', type: 'application/pdf', content: pdfBytes() });
          return t.app.inject({
            method: 'PUT',
            url: `/api/v1/files/${yearFile.id}`,
            headers: { ...actor().headers, ...body.headers },
            payload: body.payload,
          });
        },
      ],
      ['a restored old version', () => call('POST', `/files/${archivedFile.id}/versions/1/restore`, actor())],
      [
        'a renamed document',
        () => call('PUT', `/files/${yearFile.id}`, actor(), { title: 'Protokoll Juni' }),
      ],
      [
        'a changed Kenntnisnahme',
        () => call('PUT', `/files/${yearFile.id}`, actor(), { acknowledgement_required: true }),
      ],
      ['a document moved out', () => call('PUT', `/files/${yearFile.id}`, actor(), { folder_id: open.id })],
      ['a document moved in', () => call('PUT', `/files/${openFile.id}`, actor(), { folder_id: year.id })],
      ['a deleted document', () => call('DELETE', `/files/${yearFile.id}`, actor())],
      ['a new subfolder', () => call('POST', '/folders', actor(), { folder_id: year.id, title: 'Anlagen' })],
      [
        'a new Amtsperiode inside it',
        () => call('POST', '/period', actor(), { folder_id: term.id, start: 2020, end: 2021 }),
      ],
      [
        'a missing year added to the archived Amtsperiode',
        () => call('POST', '/period', actor(), { folder_id: 2, start: 2018, end: 2022 }),
      ],
      ['a renamed term folder', () => call('PUT', `/folders/${term.id}`, actor(), { title: 'Alte Periode' })],
      ['a renamed subfolder', () => call('PUT', `/folders/${year.id}`, actor(), { title: '2019' })],
      [
        'a folder moved out',
        () => call('PUT', `/folders/${year.id}`, actor(), { title: '2018', parent_id: open.id }),
      ],
      [
        'the term folder moved elsewhere',
        () => call('PUT', `/folders/${term.id}`, actor(), { title: 'Amtsperiode 2018–2022', parent_id: 4 }),
      ],
      [
        'a folder moved in',
        () => call('PUT', `/folders/${open.id}`, actor(), { title: 'Laufend', parent_id: year.id }),
      ],
      ['the deleted term folder', () => call('DELETE', `/folders/${term.id}`, actor())],
      ['a deleted subfolder', () => call('DELETE', `/folders/${year.id}`, actor())],
      ['a deleted folder that holds an archived one', () => call('DELETE', `/folders/${holder.id}`, actor())],
      [
        'a document restored from the Papierkorb',
        () => call('POST', `/trash/file/${trashedFile.id}/restore`, actor(), {}),
      ],
      [
        'a folder restored from the Papierkorb',
        () => call('POST', `/trash/folder/${trashedFolder.id}/restore`, actor(), {}),
      ],
      [
        'a document restored from the Papierkorb into it elsewhere',
        () => call('POST', `/trash/file/${trashedFile.id}/restore`, actor(), { folder_id: term.id }),
      ],
    ];

    it.each(refusals)('refuses %s with the German 422 and changes nothing', async (_label, write) => {
      const before = await documentArea();
      const objects = (await storedObjects(t)).objects.length;
      expectArchived(await write());
      expect(await documentArea()).toEqual(before);
      // What arrived for the refused write is gone again.
      expect((await storedObjects(t)).objects.length).toBe(objects);
    });

    it('lets the roles of an archived folder and its documents change, and nothing else', async () => {
      const folderRes = await call('PUT', `/folders/${year.id}`, actor(), {
        title: '2018',
        roles: ['Aufsichtsrat', 'Vertreter'],
      });
      expect(folderRes.statusCode, folderRes.body).toBe(200);
      expect(folderRes.json().folder).toMatchObject({ archived: true, roles: ['Aufsichtsrat', 'Vertreter'] });
      const fileRes = await call('PUT', `/files/${yearFile.id}`, actor(), {
        title: yearFile.title,
        folder_id: year.id,
        permissions: ['Aufsichtsrat', 'Vertreter'],
      });
      expect(fileRes.statusCode, fileRes.body).toBe(200);
      expect(fileRes.json().file.roles).toEqual(['Aufsichtsrat', 'Vertreter']);
      // Back as it was, for the next actor.
      expect(
        (await call('PUT', `/folders/${year.id}`, actor(), { title: '2018', roles: ['Aufsichtsrat'] }))
          .statusCode,
      ).toBe(200);
      expect(
        (await call('PUT', `/files/${yearFile.id}`, actor(), { permissions: ['Aufsichtsrat'] })).statusCode,
      ).toBe(200);
    });
  });

  it('lets the folders above an archive be renamed: the archive keeps its content', async () => {
    const res = await call('PUT', `/folders/${holder.id}`, users.admin, { title: 'Altbestand (Archiv)' });
    expect(res.statusCode, res.body).toBe(200);
    const held = (await call('GET', `/folders/${heldTerm.id}`, users.admin)).json().data;
    expect(held).toMatchObject({
      archived: true,
      breadcrumb: '/Allgemein/Altbestand (Archiv)/Amtsperiode 2014–2018',
    });
  });

  it('opens the folder again while a Super-Admin has reopened the term, and closes it after', async () => {
    await setTerm(termId, { archived: 1, reopened: 1 });
    const tree: TreeNode = (await call('GET', '/tree', users.admin)).json().data;
    expect(findNode(tree, year.id)?.archived).toBe(false);
    const listing = (await call('GET', `/folders/${term.id}/files`, users.admin)).json().data as {
      id: number;
      archived?: boolean;
    }[];
    expect(listing.find((item) => item.id === year.id)?.archived).toBe(false);
    const corrected = await call('PUT', `/files/${yearFile.id}`, users.superAdmin, {
      title: 'Protokoll Mai (korrigiert)',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);

    await setTerm(termId, { archived: 1, reopened: 0 });
    expect(findNode((await call('GET', '/tree', users.admin)).json().data, year.id)?.archived).toBe(true);
    expectArchived(await call('PUT', `/files/${yearFile.id}`, users.superAdmin, { title: 'Protokoll Mai' }));
  });
});
