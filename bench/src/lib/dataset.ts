// Over 300 lines: createDataset builds users, folder tree, files and events in order, each step using the ids
// of the one before and the same seeded random source; split, all of them would be handed around.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { RoleName } from '@gremienportal/contracts/common';
import { systemClock } from '../../../server/src/clock.ts';
import { migrateToLatest, openDatabase } from '../../../server/src/db/database.ts';
import type { Database, EventsTable, FilesTable } from '../../../server/src/db/schema.ts';
import { demoPdf } from '../../../server/src/db/demo-seed.ts';
import { seedBaseData } from '../../../server/src/db/seed.ts';
import { hashPassword } from '../../../server/src/credentials/passwords.ts';
import { newKey } from '../../../server/src/storage/object-keys.ts';
import { fillSearchIndex, germanText } from './search-index.ts';
import { addPageData, type PageData } from './dataset-pages.ts';
import { demoFile, FILE_WORDS, FOLDER_WORDS, random } from './demo-files.ts';

export interface DatasetSize {
  folders: number;
  files: number;
  users: number;
  events: number;
  /** Size of the one large document the download scenario fetches. */
  largeFileBytes: number;
}

/** The data set of the issue: what a cooperative gathers over many years. */
export const FULL_SIZE: DatasetSize = {
  folders: 2_000,
  files: 20_000,
  users: 300,
  events: 500,
  largeFileBytes: 1024 ** 3,
};

/** Small enough for CI: every scenario still runs against every kind of object. */
export const QUICK_SIZE: DatasetSize = {
  folders: 60,
  files: 1_600,
  users: 20,
  events: 20,
  largeFileBytes: 32 * 1024 ** 2,
};

export interface Account {
  email: string;
  password: string;
}

export interface Dataset {
  dataDir: string;
  superAdmin: Account;
  admins: Account[];
  vertreter: Account;
  aufsichtsrat: Account;
  /** Members (Vertreter or Aufsichtsrat) who all share one password. */
  members: Account[];
  /** A folder visible to Vertreter holding exactly 1,000 (quick: 100) documents. */
  bigFolderId: number;
  bigFolderItems: number;
  /** A folder visible to Vertreter holding exactly 10 documents. */
  smallFolderId: number;
  /** A folder visible to Vertreter holding exactly 500 (quick: 50) documents, for Lighthouse. */
  mediumFolderId: number;
  mediumFolderItems: number;
  largeFile: { id: number; downloadKey: string; path: string; bytes: number };
  /** Small documents visible to Vertreter, for downloads in the soak. */
  vertreterFileIds: number[];
  /** Lighthouse and interactions (dataset-pages.ts): a folder of 50 documents, a meeting of 20 items. */
  pages: PageData;
  counts: { folders: number; files: number; users: number; events: number };
  /** Text read from the documents, and what the search index adds to the database. */
  search: { textBytes: number; indexBytes: number };
  /** Highest folder and file ids of the data set: anything above was made during a run. */
  maxFolderId: number;
  maxFileId: number;
}

const SHARED_PASSWORD = 'Bench-Passwort-2026';
const FIRST_NAMES = ['Anna', 'Bernd', 'Clara', 'Dieter', 'Elke', 'Frank', 'Gisela', 'Hans', 'Ilse', 'Jörg'];
const LAST_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'];

async function chunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Writes `bytes` of a repeating pattern as a stored object; returns key and checksum. */
async function writeLargeObject(filesDir: string, bytes: number) {
  const key = newKey();
  const path = join(filesDir, key);
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i += 1) block[i] = (i * 31 + 7) & 0xff;
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0; written < bytes; written += block.length) {
    const part = block.subarray(0, Math.min(block.length, bytes - written));
    hash.update(part);
    if (!out.write(part)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return { key, path, sha256: hash.digest('hex') };
}

/**
 * Builds a portal data folder (SQLite + disk storage) with the server's own migrations and seed,
 * then bulk-inserts the data set. Content is written straight into the storage folder: the
 * portal's upload path is measured by its own scenario, not 20,000 times here.
 */
export async function createDataset(dataDir: string, size: DatasetSize, quick: boolean): Promise<Dataset> {
  const next = random(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const filesDir = join(dataDir, 'files');
  await mkdir(filesDir, { recursive: true });
  const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
  const superAdmin = { email: 'admin@example.org', password: SHARED_PASSWORD };
  try {
    await migrateToLatest(db);
    await seedBaseData(db, systemClock, superAdmin);
    const k = db.kysely;
    const stamp = new Date().toISOString();
    const roles = await k.selectFrom('roles').select(['id', 'name']).execute();
    const roleId = (name: RoleName) => roles.find((role) => role.name === name)!.id;
    const passwordHash = await hashPassword(SHARED_PASSWORD);

    // --- Users: a handful of office staff, the Aufsichtsrat, many Vertreter --------------------
    const admins: Account[] = [];
    const members: Account[] = [];
    const userRows: { email: string; roles: RoleName[] }[] = [];
    for (let i = 0; i < size.users - 1; i += 1) {
      const roles: RoleName[] =
        i < Math.max(3, Math.round(size.users * 0.02))
          ? ['Admin']
          : i < Math.round(size.users * 0.1)
            ? ['Aufsichtsrat']
            : i % 40 === 0
              ? ['Vertreter', 'Aufsichtsrat']
              : ['Vertreter'];
      const email = `nutzer${String(i).padStart(4, '0')}@example.org`;
      userRows.push({ email, roles });
      (roles[0] === 'Admin' ? admins : members).push({ email, password: SHARED_PASSWORD });
    }
    await k.transaction().execute(async (trx) => {
      await chunked(userRows, 200, async (chunk) => {
        const ids = await trx
          .insertInto('users')
          .values(
            chunk.map((row, index) => ({
              title: index % 2 ? 'Frau' : 'Herr',
              firstname: pick(FIRST_NAMES),
              lastname: pick(LAST_NAMES),
              email: row.email,
              password_hash: passwordHash,
              created_at: stamp,
              updated_at: stamp,
            })),
          )
          .returning('id')
          .execute();
        await trx
          .insertInto('user_roles')
          .values(
            chunk.flatMap((row, index) =>
              row.roles.map((role) => ({ user_id: ids[index]!.id, role_id: roleId(role) })),
            ),
          )
          .execute();
      });
    });
    const vertreter = members.find((_, i) => userRows[admins.length + i]!.roles.join() === 'Vertreter')!;
    const aufsichtsrat = members.find(
      (_, i) => userRows[admins.length + i]!.roles.join() === 'Aufsichtsrat',
    )!;

    // --- Folders: a random tree under the three top folders, at most 6 levels deep ------------
    interface FolderNode {
      id: number;
      breadcrumb: string;
      depth: number;
      roles: number[];
      children: number;
    }
    const top: FolderNode[] = [
      { id: 2, breadcrumb: '/Aufsichtsrat', depth: 1, roles: [roleId('Aufsichtsrat')], children: 0 },
      { id: 3, breadcrumb: '/Mitgliedervertreter', depth: 1, roles: [roleId('Vertreter')], children: 0 },
      {
        id: 4,
        breadcrumb: '/Allgemein',
        depth: 1,
        roles: [roleId('Aufsichtsrat'), roleId('Vertreter')],
        children: 0,
      },
    ];
    const folders: FolderNode[] = [...top];
    const folderRows: FolderNode[] = [];
    const insertFolder = async (
      trx: Transaction<Database>,
      parent: FolderNode,
      title: string,
      roles = parent.roles,
    ) => {
      const breadcrumb = `${parent.breadcrumb}/${title}`;
      const { id } = await trx
        .insertInto('folders')
        .values({ parent_id: parent.id, title, breadcrumb, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('folder_roles')
        .values(roles.map((role_id) => ({ folder_id: id, role_id })))
        .execute();
      parent.children += 1;
      const node = { id, breadcrumb, depth: parent.depth + 1, roles, children: 0 };
      folders.push(node);
      folderRows.push(node);
      return node;
    };
    const vertreterTop = top[1]!;
    const [bigFolder, smallFolder, mediumFolder, scansFolder] = await k
      .transaction()
      .execute(async (trx) => [
        await insertFolder(trx, vertreterTop, 'Archiv Vertreterversammlungen'),
        await insertFolder(trx, vertreterTop, 'Aktuelle Unterlagen'),
        await insertFolder(trx, vertreterTop, 'Satzungsarchiv'),
        await insertFolder(trx, top[2]!, 'Scans'),
      ]);
    const fixed = [bigFolder, smallFolder, mediumFolder, scansFolder];
    await k.transaction().execute(async (trx) => {
      while (folderRows.length < size.folders) {
        // Shallow folders are likelier parents: real trees are wide near the top.
        const candidates = folders.filter(
          (folder) => folder.depth < 6 && folder.children < 12 && !fixed.includes(folder),
        );
        const parent = candidates[Math.floor(next() ** 2 * candidates.length)]!;
        const year = 1990 + Math.floor(next() * 37);
        const title = `${pick(FOLDER_WORDS)} ${year} (${parent.children + 1})`;
        const narrowed =
          parent.roles.length > 1 && next() < 0.1
            ? [parent.roles[Math.floor(next() * parent.roles.length)]!]
            : undefined;
        await insertFolder(trx, parent, title, narrowed);
      }
    });

    // --- Files: small PDFs; fixed counts in the three scenario folders ------------------------
    const bigItems = quick ? 100 : 1_000;
    const mediumItems = quick ? 50 : 500;
    const placements: FolderNode[] = [
      ...Array<FolderNode>(bigItems).fill(bigFolder),
      ...Array<FolderNode>(10).fill(smallFolder),
      ...Array<FolderNode>(mediumItems).fill(mediumFolder),
    ];
    const others = folderRows.filter((folder) => !fixed.includes(folder));
    while (placements.length < size.files - 1) placements.push(pick(others));
    const fileRows: { row: Insertable<FilesTable>; roles: number[] }[] = [];
    for (const [index, folder] of placements.entries()) {
      const title = `${pick(FILE_WORDS)} ${index + 1}`;
      fileRows.push({ row: await demoFile(filesDir, folder.id, title, stamp), roles: folder.roles });
    }
    const large = await writeLargeObject(filesDir, size.largeFileBytes);
    fileRows.push({
      row: {
        folder_id: scansFolder.id,
        title: 'Jahresabschluss Scan (groß)',
        format: 'pdf',
        mime_type: 'application/pdf',
        size_bytes: size.largeFileBytes,
        sha256: large.sha256,
        storage_key: large.key,
        download_key: newKey(),
        created_at: stamp,
        updated_at: stamp,
        content_at: stamp,
      },
      roles: [roleId('Vertreter'), roleId('Aufsichtsrat')],
    });
    const fileIds: number[] = [];
    await k.transaction().execute(async (trx) => {
      await chunked(fileRows, 500, async (chunk) => {
        const ids = await trx
          .insertInto('files')
          .values(chunk.map((file) => file.row))
          .returning('id')
          .execute();
        fileIds.push(...ids.map((row) => row.id));
        await trx
          .insertInto('file_roles')
          .values(
            chunk.flatMap((file, index) =>
              file.roles.map((role_id) => ({ file_id: ids[index]!.id, role_id })),
            ),
          )
          .execute();
      });
    });
    const largeRow = fileRows.at(-1)!.row;

    // --- Events: past and future, half with an information file -------------------------------
    const eventRows: { row: Insertable<EventsTable>; roles: number[] }[] = [];
    for (let i = 0; i < size.events; i += 1) {
      const start = new Date(Date.now() + (i - size.events / 2) * 3 * 86_400_000);
      const withFile = i % 2 === 0;
      const content = withFile ? demoPdf(`Einladung ${i}`) : undefined;
      const key = withFile ? newKey() : null;
      if (content && key) await writeFile(join(filesDir, key), content);
      eventRows.push({
        row: {
          uid: `${newKey()}@gremienportal`,
          sequence: 0,
          title: `${pick(['Sitzung des Aufsichtsrats', 'Vertreterversammlung', 'Informationsabend'])} ${i + 1}`,
          start_at: start.toISOString(),
          end_at: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
          location: pick(['Geschäftsstelle, Raum 2', 'Stadthalle', 'Online']),
          description: 'Tagesordnung und Unterlagen folgen.',
          file_storage_key: key,
          file_download_key: withFile ? newKey() : null,
          file_format: withFile ? 'pdf' : null,
          file_mime_type: withFile ? 'application/pdf' : null,
          file_size_bytes: content?.length ?? null,
          file_sha256: content ? createHash('sha256').update(content).digest('hex') : null,
          created_at: stamp,
          updated_at: stamp,
        },
        roles: i % 3 === 0 ? [roleId('Aufsichtsrat')] : [roleId('Vertreter'), roleId('Aufsichtsrat')],
      });
    }
    await k.transaction().execute(async (trx) => {
      await chunked(eventRows, 200, async (chunk) => {
        const ids = await trx
          .insertInto('events')
          .values(chunk.map((event) => event.row))
          .returning('id')
          .execute();
        await trx
          .insertInto('event_roles')
          .values(
            chunk.flatMap((event, index) =>
              event.roles.map((role_id) => ({ event_id: ids[index]!.id, role_id })),
            ),
          )
          .execute();
      });
    });

    // --- Search: every text read, about two pages of German per document ---------------------
    const pages = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`select page_count * page_size as n from pragma_page_count(), pragma_page_size()`.execute(k)
        ).rows[0]!.n,
      );
    const before = await pages();
    const eventIds = await k
      .selectFrom('events')
      .select('id')
      .where('file_storage_key', 'is not', null)
      .execute();
    const searchTextBytes = await fillSearchIndex(k, [
      ...fileIds.map((id, index) => ({
        kind: 'file' as const,
        id,
        // The 1 GiB scan is too large to read, as it would be in the portal.
        text: index === fileIds.length - 1 ? null : germanText(next, 4_000),
      })),
      ...eventIds.map(({ id }) => ({ kind: 'event' as const, id, text: germanText(next, 800) })),
    ]);
    const searchIndexBytes = (await pages()) - before;

    // --- Pages of Lighthouse and interactions, with a random source of their own (dataset-pages.ts)
    const pageData = await addPageData(k, filesDir, {
      vertreter: roleId('Vertreter'),
      aufsichtsrat: roleId('Aufsichtsrat'),
    });

    const vertreterRole = roleId('Vertreter');
    const vertreterFileIds = fileRows
      .map((file, index) => ({ file, id: fileIds[index]! }))
      .filter(({ file }) => file.roles.includes(vertreterRole) && file.row.size_bytes < 1024 * 1024)
      .slice(0, 500)
      .map(({ id }) => id);

    return {
      dataDir,
      superAdmin,
      admins: admins.slice(0, 3),
      vertreter,
      aufsichtsrat,
      members,
      bigFolderId: bigFolder.id,
      bigFolderItems: bigItems,
      smallFolderId: smallFolder.id,
      mediumFolderId: mediumFolder.id,
      mediumFolderItems: mediumItems,
      largeFile: {
        id: fileIds.at(-1)!,
        downloadKey: largeRow.download_key,
        path: large.path,
        bytes: size.largeFileBytes,
      },
      vertreterFileIds,
      pages: pageData,
      search: { textBytes: searchTextBytes, indexBytes: searchIndexBytes },
      maxFolderId: Math.max(...folders.map((folder) => folder.id), pageData.folderId),
      maxFileId: Math.max(...fileIds, ...pageData.fileIds),
      counts: {
        folders: folderRows.length + 1,
        files: fileRows.length + pageData.folderItems,
        users: userRows.length + 1,
        events: eventRows.length + 1,
      },
    };
  } finally {
    await db.close();
  }
}
