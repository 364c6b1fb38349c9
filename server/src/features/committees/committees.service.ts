import { isAdmin, ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import {
  COMMITTEE_MESSAGES,
  DEFAULT_COMMITTEE_RULES,
  type Committee,
  type CreateCommitteeBody,
  type UpdateCommitteeBody,
} from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import { auditBy, changeOf, recordAudit } from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeCommittee, seesAllCommittees } from '../../policies/committees.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import type { foldersService } from '../folders/folders.service.ts';
import * as repo from './committees.repository.ts';
import { sameTitle } from '../explorer/explorer.present.ts';
import { berlinToday, syncCommitteeRoles } from './membership-states.ts';
import { currentTermOf, toTerm } from './terms.service.ts';

type Folders = ReturnType<typeof foldersService>;

export function committeesService(ctx: AppContext, folders: Folders) {
  const db = () => ctx.db.kysely;
  const audit = (trx: Transaction<Database>, actor: Actor, entry: Parameters<typeof recordAudit>[2]) =>
    recordAudit(trx, ctx.clock, { ...auditBy(actor), ...entry });

  async function present(rows: repo.CommitteeRow[]): Promise<Committee[]> {
    const today = berlinToday(ctx);
    const terms = await repo.termsOf(
      db(),
      rows.map((row) => row.id),
    );
    const result: Committee[] = [];
    for (const row of rows) {
      const current = currentTermOf(
        terms.filter((term) => term.committee_id === row.id),
        today,
      );
      const members = current ? await repo.membershipsOfTerm(db(), current.id) : [];
      result.push({
        id: row.id,
        name: row.name,
        kind: row.kind,
        role: { id: row.role_id, name: row.role_name },
        folder:
          row.folder_id === null ? null : { id: row.folder_id, breadcrumb: row.folder_breadcrumb ?? '' },
        rules: repo.parseRules(row.rules),
        current_term: current ? toTerm(current) : null,
        member_count: members.filter(
          (member) => member.function !== 'ersatzmitglied' && member.state === 'active',
        ).length,
      });
    }
    return result;
  }

  /** The committees the principal belongs to now, as ids. */
  const belongsTo = async (principal: Principal) =>
    new Set(await repo.committeesOfMember(db(), principal.id));

  /** The committee if the principal may see it; else 404, as for one that does not exist. */
  async function visibleCommittee(principal: Principal, id: number): Promise<repo.CommitteeRow> {
    const row = await repo.findCommittee(db(), id);
    if (
      !row ||
      !canSeeCommittee(principal, seesAllCommittees(principal) ? new Set() : await belongsTo(principal), id)
    ) {
      throw notFound();
    }
    return row;
  }

  async function assertFolder(folderId: number | null | undefined) {
    if (folderId === undefined || folderId === null) return;
    const folder = await db()
      .selectFrom('folders')
      .select('id')
      .where('id', '=', folderId)
      .executeTakeFirst();
    if (!folder) throw invalidField('folder_id', COMMITTEE_MESSAGES.folderNotFound);
  }

  async function assertNameFree(trx: Transaction<Database>, name: string, exceptId?: number) {
    const clash = await repo.committeeByName(trx, name);
    if (clash && clash.id !== exceptId) throw invalidField('name', COMMITTEE_MESSAGES.nameTaken);
  }

  /** Whether a folder of this name (in any case) sits at the top of the tree already. */
  async function topFolderTaken(name: string): Promise<boolean> {
    const tops = await db()
      .selectFrom('folders')
      .select('title')
      .where('parent_id', '=', ROOT_FOLDER_ID)
      .execute();
    return tops.some((folder) => sameTitle(folder.title, name));
  }

  return {
    visibleCommittee,
    belongsTo,

    async list(principal: Principal): Promise<Committee[]> {
      const ids = seesAllCommittees(principal) ? undefined : [...(await belongsTo(principal))];
      return present(await repo.listCommittees(db(), ids));
    },

    async get(principal: Principal, id: number): Promise<Committee> {
      const [committee] = await present([await visibleCommittee(principal, id)]);
      return committee!;
    },

    /** A new committee with a new role of its name (or the unlinked role of that name). */
    async create(actor: Actor, body: CreateCommitteeBody): Promise<Committee> {
      await assertFolder(body.folder_id);
      const needsFolder = body.folder_id === undefined || body.folder_id === null;
      if (needsFolder && (await topFolderTaken(body.name))) {
        throw invalidField('folder_id', COMMITTEE_MESSAGES.folderTaken);
      }
      const now = ctx.clock.now().toISOString();
      const { id, roleId, roleCreated } = await db()
        .transaction()
        .execute(async (trx) => {
          await assertNameFree(trx, body.name);
          const existingRole = await repo.roleByName(trx, body.name);
          if (existingRole && isAdmin([existingRole.name]))
            throw invalidField('name', COMMITTEE_MESSAGES.adminRole);
          if (existingRole && (await repo.committeeOfRole(trx, existingRole.id))) {
            throw invalidField('name', COMMITTEE_MESSAGES.roleTaken);
          }
          const roleId = existingRole?.id ?? (await repo.insertRole(trx, body.name));
          const rules = { ...DEFAULT_COMMITTEE_RULES, ...body.rules };
          const id = await repo.insertCommittee(trx, {
            name: body.name,
            kind: body.kind,
            role_id: roleId,
            folder_id: body.folder_id ?? null,
            rules: JSON.stringify(rules),
            created_at: now,
            updated_at: now,
          });
          await audit(trx, actor, {
            action: 'committee.created',
            objectType: 'committee',
            objectId: id,
            objectLabel: body.name,
            details: { kind: body.kind, role: body.name, role_created: !existingRole },
          });
          return { id, roleId, roleCreated: !existingRole };
        });
      if (needsFolder) {
        // The folder's own transaction (the tree's lock); should it refuse after all (a folder
        // created meanwhile), the committee goes again, so a refusal leaves nothing behind.
        try {
          const folder = await folders.create(actor, {
            title: body.name,
            folder_id: ROOT_FOLDER_ID,
            roles: [roleId],
          });
          await repo.updateCommittee(db(), id, { folder_id: folder.id });
        } catch (error) {
          await db()
            .transaction()
            .execute(async (trx) => {
              await repo.deleteCommittee(trx, id);
              if (roleCreated) await repo.deleteRole(trx, roleId);
              await audit(trx, actor, {
                action: 'committee.deleted',
                objectType: 'committee',
                objectId: id,
                objectLabel: body.name,
                details: { reason: 'folder_refused' },
              });
            });
          throw error;
        }
      }
      return this.get(actor.principal, id);
    },

    async update(actor: Actor, id: number, body: UpdateCommitteeBody): Promise<Committee> {
      await assertFolder(body.folder_id);
      await db()
        .transaction()
        .execute(async (trx) => {
          await repo.lockCommittee(trx, ctx.db.dialect, id);
          const row = await repo.findCommittee(trx, id);
          if (!row) throw notFound();
          await assertNameFree(trx, body.name, id);
          const before = repo.parseRules(row.rules);
          const rules = { ...before, ...body.rules };
          const folderId = body.folder_id === undefined ? row.folder_id : body.folder_id;
          await repo.updateCommittee(trx, id, {
            name: body.name,
            kind: body.kind,
            folder_id: folderId,
            rules: JSON.stringify(rules),
            updated_at: ctx.clock.now().toISOString(),
          });
          if (before.substitutes_see_papers !== rules.substitutes_see_papers) {
            const users = new Set((await repo.membershipsOfCommittee(trx, id)).map((m) => m.user_id));
            for (const userId of users) if (userId !== null) await syncCommitteeRoles(trx, userId);
          }
          await audit(trx, actor, {
            action: 'committee.updated',
            objectType: 'committee',
            objectId: id,
            objectLabel: body.name,
            details: {
              ...changeOf('name', row.name, body.name),
              ...changeOf('kind', row.kind, body.kind),
              ...changeOf('folder_id', row.folder_id, folderId),
              ...changeOf('rules', before, rules),
            },
          });
        });
      return this.get(actor.principal, id);
    },

    /** Only a committee without terms; its role stays (folders and documents may still use it). */
    async remove(actor: Actor, id: number): Promise<void> {
      await db()
        .transaction()
        .execute(async (trx) => {
          await repo.lockCommittee(trx, ctx.db.dialect, id);
          const row = await repo.findCommittee(trx, id);
          if (!row) throw notFound();
          if ((await repo.termsOf(trx, [id])).length > 0) {
            throw new AppError('validation', COMMITTEE_MESSAGES.hasTerms);
          }
          await repo.deleteCommittee(trx, id);
          await audit(trx, actor, {
            action: 'committee.deleted',
            objectType: 'committee',
            objectId: id,
            objectLabel: row.name,
          });
        });
    },
  };
}
