// Over 300 lines because the Super-Admin safeguards (locks, last-Super-Admin check) are shared by create, update and delete and belong beside them.
import type { Kysely, Transaction } from 'kysely';
import { API_KEY_MESSAGES } from '@gremienportal/contracts/api-keys';
import type { RoleRef } from '@gremienportal/contracts/common';
import {
  ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE,
  ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE,
  ALREADY_ACTIVE_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  LAST_SUPER_ADMIN_MESSAGE,
  ROLES_REQUIRED_MESSAGE,
  SELF_DELETE_FORBIDDEN_MESSAGE,
  unknownRoleMessage,
  type CreateUserBody,
  type UpdateUserBody,
  type User,
  type UserDetail,
} from '@gremienportal/contracts/users';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { auditBy, auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { AppError, forbidden, invalidField, notFound, unauthenticated } from '../../errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { principalLabel, type Actor } from '../../plugins/auth.ts';
import { actsAsSuperAdmin, keyMayWriteAccount, type AccountWrite } from '../../policies/api-key.policy.ts';
import { SUPER_ADMIN } from '../../policies/principal.ts';
import {
  holdsSuperAdmin,
  mayChangeUser,
  mayDeleteUser,
  mayGrantOrRevoke,
  mayManageUsers,
  mayReadUser,
} from '../../policies/users.policy.ts';
import { issuePasswordLink, revokePasswordLinks } from '../../db/password-links.ts';
import { membershipsOfUser } from '../../db/user-memberships.ts';
import { endMembershipsOfDeletedUser } from '../committees/membership-states.ts';
import { allRoles, resolveRoleRefs } from '../roles/roles.service.ts';
import { emailChangedMails, invitationMail } from './users.mails.ts';
import {
  deleteUser,
  emailTaken,
  findUser,
  insertUser,
  listUsers,
  lockUsers,
  lockUsersWithRole,
  replaceUserRoles,
  roleNamesOf,
  updateUser,
  usersWithAnyRole as recipientsWithAnyRole,
  type HeldRole,
  type Recipient,
  type UserRecord,
} from './users.repository.ts';

type Executor = Kysely<Database> | Transaction<Database>;

type RoleRow = { id: number; name: string };
type Trx = Transaction<Database>;

const names = (roles: RoleRow[]) => roles.map((role) => role.name);
const userLabel = (user: Pick<UserRecord, 'firstname' | 'lastname' | 'email'>) => principalLabel(user);

/** The roles an admin gave (decision 189): what the user form shows and edits. */
const directRoles = (roles: readonly HeldRole[]) => roles.filter((role) => role.direct);

export function toUser(record: UserRecord): User {
  const roleNames = names(directRoles(record.roles));
  return {
    id: record.id,
    title: record.title,
    firstname: record.firstname,
    lastname: record.lastname,
    email: record.email,
    roles: roleNames,
    // What the list shows and filters: every role the person holds, however given.
    roles_string: names(record.roles).join(', '),
    effective_roles: record.roles.map((role) => ({
      id: role.id,
      name: role.name,
      sources: [
        ...(role.direct ? ['direct' as const] : []),
        ...(role.viaCommittee ? ['committee' as const] : []),
      ],
      committee: role.committee,
    })),
    status: record.has_password ? 'aktiv' : 'eingeladen',
    two_factor: record.two_factor,
    created_at: record.created_at,
  };
}

/**
 * Sets the user's direct roles (decision 189) in the caller's transaction; roles a committee
 * membership gives stay. For the operator's `create-user` command.
 */
export function setDirectRoles(db: Executor, userId: number, roleIds: readonly number[]): Promise<void> {
  return replaceUserRoles(db, userId, roleIds);
}

/** Role references (ids, numeric strings or names) to role rows; every unknown one is a 422. */
async function resolveRoles(trx: Trx, refs: readonly RoleRef[]): Promise<RoleRow[]> {
  return resolveRoleRefs(await allRoles(trx), refs, 'roles', { message: unknownRoleMessage });
}

/**
 * product.md P1.3: the last Super-Admin keeps the role. The holders are locked first, so two
 * concurrent demotions cannot both believe another Super-Admin remains.
 */
async function assertAnotherSuperAdminRemains(ctx: AppContext, trx: Trx, userId: number): Promise<void> {
  const superAdminRole = (await allRoles(trx)).find((role) => role.name === SUPER_ADMIN);
  if (!superAdminRole) return;
  const holders = await lockUsersWithRole(trx, ctx.db.dialect, superAdminRole.id);
  if (!holders.some((id) => id !== userId)) {
    throw invalidField('roles', LAST_SUPER_ADMIN_MESSAGE);
  }
}

/**
 * Whether the actor is a Super-Admin now, read inside the transaction after the actor's row was
 * locked: the roles loaded when the request began may have been taken away meanwhile.
 */
async function actorIsSuperAdmin(trx: Trx, actor: Actor, lockedIds: number[]): Promise<boolean> {
  // Deleted meanwhile: the session went with the account, as the next request would find.
  if (!lockedIds.includes(actor.principal.id)) throw unauthenticated();
  const roles = await roleNamesOf(trx, actor.principal.id);
  if (!mayManageUsers(roles)) throw forbidden();
  // A key of a Super-Admin acts as an Admin at most (decision 146).
  return actsAsSuperAdmin(actor.principal, holdsSuperAdmin(roles.map((name) => ({ name }))));
}

/** What a refused key tried (decision 146): the action it would have recorded and its object. */
export type KeyAttempt =
  'user.created' | 'user.updated' | 'user.deleted' | 'user.invited' | 'user.two_factor_reset';

/**
 * A key's write that decision 146 refuses. Thrown inside the transaction, so nothing of the write
 * remains; `auditingKeyRefusals` records the attempt after the rollback and answers 403.
 */
class KeyRefused extends Error {
  constructor(
    readonly attempted: KeyAttempt,
    readonly target: { id: number; label: string } | null,
    readonly roles: readonly string[],
  ) {
    super(API_KEY_MESSAGES.adminAccountsOutOfReach);
  }
}

/** Refuses a key's write to an administrator's account or of an administrator role (decision 146). */
function assertKeyMayWrite(
  actor: Actor,
  write: AccountWrite,
  attempted: KeyAttempt,
  target: { id: number; label: string } | null,
): void {
  if (keyMayWriteAccount(actor.principal, write)) return;
  const roles = [...new Set([...write.targetRoles, ...write.changedRoles].map((role) => role.name))];
  throw new KeyRefused(attempted, target, roles);
}

/** Runs an account write; a refused key's attempt is audited on its own and answered 403. */
export async function auditingKeyRefusals<T>(
  ctx: AppContext,
  actor: Actor,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof KeyRefused)) throw error;
    await recordAudit(ctx.db.kysely, ctx.clock, {
      ...auditOn(actor, 'user', error.target?.id ?? null, error.target?.label ?? null),
      action: 'api_key.refused',
      details: { attempted: error.attempted, roles: error.roles, api_key_id: actor.principal.apiKey?.id },
    });
    throw forbidden(API_KEY_MESSAGES.adminAccountsOutOfReach);
  }
}

/** Who changed an account, as the member's mail names them. */
const changedBy = (principal: Actor['principal']) =>
  `${principal.firstname} ${principal.lastname}${principal.apiKey ? ` über API-Schlüssel „${principal.apiKey.name}“` : ''}`;

/**
 * The start of every change to an existing account: "may this actor change this account?" is
 * answered on locked rows (actor and target, see lockUsers) in the transaction that then writes.
 * A Super-Admin who makes the target an Admin at the same moment either commits first (then this
 * check sees it and answers 403) or waits until this transaction has committed.
 */
export async function lockForChange(
  ctx: AppContext,
  trx: Trx,
  actor: Actor,
  id: number,
  attempted: KeyAttempt,
): Promise<{ target: UserRecord; isSuperAdmin: boolean }> {
  const locked = await lockUsers(trx, ctx.db.dialect, [actor.principal.id, id]);
  const isSuperAdmin = await actorIsSuperAdmin(trx, actor, locked);
  const target = await findUser(trx, id);
  if (!target) throw notFound();
  assertKeyMayWrite(actor, { targetRoles: target.roles, changedRoles: [] }, attempted, {
    id,
    label: userLabel(target),
  });
  if (!mayChangeUser(isSuperAdmin, target)) {
    throw forbidden(ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE);
  }
  return { target, isSuperAdmin };
}

/** Issues a fresh invitation link and queues the mail, in the caller's transaction. */
async function sendInvitation(ctx: AppContext, trx: Trx, user: Omit<UserRecord, 'roles'>): Promise<void> {
  const link = await issuePasswordLink(trx, ctx, user.id, 'invite');
  await enqueueMail(trx, ctx.clock, invitationMail(user, link, ctx.config.PUBLIC_URL));
}

/** Maps a lost race on the unique e-mail index to the same 422 the pre-check gives. */
async function withEmailUniqueness<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidField('email', EMAIL_TAKEN_MESSAGE);
    throw error;
  }
}

/**
 * Every user holding at least one of the roles, each once, with all of their roles: the recipients
 * of notification mails (events and files), which the caller narrows to who may see the object.
 */
export function usersWithAnyRole(db: Executor, roleIds: readonly number[]): Promise<Recipient[]> {
  return recipientsWithAnyRole(db, roleIds);
}

export function usersService(ctx: AppContext) {
  const db = ctx.db.kysely;

  return {
    async list(): Promise<User[]> {
      return (await listUsers(db)).map(toUser);
    },

    /** Admins read every account; anyone else only their own. */
    async get(actor: Actor, id: number): Promise<UserDetail> {
      if (!mayReadUser(actor.principal, id)) throw forbidden();
      const record = await findUser(db, id);
      if (!record) throw notFound();
      const memberships = await membershipsOfUser(db, id);
      return { ...toUser(record), memberships };
    },

    async create(actor: Actor, body: CreateUserBody): Promise<User> {
      return auditingKeyRefusals(ctx, actor, () =>
        withEmailUniqueness(() =>
          db.transaction().execute(async (trx) => {
            const locked = await lockUsers(trx, ctx.db.dialect, [actor.principal.id]);
            const isSuperAdmin = await actorIsSuperAdmin(trx, actor, locked);
            const roles = await resolveRoles(trx, body.roles);
            assertKeyMayWrite(actor, { targetRoles: [], changedRoles: roles }, 'user.created', null);
            if (!mayGrantOrRevoke(isSuperAdmin, roles)) {
              throw forbidden(ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE);
            }
            if (await emailTaken(trx, body.email)) throw invalidField('email', EMAIL_TAKEN_MESSAGE);
            const now = ctx.clock.now().toISOString();
            const id = await insertUser(trx, {
              title: body.title,
              firstname: body.firstname,
              lastname: body.lastname,
              email: body.email,
              password_hash: null,
              created_at: now,
              updated_at: now,
            });
            await replaceUserRoles(
              trx,
              id,
              roles.map((role) => role.id),
            );
            const record = (await findUser(trx, id))!;
            await sendInvitation(ctx, trx, record);
            const audit = { ...auditBy(actor), objectType: 'user' as const, objectId: id };
            await recordAudit(trx, ctx.clock, {
              ...audit,
              action: 'user.created',
              objectLabel: userLabel(record),
              details: { roles: names(roles) },
            });
            await recordAudit(trx, ctx.clock, {
              ...audit,
              action: 'user.invited',
              objectLabel: userLabel(record),
            });
            return toUser(record);
          }),
        ),
      );
    },

    async update(actor: Actor, id: number, body: UpdateUserBody): Promise<User> {
      return auditingKeyRefusals(ctx, actor, () =>
        withEmailUniqueness(() =>
          db.transaction().execute(async (trx) => {
            const { target, isSuperAdmin } = await lockForChange(ctx, trx, actor, id, 'user.updated');

            // The form edits the direct roles only (decision 189): a role a committee gives is
            // neither granted nor revoked here, and stays when its direct grant goes.
            const oldRoles: RoleRow[] = directRoles(target.roles);
            const newRoles = body.roles ? await resolveRoles(trx, body.roles) : oldRoles;
            // No direct role is fine while a committee gives one (read after lockForChange).
            if (body.roles && newRoles.length === 0 && !target.roles.some((role) => role.viaCommittee)) {
              throw invalidField('roles', ROLES_REQUIRED_MESSAGE);
            }
            const oldIds = new Set(oldRoles.map((role) => role.id));
            const newIds = new Set(newRoles.map((role) => role.id));
            const added = newRoles.filter((role) => !oldIds.has(role.id));
            const removed = oldRoles.filter((role) => !newIds.has(role.id));
            const rolesChanged = added.length > 0 || removed.length > 0;
            assertKeyMayWrite(
              actor,
              { targetRoles: target.roles, changedRoles: [...added, ...removed] },
              'user.updated',
              { id, label: userLabel(target) },
            );
            if (!mayGrantOrRevoke(isSuperAdmin, [...added, ...removed])) {
              throw forbidden(ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE);
            }
            if (holdsSuperAdmin(removed)) {
              await assertAnotherSuperAdminRemains(ctx, trx, id);
            }

            if (body.email !== target.email && (await emailTaken(trx, body.email, id))) {
              throw invalidField('email', EMAIL_TAKEN_MESSAGE);
            }
            const fields = ['title', 'firstname', 'lastname', 'email'] as const;
            const changed = fields.filter((field) => body[field] !== target[field]);
            const now = ctx.clock.now().toISOString();
            if (changed.length > 0) {
              await updateUser(trx, id, {
                title: body.title,
                firstname: body.firstname,
                lastname: body.lastname,
                email: body.email,
                updated_at: now,
              });
            }
            if (rolesChanged) {
              await replaceUserRoles(
                trx,
                id,
                newRoles.map((role) => role.id),
              );
            }

            const record = (await findUser(trx, id))!;
            const audit = {
              ...auditBy(actor),
              objectType: 'user' as const,
              objectId: id,
              objectLabel: userLabel(record),
            };
            if (changed.length > 0) {
              // The addresses are kept: the audit view of a vote or signature shows a recent change
              // of the account's address by somebody else (credentialResetsBefore, decision 146).
              const addresses = changed.includes('email')
                ? { old_email: target.email, new_email: record.email }
                : {};
              await recordAudit(trx, ctx.clock, {
                ...audit,
                action: 'user.updated',
                details: { changed, ...addresses },
              });
            }
            if (rolesChanged) {
              await recordAudit(trx, ctx.clock, {
                ...audit,
                action: 'user.roles_changed',
                details: { old_roles: names(oldRoles), new_roles: names(newRoles) },
              });
            }
            if (changed.includes('email')) {
              // Links already mailed went to the old address: they must not open this account.
              await revokePasswordLinks(trx, { id, email: target.email }, now);
              // Both addresses are told, the old one first (decision 146).
              for (const mail of emailChangedMails(record, {
                oldEmail: target.email,
                newEmail: record.email,
                by: changedBy(actor.principal),
                at: now,
              })) {
                await enqueueMail(trx, ctx.clock, mail);
              }
              if (!record.has_password) {
                await sendInvitation(ctx, trx, record);
                await recordAudit(trx, ctx.clock, {
                  ...audit,
                  action: 'user.invited',
                  details: { reason: 'email_changed' },
                });
              }
            }
            return toUser(record);
          }),
        ),
      );
    },

    async remove(actor: Actor, id: number): Promise<void> {
      if (!mayDeleteUser(actor.principal, id)) throw forbidden(SELF_DELETE_FORBIDDEN_MESSAGE);
      await auditingKeyRefusals(ctx, actor, () =>
        db.transaction().execute(async (trx) => {
          const { target } = await lockForChange(ctx, trx, actor, id, 'user.deleted');
          if (holdsSuperAdmin(target.roles)) {
            await assertAnotherSuperAdminRemains(ctx, trx, id);
          }
          // Their memberships end today, so the directory proposes who moves up (decision 189).
          await endMembershipsOfDeletedUser(ctx, trx, id, auditBy(actor).actor ?? null);
          // The user's sessions go with the row (ON DELETE CASCADE): the next request is a 401.
          await deleteUser(trx, id);
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'user', id, userLabel(target)),
            action: 'user.deleted',
            details: { roles: names(target.roles) },
          });
        }),
      );
    },

    /** A new invitation link for a user who has not set a password yet; older links stop working. */
    async resendInvitation(actor: Actor, id: number): Promise<void> {
      await auditingKeyRefusals(ctx, actor, () =>
        db.transaction().execute(async (trx) => {
          const { target } = await lockForChange(ctx, trx, actor, id, 'user.invited');
          if (target.has_password) throw new AppError('validation', ALREADY_ACTIVE_MESSAGE);
          await sendInvitation(ctx, trx, target);
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'user', id, userLabel(target)),
            action: 'user.invited',
            details: { reason: 'resent' },
          });
        }),
      );
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
