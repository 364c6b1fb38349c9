import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import { issuePasswordLink } from '../../db/password-links.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { principalLabel, type Actor } from '../../plugins/auth.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import { invitationMail } from './users.mails.ts';
import { insertUser } from './users.repository.ts';

export interface InvitedPerson {
  /** Herr, Frau, or empty (the mails then greet neutrally). */
  title: string;
  firstname: string;
  lastname: string;
  /** Lower case; the caller made sure no account has it. */
  email: string;
}

/**
 * An account without direct roles, invited by mail, in the caller's transaction: for the member
 * import, whose memberships give the roles (decision 189). Audited as a user creation.
 */
export async function createInvitedAccount(
  ctx: AppContext,
  trx: Transaction<Database>,
  actor: Actor,
  person: InvitedPerson,
): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const id = await insertUser(trx, { ...person, password_hash: null, created_at: now, updated_at: now });
  const link = await issuePasswordLink(trx, ctx, id, 'invite');
  await enqueueMail(trx, ctx.clock, invitationMail(person, link, ctx.config.PUBLIC_URL));
  const label = principalLabel(person);
  for (const action of ['user.created', 'user.invited']) {
    await recordAudit(trx, ctx.clock, {
      ...auditBy(actor),
      objectType: 'user',
      objectId: id,
      objectLabel: label,
      action,
      ...(action === 'user.created' ? { details: { roles: [], import: true } } : {}),
    });
  }
  return id;
}
