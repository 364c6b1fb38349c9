import {
  ACCOUNT_FIELDS_FORBIDDEN_MESSAGE,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  type Account,
  type UpdateAccountBody,
} from '@gremienportal/contracts/account';
import type { OwnMembership } from '@gremienportal/contracts/committees';
import { EMAIL_TAKEN_MESSAGE } from '@gremienportal/contracts/users';
import type { AppContext } from '../../context.ts';
import { forbidden, invalidField } from '../../errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { hashPassword } from '../../credentials/passwords.ts';
import type { Principal } from '../../policies/principal.ts';
import { mayChangeOwnProfile } from '../../policies/users.policy.ts';
import {
  endOtherSessions,
  recheckPassword,
  refuseEmailAsPassword,
  type Client,
} from '../auth/auth.service.ts';
import { forgetTrustedDevices } from '../two-factor/second-factor.service.ts';
import { revokePasswordLinks } from '../../db/password-links.ts';
import { membershipsOfUser } from '../../db/user-memberships.ts';
import * as repo from './account.repository.ts';

/** What only Admin and Super-Admin may change on their own account (product.md P1.2). */
const PROFILE_FIELDS = ['title', 'firstname', 'lastname', 'email'] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * The principal is read on every request, so it already is the stored account; its roles are the
 * effective ones (decision 189).
 */
export function accountOf(principal: Principal): Account {
  return {
    id: principal.id,
    title: principal.title,
    firstname: principal.firstname,
    lastname: principal.lastname,
    email: principal.email,
    roles: principal.roles,
    roles_string: principal.roles.join(', '),
    email_visible_to_committees: principal.emailVisibleToCommittees,
  };
}

/** The signed-in user's own account. */
export function accountService(ctx: AppContext) {
  /**
   * GET /account: the account with its committee memberships, active ones first. Answered from the
   * principal; only a member who has memberships costs a query (decision 189).
   */
  async function readAccount(principal: Principal): Promise<Account & { memberships: OwnMembership[] }> {
    const memberships = principal.hasCommitteeMemberships
      ? await membershipsOfUser(ctx.db.kysely, principal.id)
      : [];
    return { ...accountOf(principal), memberships };
  }

  /**
   * Applies the changed fields. Fields sent with their stored value are no change, so a form that
   * sends everything still works for users who may only change their password. A new password
   * needs the current one, checked under the sign-in's limits (decision 147).
   */
  async function updateAccount(
    principal: Principal,
    body: UpdateAccountBody,
    client: Client,
  ): Promise<Account> {
    const changes: Partial<Record<ProfileField, string>> = {};
    for (const field of PROFILE_FIELDS) {
      const value = body[field];
      if (value !== undefined && value !== principal[field]) changes[field] = value;
    }
    if (Object.keys(changes).length > 0 && !mayChangeOwnProfile(principal)) {
      throw forbidden(ACCOUNT_FIELDS_FORBIDDEN_MESSAGE);
    }
    const k = ctx.db.kysely;
    if (changes.email !== undefined && (await repo.emailTakenByOther(k, changes.email, principal.id))) {
      throw invalidField('email', EMAIL_TAKEN_MESSAGE);
    }
    if (body.password !== undefined) {
      refuseEmailAsPassword(body.password, changes.email ?? principal.email);
      await recheckPassword(ctx, { principal, ip: client.ip }, body.current_password, {
        field: 'current_password',
        message: CURRENT_PASSWORD_WRONG_MESSAGE,
      });
    }
    const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
    // Anyone may choose this for their own account (decision 189).
    const emailVisible = body.email_visible_to_committees ?? principal.emailVisibleToCommittees;
    const visibilityChanged = emailVisible !== principal.emailVisibleToCommittees;

    const updated: Principal = { ...principal, ...changes, emailVisibleToCommittees: emailVisible };
    const changed = [
      ...Object.keys(changes),
      ...(passwordHash ? ['password'] : []),
      ...(visibilityChanged ? ['email_visible_to_committees'] : []),
    ];
    if (changed.length === 0) return accountOf(updated);

    const now = ctx.clock.now().toISOString();
    try {
      await k.transaction().execute(async (trx) => {
        await repo.updateUser(trx, principal.id, {
          ...changes,
          ...(passwordHash ? { password_hash: passwordHash } : {}),
          ...(visibilityChanged ? { email_visible_to_committees: emailVisible ? 1 : 0 } : {}),
          updated_at: now,
        });
        // A new password signs out every other device; the one that changed it stays signed in.
        if (passwordHash) {
          await endOtherSessions(trx, principal);
          // Devices trusted to skip the second factor were trusted under the old password.
          await forgetTrustedDevices(trx, principal.id);
        }
        // A link asked for before must not set a password afterwards, nor one mailed to the old
        // address open the account.
        if (passwordHash || changes.email !== undefined) {
          await revokePasswordLinks(trx, { id: principal.id, email: principal.email }, now);
        }
        await recordOwnAccountAudit(trx, ctx.clock, updated, {
          action: 'account.updated',
          details: { changed, ...(visibilityChanged ? { email_visible_to_committees: emailVisible } : {}) },
          ip: client.ip,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidField('email', EMAIL_TAKEN_MESSAGE);
      throw error;
    }
    return accountOf(updated);
  }

  return { readAccount, updateAccount };
}
