import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { RoleName } from '@gremienportal/contracts/common';
import type { Db } from './database.ts';
import type { Clock } from '../clock.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { hashPassword } from '../credentials/passwords.ts';
import { newKey } from '../storage/object-keys.ts';

export interface DemoAccount {
  email: string;
  password: string;
  roles: RoleName[];
}

/**
 * A PDF with pages of text lines in Helvetica (WinAnsi: umlauts are single bytes), written by
 * hand: demo documents, and the bench's documents whose text the search reads.
 */
export function linesPdf(pages: readonly (readonly string[])[], fontSize = 10): Buffer {
  const kids = pages.map((_, index) => `${3 + index} 0 R`).join(' ');
  const font = 3 + 2 * pages.length;
  const streams = pages.map((lines) => {
    const body = lines.map((line) => `(${line.replace(/[()\\]/g, '')}) Tj T*`).join('\n');
    return `BT /F1 ${fontSize} Tf ${Math.round(fontSize * 1.4)} TL 50 790 Td\n${body}\nET`;
  });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    ...pages.map(
      (_, index) =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${3 + pages.length + index} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    ),
    ...streams.map(
      (stream) => `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    ),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A one-page PDF showing `title`; enough for demo downloads and previews. */
export function demoPdf(title: string): Buffer {
  return linesPdf([[title]], 20);
}

const DEMO_USERS: { title: string; firstname: string; lastname: string; email: string; roles: RoleName[] }[] =
  [
    {
      title: 'Frau',
      firstname: 'Greta',
      lastname: 'Geschäftsstelle',
      email: 'admin.demo@example.org',
      roles: ['Admin'],
    },
    {
      title: 'Herr',
      firstname: 'Anton',
      lastname: 'Aufsicht',
      email: 'aufsichtsrat.demo@example.org',
      roles: ['Aufsichtsrat'],
    },
    {
      title: 'Frau',
      firstname: 'Vera',
      lastname: 'Vertreterin',
      email: 'vertreter.demo@example.org',
      roles: ['Vertreter'],
    },
  ];

const DEMO_FOLDERS: { parent: string; title: string }[] = [
  { parent: '/Aufsichtsrat', title: 'Sitzungen 2026' },
  { parent: '/Aufsichtsrat', title: 'Berichte des Vorstands' },
  { parent: '/Mitgliedervertreter', title: 'Vertreterversammlung 2026' },
  { parent: '/Allgemein', title: 'Satzung und Ordnungen' },
];

const DEMO_FILES: { folder: string; title: string }[] = [
  { folder: '/Aufsichtsrat/Sitzungen 2026', title: 'Protokoll der Sitzung vom 12. März' },
  { folder: '/Aufsichtsrat/Sitzungen 2026', title: 'Tagesordnung Juni-Sitzung' },
  { folder: '/Aufsichtsrat/Berichte des Vorstands', title: 'Quartalsbericht Q3' },
  { folder: '/Mitgliedervertreter/Vertreterversammlung 2026', title: 'Einladung zur Vertreterversammlung' },
  { folder: '/Mitgliedervertreter/Vertreterversammlung 2026', title: 'Jahresabschluss 2025' },
  { folder: '/Allgemein/Satzung und Ordnungen', title: 'Satzung der Genossenschaft' },
  { folder: '/Allgemein/Satzung und Ordnungen', title: 'Wahlordnung' },
];

const DEMO_EVENTS: { title: string; inDays: number; hours: number; location: string; roles: RoleName[] }[] = [
  {
    title: 'Sitzung des Aufsichtsrats',
    inDays: 14,
    hours: 3,
    location: 'Geschäftsstelle, Raum 2',
    roles: ['Aufsichtsrat'],
  },
  {
    title: 'Vertreterversammlung',
    inDays: 45,
    hours: 4,
    location: 'Stadthalle, Großer Saal',
    roles: ['Vertreter', 'Aufsichtsrat'],
  },
  {
    title: 'Informationsabend für neue Vertreter',
    inDays: 21,
    hours: 2,
    location: 'Online',
    roles: ['Vertreter'],
  },
];

/**
 * Demo content for a first look: one account per role (passwords returned to be printed once),
 * a few folders, documents and events. Runs only on a database the first start just created.
 */
export async function seedDemoData(db: Db, clock: Clock, storage: FileStorage): Promise<DemoAccount[]> {
  const now = clock.now();
  const stamp = now.toISOString();
  const roles = await db.kysely.selectFrom('roles').select(['id', 'name']).execute();
  const roleId = (name: RoleName) => roles.find((role) => role.name === name)!.id;

  const stored = new Map<string, { key: string; size: number; sha256: string }>();
  for (const file of DEMO_FILES) {
    stored.set(file.title, await storage.put(Readable.from(demoPdf(file.title)), { maxBytes: 1024 * 1024 }));
  }

  const accounts: DemoAccount[] = [];
  await db.kysely.transaction().execute(async (trx) => {
    for (const { roles: userRoles, ...user } of DEMO_USERS) {
      const password = randomBytes(9).toString('base64url');
      const { id } = await trx
        .insertInto('users')
        .values({
          ...user,
          password_hash: await hashPassword(password),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('user_roles')
        .values(userRoles.map((role) => ({ user_id: id, role_id: roleId(role) })))
        .execute();
      accounts.push({ email: user.email, password, roles: userRoles });
    }

    const folders = await trx.selectFrom('folders').select(['id', 'breadcrumb']).execute();
    const folderId = new Map(folders.map((folder) => [folder.breadcrumb, folder.id]));
    for (const folder of DEMO_FOLDERS) {
      const parentId = folderId.get(folder.parent)!;
      const breadcrumb = `${folder.parent}/${folder.title}`;
      const { id } = await trx
        .insertInto('folders')
        .values({
          parent_id: parentId,
          title: folder.title,
          breadcrumb,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const parentRoles = await trx
        .selectFrom('folder_roles')
        .select('role_id')
        .where('folder_id', '=', parentId)
        .execute();
      if (parentRoles.length > 0) {
        await trx
          .insertInto('folder_roles')
          .values(parentRoles.map((r) => ({ folder_id: id, role_id: r.role_id })))
          .execute();
      }
      folderId.set(breadcrumb, id);
    }

    for (const file of DEMO_FILES) {
      const object = stored.get(file.title)!;
      const folder = folderId.get(file.folder)!;
      const { id } = await trx
        .insertInto('files')
        .values({
          folder_id: folder,
          title: file.title,
          format: 'pdf',
          mime_type: 'application/pdf',
          size_bytes: object.size,
          sha256: object.sha256,
          storage_key: object.key,
          download_key: newKey(),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const folderRoles = await trx
        .selectFrom('folder_roles')
        .select('role_id')
        .where('folder_id', '=', folder)
        .execute();
      await trx
        .insertInto('file_roles')
        .values(folderRoles.map((r) => ({ file_id: id, role_id: r.role_id })))
        .execute();
    }

    for (const event of DEMO_EVENTS) {
      const start = new Date(now.getTime() + event.inDays * 86_400_000);
      start.setUTCHours(16, 0, 0, 0);
      const end = new Date(start.getTime() + event.hours * 3_600_000);
      const { id } = await trx
        .insertInto('events')
        .values({
          uid: `${randomUUID()}@gremienportal`,
          sequence: 0,
          title: event.title,
          start_at: start.toISOString(),
          end_at: end.toISOString(),
          location: event.location,
          description: `${event.title}: Unterlagen folgen rechtzeitig im Portal.`,
          file_storage_key: null,
          file_download_key: null,
          file_format: null,
          file_mime_type: null,
          file_size_bytes: null,
          file_sha256: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('event_roles')
        .values(event.roles.map((role) => ({ event_id: id, role_id: roleId(role) })))
        .execute();
    }
  });
  return accounts;
}
