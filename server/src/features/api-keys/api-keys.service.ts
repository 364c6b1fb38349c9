import {
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@gremienportal/contracts/api-keys';
import type { AppContext } from '../../context.ts';
import { DAY } from '../../clock.ts';
import { AppError, notFound } from '../../errors.ts';
import { type Actor, principalLabel } from '../../plugins/auth.ts';
import { hashToken, newToken } from '../../credentials/tokens.ts';
import { auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { mayManageApiKeys } from '../../policies/api-key.policy.ts';
import * as repo from './api-keys.repository.ts';

function requireSuperAdmin(actor: Actor): void {
  if (!mayManageApiKeys(actor.principal)) {
    throw new AppError('forbidden', API_KEY_MESSAGES.superAdminOnly);
  }
}

/** The contract's order, whatever order the request named them in. */
const ordered = (scopes: readonly string[]) =>
  API_KEY_SCOPES.filter((scope) => scopes.includes(scope)) as ApiKeyScope[];

const toApiKey = (row: repo.ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scopes: ordered(row.scopes.split(',')),
  issued_by: principalLabel(row),
  created_at: row.created_at,
  expires_at: row.expires_at,
  last_used_at: row.last_used_at,
});

export function apiKeysService(ctx: AppContext) {
  const db = () => ctx.db.kysely;

  return {
    async list(actor: Actor): Promise<ApiKey[]> {
      requireSuperAdmin(actor);
      return (await repo.listKeys(db())).map(toApiKey);
    },

    /** A new key; its token is in this answer and nowhere else, ever. */
    async create(
      actor: Actor,
      body: { name: string; scopes: readonly ApiKeyScope[]; valid_days: number },
    ): Promise<CreatedApiKey> {
      requireSuperAdmin(actor);
      const token = `${API_KEY_PREFIX}${newToken()}`;
      const now = ctx.clock.now();
      const scopes = ordered(body.scopes);
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          const keyId = await repo.insertKey(trx, {
            userId: actor.principal.id,
            name: body.name,
            tokenHash: hashToken(token),
            scopes,
            createdAt: now.toISOString(),
            expiresAt: new Date(now.getTime() + body.valid_days * DAY).toISOString(),
          });
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'api_key', keyId, body.name),
            action: 'api_key.created',
            details: { scopes, valid_days: body.valid_days },
          });
          return keyId;
        });
      const created = await repo.findKey(db(), id);
      return { ...toApiKey(created!), token };
    },

    /** Stops the key at once, on every instance: the next request with it is unknown. */
    async revoke(actor: Actor, id: number): Promise<void> {
      requireSuperAdmin(actor);
      await db()
        .transaction()
        .execute(async (trx) => {
          const key = await repo.findKey(trx, id);
          if (!key) throw notFound(API_KEY_MESSAGES.notFound);
          await repo.deleteKey(trx, id);
          await recordAudit(trx, ctx.clock, {
            ...auditOn(actor, 'api_key', id, key.name),
            action: 'api_key.revoked',
          });
        });
    },
  };
}
