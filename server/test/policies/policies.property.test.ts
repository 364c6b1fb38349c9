import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { loadFolders } from '../../src/db/document-records.ts';
import { allRoles } from '../../src/features/roles/roles.service.ts';
import { canSeeEvent, eventFilter, inviteeFilter, isInvitee } from '../../src/policies/events.policy.ts';
import { canSeeFile, fileFilter } from '../../src/policies/files.policy.ts';
import { canSeeFolder, FolderTree } from '../../src/policies/folders.policy.ts';
import { viewerOfRoles } from '../../src/policies/principal.ts';

/**
 * Every visibility rule has two forms, the predicate (in memory) and the Kysely filter (in the
 * query that finds rows). Random worlds of folders, documents and events, seen by random users,
 * must get the same answer from both, on the database the suite runs on; so must the accounts
 * each event invites.
 */

const WORLDS = 30;
/** Role ids of the first migration: Admin, Super-Admin, Aufsichtsrat, Vertreter. */
const ROLE_IDS: readonly number[] = [1, 2, 3, 4];
/** Protected folders (product.md P6.1): the root and its three children. */
const PROTECTED_FOLDERS = 4;

const roleSet = fc.subarray([...ROLE_IDS]);

const world = fc.record({
  // Each folder hangs below the root, a protected folder or a folder made before it.
  folders: fc.array(fc.record({ parent: fc.nat(), roles: roleSet }), { maxLength: 8 }),
  files: fc.array(fc.record({ folder: fc.nat(), roles: roleSet }), { maxLength: 10 }),
  events: fc.array(fc.record({ roles: roleSet }), { maxLength: 6 }),
  // Users with random roles, Admin and Super-Admin among them; one without any role always.
  users: fc.array(roleSet, { minLength: 1, maxLength: 6 }).map((sets) => [[], ...sets]),
  // Accounts an event may invite: with random roles, some with the invitation not yet accepted.
  accounts: fc.array(fc.record({ roles: roleSet, active: fc.boolean() }), { maxLength: 6 }),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

describe('policies: predicate and SQL filter agree', () => {
  let t: TestApp;
  let sequence = 0;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function clear() {
    const db = t.db.kysely;
    await db.deleteFrom('files').execute();
    await db.deleteFrom('events').execute();
    await db.deleteFrom('folders').where('id', '>', PROTECTED_FOLDERS).execute();
    await db.deleteFrom('users').where('email', 'like', 'w%@world.invalid').execute();
  }

  /** Writes the world and answers the ids it got. */
  async function build(w: World) {
    const db = t.db.kysely;
    const now = new Date().toISOString();
    const folderIds: number[] = [1, 2, 3, 4];
    const breadcrumbs = new Map<number, string>(
      (await loadFolders(db)).map((folder) => [folder.id, folder.breadcrumb]),
    );
    for (const folder of w.folders) {
      const parentId = folderIds[folder.parent % folderIds.length]!;
      const title = `w${(sequence += 1)}`;
      const parentPath = breadcrumbs.get(parentId)!;
      const breadcrumb = parentPath === '/' ? `/${title}` : `${parentPath}/${title}`;
      const { id } = await db
        .insertInto('folders')
        .values({ parent_id: parentId, title, breadcrumb, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (folder.roles.length > 0)
        await db
          .insertInto('folder_roles')
          .values(folder.roles.map((role_id) => ({ folder_id: id, role_id })))
          .execute();
      folderIds.push(id);
      breadcrumbs.set(id, breadcrumb);
    }
    const files = [];
    for (const file of w.files) {
      const key = `w${(sequence += 1)}`;
      const folderId = folderIds[file.folder % folderIds.length]!;
      const { id } = await db
        .insertInto('files')
        .values({
          folder_id: folderId,
          title: key,
          format: 'pdf',
          mime_type: 'application/pdf',
          size_bytes: 1,
          sha256: key,
          storage_key: key,
          download_key: key,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (file.roles.length > 0)
        await db
          .insertInto('file_roles')
          .values(file.roles.map((role_id) => ({ file_id: id, role_id })))
          .execute();
      files.push({ id, folder_id: folderId, roles: file.roles.map((roleId) => ({ id: roleId })) });
    }
    const events = [];
    for (const event of w.events) {
      const key = `w${(sequence += 1)}`;
      const { id } = await db
        .insertInto('events')
        .values({
          uid: key,
          sequence: 0,
          title: key,
          start_at: now,
          end_at: now,
          location: '',
          description: '',
          file_storage_key: null,
          file_download_key: null,
          file_format: null,
          file_mime_type: null,
          file_size_bytes: null,
          file_sha256: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (event.roles.length > 0)
        await db
          .insertInto('event_roles')
          .values(event.roles.map((role_id) => ({ event_id: id, role_id })))
          .execute();
      events.push({ id, roles: event.roles.map((roleId) => ({ id: roleId })) });
    }
    const accounts = [];
    for (const account of w.accounts) {
      const key = `w${(sequence += 1)}`;
      const { id } = await db
        .insertInto('users')
        .values({
          title: '',
          firstname: key,
          lastname: key,
          email: `${key}@world.invalid`,
          password_hash: account.active ? 'not-a-hash' : null,
          created_at: now,
          updated_at: now,
          totp_secret: null,
          totp_pending: null,
          totp_last_step: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (account.roles.length > 0)
        await db
          .insertInto('user_roles')
          .values(account.roles.map((role_id) => ({ user_id: id, role_id })))
          .execute();
      accounts.push({ id, active: account.active, roles: account.roles.map((roleId) => ({ id: roleId })) });
    }
    return { files, events, accounts };
  }

  it(`gives the same answer for every user and object in ${WORLDS} random worlds`, async () => {
    const db = t.db.kysely;
    const roles = await allRoles(db);
    expect(roles.map((role) => role.id)).toEqual([...ROLE_IDS]);
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await clear();
        const { files, events, accounts } = await build(w);
        const folders = await loadFolders(db);
        const byId = new Map(folders.map((folder) => [folder.id, folder]));
        for (const roleIds of w.users) {
          const viewer = viewerOfRoles(roles.filter((role) => roleIds.includes(role.id)));
          const tree = new FolderTree(folders, viewer);

          // Folders: the tree against the rule as product.md P5 words it, walking up the chain.
          for (const folder of folders) {
            let chainVisible = true;
            for (let at = folder; at.parent_id !== null; at = byId.get(at.parent_id)!) {
              if (!viewer.isAdmin && !at.roles.some((role) => viewer.roleIds.has(role.id)))
                chainVisible = false;
            }
            expect(canSeeFolder(tree, folder.id), `folder ${folder.breadcrumb}`).toBe(chainVisible);
          }

          const fileRule = fileFilter(tree);
          let fileQuery = db.selectFrom('files').select('files.id');
          if (fileRule) fileQuery = fileQuery.where(fileRule);
          const fileRows = new Set((await fileQuery.execute()).map((row) => row.id));
          for (const file of files) {
            expect(fileRows.has(file.id), `file ${file.id} for roles ${roleIds.join(',')}`).toBe(
              canSeeFile(tree, file),
            );
          }

          const eventRule = eventFilter(viewer);
          let eventQuery = db.selectFrom('events').select('events.id');
          if (eventRule) eventQuery = eventQuery.where(eventRule);
          const eventRows = new Set((await eventQuery.execute()).map((row) => row.id));
          for (const event of events) {
            expect(eventRows.has(event.id), `event ${event.id} for roles ${roleIds.join(',')}`).toBe(
              canSeeEvent(viewer, event),
            );
          }
        }

        // Invitees: who an event asks to answer, and who is reminded (decision 130).
        for (const event of events) {
          const inviteeRows = await db
            .selectFrom('users')
            .select('users.id')
            .where('users.email', 'like', 'w%@world.invalid')
            .where(inviteeFilter(event.roles.map((role) => role.id)))
            .execute();
          const invited = new Set(inviteeRows.map((row) => row.id));
          for (const account of accounts) {
            expect(invited.has(account.id), `account ${account.id} invited to event ${event.id}`).toBe(
              isInvitee(event, account),
            );
          }
        }
      }),
      { numRuns: WORLDS },
    );
    await clear();
  });
});
