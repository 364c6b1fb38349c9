import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type {
  AcknowledgementsTable,
  AgendaItemFilesTable,
  AgendaItemsTable,
  Database,
  EventAttendanceTable,
  EventsTable,
  FileReadsTable,
  FilesTable,
  FileVersionsTable,
  FoldersTable,
} from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A deleted thing as its rows were (decision 125): restore writes them back with their own ids
 * (ids are never reused: SQLite AUTOINCREMENT, PostgreSQL sequences), so links and audit entries
 * keep pointing at them. Role links are role ids; a role deleted meanwhile is left out on restore.
 */
export interface TrashSnapshot {
  folders: (Selectable<FoldersTable> & { roles: number[] })[];
  files: (Selectable<FilesTable> & { roles: number[] })[];
  versions: Omit<Selectable<FileVersionsTable>, 'id'>[];
  events: (Selectable<EventsTable> & { roles: number[] })[];
  /**
   * An event's Tagesordnung and Zu- und Absagen (decision 130), so a restored meeting is
   * whole. Absent in snapshots of documents and folders and in those taken before meetings.
   */
  agenda_items?: Selectable<AgendaItemsTable>[];
  agenda_item_files?: Selectable<AgendaItemFilesTable>[];
  attendance?: Selectable<EventAttendanceTable>[];
  /**
   * The documents' Kenntnisnahme confirmations and the members' reads (decision 131), so
   * a restored document keeps who confirmed and who opened it. Absent in older snapshots.
   */
  acknowledgements?: Selectable<AcknowledgementsTable>[];
  file_reads?: Selectable<FileReadsTable>[];
}

/** A stored object the snapshot refers to: it stays in storage while the item is in the Papierkorb. */
export interface HeldObject {
  storage_key: string;
  size_bytes: number;
  sha256: string;
}

async function roleIdsOf(
  db: Executor,
  table: 'folder_roles' | 'file_roles' | 'event_roles',
  column: 'folder_id' | 'file_id' | 'event_id',
  ids: readonly number[],
): Promise<Map<number, number[]>> {
  const byObject = new Map<number, number[]>();
  if (ids.length === 0) return byObject;
  const rows = (await db
    .selectFrom(table as 'file_roles')
    .select([`${column} as object_id` as 'file_id', 'role_id'])
    .where(column as 'file_id', 'in', [...ids])
    .orderBy('role_id')
    .execute()) as unknown as { object_id: number; role_id: number }[];
  for (const row of rows) {
    const list = byObject.get(row.object_id) ?? [];
    list.push(row.role_id);
    byObject.set(row.object_id, list);
  }
  return byObject;
}

const numeric = <T extends { size_bytes: number }>(row: T): T => ({
  ...row,
  size_bytes: Number(row.size_bytes),
});

/** The documents with these ids (or in these folders), their roles and their old versions. */
async function captureFiles(db: Executor, by: { ids: readonly number[] } | { folderIds: readonly number[] }) {
  const list = 'ids' in by ? by.ids : by.folderIds;
  if (list.length === 0) return { files: [], versions: [], acknowledgements: [], file_reads: [] };
  const rows = (
    await db
      .selectFrom('files')
      .selectAll()
      .where('ids' in by ? 'id' : 'folder_id', 'in', [...list])
      .orderBy('id')
      .execute()
  ).map(numeric);
  const ids = rows.map((row) => row.id);
  const roles = await roleIdsOf(db, 'file_roles', 'file_id', ids);
  const versions =
    ids.length === 0
      ? []
      : (
          await db
            .selectFrom('file_versions')
            .selectAll()
            .where('file_id', 'in', ids)
            .orderBy('file_id')
            .orderBy('version')
            .execute()
        ).map(({ id: _id, ...row }) => numeric(row));
  const byFile = async <T extends 'acknowledgements' | 'file_reads'>(table: T) =>
    ids.length === 0
      ? []
      : ((await db
          .selectFrom(table as 'acknowledgements')
          .selectAll()
          .where('file_id', 'in', ids)
          .orderBy('file_id')
          .orderBy('user_id')
          .execute()) as Selectable<Database[T]>[]);
  return {
    files: rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] })),
    versions,
    acknowledgements: await byFile('acknowledgements'),
    file_reads: await byFile('file_reads'),
  };
}

export async function captureFile(db: Executor, id: number): Promise<TrashSnapshot> {
  return { folders: [], events: [], ...(await captureFiles(db, { ids: [id] })) };
}

/** A folder and everything below it; `folderIds` lists the folder first, then its descendants. */
export async function captureFolders(db: Executor, folderIds: readonly number[]): Promise<TrashSnapshot> {
  const rows = await db
    .selectFrom('folders')
    .selectAll()
    .where('id', 'in', [...folderIds])
    .execute();
  const roles = await roleIdsOf(db, 'folder_roles', 'folder_id', folderIds);
  // Parents before children, so restore can insert them in this order.
  const folders = rows
    .map((row) => ({ ...row, roles: roles.get(row.id) ?? [] }))
    .sort((a, b) => a.breadcrumb.length - b.breadcrumb.length || a.id - b.id);
  return { folders, events: [], ...(await captureFiles(db, { folderIds })) };
}

export async function captureEvent(db: Executor, id: number): Promise<TrashSnapshot> {
  const rows = (await db.selectFrom('events').selectAll().where('id', '=', id).execute()).map((row) => ({
    ...row,
    file_size_bytes: row.file_size_bytes === null ? null : Number(row.file_size_bytes),
    minutes_size_bytes: row.minutes_size_bytes === null ? null : Number(row.minutes_size_bytes),
  }));
  const roles = await roleIdsOf(db, 'event_roles', 'event_id', [id]);
  const agendaItems = await db
    .selectFrom('agenda_items')
    .selectAll()
    .where('event_id', '=', id)
    .orderBy('id')
    .execute();
  const agendaItemFiles =
    agendaItems.length === 0
      ? []
      : await db
          .selectFrom('agenda_item_files')
          .selectAll()
          .where(
            'item_id',
            'in',
            agendaItems.map((item) => item.id),
          )
          .orderBy('item_id')
          .orderBy('position')
          .execute();
  const attendance = await db
    .selectFrom('event_attendance')
    .selectAll()
    .where('event_id', '=', id)
    .orderBy('user_id')
    .execute();
  return {
    folders: [],
    files: [],
    versions: [],
    events: rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] })),
    agenda_items: agendaItems,
    agenda_item_files: agendaItemFiles,
    attendance,
  };
}

/** Every stored object the snapshot's rows refer to. */
export function heldObjects(snapshot: TrashSnapshot): HeldObject[] {
  return [
    ...snapshot.files.map(({ storage_key, size_bytes, sha256 }) => ({ storage_key, size_bytes, sha256 })),
    ...snapshot.versions.map(({ storage_key, size_bytes, sha256 }) => ({ storage_key, size_bytes, sha256 })),
    ...snapshot.events
      .filter((event) => event.file_storage_key !== null)
      .map((event) => ({
        storage_key: event.file_storage_key!,
        size_bytes: Number(event.file_size_bytes ?? 0),
        sha256: event.file_sha256 ?? '',
      })),
    // The Protokoll (decision 130); older snapshots have no such column.
    ...snapshot.events
      .filter((event) => (event.minutes_storage_key ?? null) !== null)
      .map((event) => ({
        storage_key: event.minutes_storage_key!,
        size_bytes: Number(event.minutes_size_bytes ?? 0),
        sha256: event.minutes_sha256 ?? '',
      })),
  ];
}

/** Where the restored rows go: the folder subtree's new parent and title, the file's folder. */
export interface Placement {
  /** New parent of the snapshot's top folder, or new folder of its single document. */
  parentId?: number;
  parentBreadcrumb?: string;
  /** New title of the top folder or the single document (the clash suffix). */
  title?: string;
  /** Role ids that still exist. */
  existingRoles: ReadonlySet<number>;
}

const keepRoles = (roles: readonly number[], existing: ReadonlySet<number>) =>
  roles.filter((id) => existing.has(id));

async function insertRoleLinks(
  db: Executor,
  table: 'folder_roles' | 'file_roles' | 'event_roles',
  column: 'folder_id' | 'file_id' | 'event_id',
  rows: readonly { id: number; roles: number[] }[],
  existing: ReadonlySet<number>,
): Promise<void> {
  const links = rows.flatMap((row) =>
    keepRoles(row.roles, existing).map((roleId) => ({ [column]: row.id, role_id: roleId })),
  );
  for (let start = 0; start < links.length; start += 500) {
    await db
      .insertInto(table as 'file_roles')
      .values(links.slice(start, start + 500) as { file_id: number; role_id: number }[])
      .execute();
  }
}

async function insertInBatches<T extends keyof Database>(
  db: Executor,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += 200) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + 200) as never)
      .execute();
  }
}

/**
 * Writes the snapshot's rows back. The top folder (the first) gets the new parent and title and
 * every breadcrumb below it follows; a single document gets the new folder and title.
 */
export async function restoreSnapshot(
  db: Executor,
  snapshot: TrashSnapshot,
  place: Placement,
): Promise<void> {
  const [top] = snapshot.folders;
  if (top) {
    const title = place.title ?? top.title;
    const topBreadcrumb =
      place.parentBreadcrumb === undefined
        ? top.breadcrumb
        : `${place.parentBreadcrumb === '/' ? '' : place.parentBreadcrumb}/${title}`;
    const folders = snapshot.folders.map(({ roles: _roles, ...row }, index) =>
      index === 0
        ? { ...row, title, parent_id: place.parentId ?? row.parent_id, breadcrumb: topBreadcrumb }
        : { ...row, breadcrumb: topBreadcrumb + row.breadcrumb.slice(top.breadcrumb.length) },
    );
    // One at a time: each folder's parent must exist before it (foreign key).
    for (const folder of folders) await db.insertInto('folders').values(folder).execute();
    await insertRoleLinks(db, 'folder_roles', 'folder_id', snapshot.folders, place.existingRoles);
  }
  const single = !top && snapshot.files.length === 1;
  const files = snapshot.files.map(({ roles: _roles, ...row }) =>
    single ? { ...row, folder_id: place.parentId ?? row.folder_id, title: place.title ?? row.title } : row,
  );
  await insertInBatches(db, 'files', files);
  await insertRoleLinks(db, 'file_roles', 'file_id', snapshot.files, place.existingRoles);
  await insertInBatches(db, 'file_versions', snapshot.versions);
  const events = snapshot.events.map(({ roles: _roles, ...row }) => row);
  await insertInBatches(db, 'events', events);
  await insertRoleLinks(db, 'event_roles', 'event_id', snapshot.events, place.existingRoles);
  // Main items before their sub-items (foreign key); links to documents need no check (decision 130).
  const agendaItems = snapshot.agenda_items ?? [];
  await insertInBatches(
    db,
    'agenda_items',
    agendaItems.filter((item) => item.parent_id === null),
  );
  await insertInBatches(
    db,
    'agenda_items',
    agendaItems.filter((item) => item.parent_id !== null),
  );
  await insertInBatches(db, 'agenda_item_files', snapshot.agenda_item_files ?? []);
  // Rows of accounts deleted meanwhile are left out, as roles deleted meanwhile are.
  const answers = snapshot.attendance ?? [];
  const confirmations = snapshot.acknowledgements ?? [];
  const reads = snapshot.file_reads ?? [];
  const users = await existingUsers(db, [...answers, ...confirmations, ...reads]);
  const kept = <T extends { user_id: number }>(rows: readonly T[]) =>
    rows.filter((row) => users.has(row.user_id));
  await insertInBatches(db, 'event_attendance', kept(answers));
  await insertInBatches(db, 'acknowledgements', kept(confirmations));
  await insertInBatches(db, 'file_reads', kept(reads));
}

/** Which of the rows' accounts still exist. */
async function existingUsers(db: Executor, rows: readonly { user_id: number }[]): Promise<Set<number>> {
  const ids = [...new Set(rows.map((row) => row.user_id))];
  const users = new Set<number>();
  for (let start = 0; start < ids.length; start += 500) {
    const batch = ids.slice(start, start + 500);
    for (const row of await db.selectFrom('users').select('id').where('id', 'in', batch).execute()) {
      users.add(row.id);
    }
  }
  return users;
}
