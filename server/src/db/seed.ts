import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { ROLE_NAMES, type RoleName } from '@gremienportal/contracts/common';
import { DEFAULT_COMMITTEE_RULES, type CommitteeKind } from '@gremienportal/contracts/committees';
import type { Db } from './database.ts';
import type { Clock } from '../clock.ts';
import { hashPassword } from '../credentials/passwords.ts';

/** Advisory lock key of the first-start seed; Kysely's migrator uses another one. */
const SEED_LOCK_ID = 0x67707365;

/** The protected folders of product.md P6.1: fixed ids, never renamed, moved or deleted. */
const PROTECTED_FOLDERS: {
  id: number;
  parent: number | null;
  title: string;
  breadcrumb: string;
  roles: RoleName[];
}[] = [
  { id: 1, parent: null, title: '/', breadcrumb: '/', roles: [] },
  { id: 2, parent: 1, title: 'Aufsichtsrat', breadcrumb: '/Aufsichtsrat', roles: ['Aufsichtsrat'] },
  {
    id: 3,
    parent: 1,
    title: 'Mitgliedervertreter',
    breadcrumb: '/Mitgliedervertreter',
    roles: ['Vertreter'],
  },
  { id: 4, parent: 1, title: 'Allgemein', breadcrumb: '/Allgemein', roles: ['Aufsichtsrat', 'Vertreter'] },
];

const INITIAL_COMMITTEES: { name: string; kind: CommitteeKind; role: RoleName; folder: number }[] = [
  { name: 'Aufsichtsrat', kind: 'aufsichtsrat', role: 'Aufsichtsrat', folder: 2 },
  { name: 'Vertreterversammlung', kind: 'vertreterversammlung', role: 'Vertreter', folder: 3 },
];

export interface InitialAdmin {
  email: string;
  /** Set when the password was generated and must be shown once. */
  generatedPassword?: string;
}

/**
 * Idempotent first-start data: roles, protected folders and, on an empty user table, the
 * initial Super-Admin. Returns the admin created now, if any.
 */
export async function seedBaseData(
  db: Db,
  clock: Clock,
  admin: { email: string; password?: string },
): Promise<InitialAdmin | undefined> {
  const now = clock.now().toISOString();
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') {
      // Several instances may start at once on an empty database: one seeds, the others wait.
      await sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`.execute(trx);
    }
    const existingRoles = await trx.selectFrom('roles').select('name').execute();
    const missingRoles = ROLE_NAMES.filter((name) => !existingRoles.some((r) => r.name === name));
    if (missingRoles.length > 0) {
      await trx
        .insertInto('roles')
        .values(missingRoles.map((name) => ({ name })))
        .execute();
    }
    const roles = await trx.selectFrom('roles').select(['id', 'name']).execute();
    const roleId = (name: RoleName) => roles.find((r) => r.name === name)!.id;

    const root = await trx.selectFrom('folders').select('id').where('id', '=', 1).executeTakeFirst();
    if (!root) {
      for (const folder of PROTECTED_FOLDERS) {
        await trx
          .insertInto('folders')
          .values({
            id: folder.id,
            parent_id: folder.parent,
            title: folder.title,
            breadcrumb: folder.breadcrumb,
            created_at: now,
            updated_at: now,
          } as never)
          .execute();
        if (folder.roles.length > 0) {
          await trx
            .insertInto('folder_roles')
            .values(folder.roles.map((name) => ({ folder_id: folder.id, role_id: roleId(name) })))
            .execute();
        }
      }
      // The committees the two committee roles stand for (decision 189).
      for (const committee of INITIAL_COMMITTEES) {
        await trx
          .insertInto('committees')
          .values({
            name: committee.name,
            kind: committee.kind,
            role_id: roleId(committee.role),
            folder_id: committee.folder,
            rules: JSON.stringify(DEFAULT_COMMITTEE_RULES),
            created_at: now,
            updated_at: now,
          })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
      if (db.dialect === 'postgres') {
        // Explicit ids do not advance PostgreSQL's sequence.
        await sql`select setval(pg_get_serial_sequence('folders', 'id'), (select max(id) from folders))`.execute(
          trx,
        );
      }
    }

    const anyUser = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (anyUser) return undefined;
    const generatedPassword = admin.password ? undefined : randomBytes(12).toString('base64url');
    const user = await trx
      .insertInto('users')
      .values({
        title: 'Herr',
        firstname: 'Portal',
        lastname: 'Administrator',
        email: admin.email.toLowerCase(),
        password_hash: await hashPassword(admin.password ?? generatedPassword!),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('user_roles')
      .values({ user_id: user.id, role_id: roleId('Super-Admin') })
      .execute();
    return { email: admin.email.toLowerCase(), generatedPassword };
  });
}
