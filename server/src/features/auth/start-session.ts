import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LoginResponse } from '@gremienportal/contracts/auth';
import type { AppContext } from '../../context.ts';
import { HOUR, MINUTE } from '../../clock.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { hashToken, newToken } from '../../credentials/tokens.ts';
import * as repo from './auth.repository.ts';
import type { Client } from './sign-in-limits.ts';

/**
 * Starts a session for a user whose credentials (and second factor) were checked: drops their
 * run-out sessions, records the sign-in and answers with the token.
 */
export async function startSession(
  ctx: AppContext,
  user: repo.UserCredentials,
  client: Client,
): Promise<LoginResponse> {
  const k = ctx.db.kysely;
  const token = newToken();
  const now = ctx.clock.now();
  const roles = await repo.roleNamesOf(k, user.id);
  // Turns for other requests before and after the transaction (decision 140).
  await nextTurn();
  await k.transaction().execute(async (trx) => {
    // Sessions of this user that ran out are never presented again; this keeps the table small.
    await repo.deleteExpiredSessionsOfUser(trx, user.id, {
      lastSeenBefore: new Date(now.getTime() - ctx.config.SESSION_IDLE_MINUTES * MINUTE).toISOString(),
      createdBefore: new Date(now.getTime() - ctx.config.SESSION_ABSOLUTE_HOURS * HOUR).toISOString(),
    });
    await repo.insertSession(trx, { userId: user.id, tokenHash: hashToken(token), now: now.toISOString() });
    await recordOwnAccountAudit(trx, ctx.clock, user, { action: 'auth.login', ip: client.ip });
  });
  await nextTurn();
  return {
    access_token: token,
    token_type: 'Bearer',
    user: {
      id: user.id,
      name: `${user.firstname} ${user.lastname}`,
      email: user.email,
      title: user.title,
      firstname: user.firstname,
      lastname: user.lastname,
      roles,
    },
  };
}
