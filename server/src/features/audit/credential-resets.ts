import type { Kysely, Transaction } from 'kysely';
import { HOUR } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { parseDetails } from './audit-log.service.ts';
import { entriesAboutUserByOthers } from './audit.repository.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** What somebody else changed of an account's credentials. */
export type CredentialResetKind = 'email_changed' | 'two_factor_reset' | 'password_reset';

export interface CredentialReset {
  kind: CredentialResetKind;
  at: string;
  /** Who did it, as the audit log names them; null for the operator's command line. */
  actor: { id: number | null; label: string | null };
  /** The audit entry it comes from. */
  auditId: number;
}

const KIND_BY_ACTION: Record<string, CredentialResetKind> = {
  'user.updated': 'email_changed',
  'user.two_factor_reset': 'two_factor_reset',
  'auth.reset_completed': 'password_reset',
};

/**
 * Decision 146: changes of an account's credentials by somebody else (its e-mail address, its
 * second factor, its password) within `withinHours` before `at`, oldest first. The audit view of a
 * vote or a signature shows them beside it: an administrator who moved a member's account to an
 * address of their own and reset its second factor could otherwise vote or sign as that member
 * unnoticed.
 */
export async function credentialResetsBefore(
  db: Executor,
  userId: number,
  at: Date | string,
  withinHours: number,
): Promise<CredentialReset[]> {
  const until = new Date(at);
  const from = new Date(until.getTime() - withinHours * HOUR);
  const rows = await entriesAboutUserByOthers(
    db,
    userId,
    Object.keys(KIND_BY_ACTION),
    from.toISOString(),
    until.toISOString(),
  );
  return rows.flatMap((row) => {
    // A change of name or title alone is no credential.
    if (row.action === 'user.updated') {
      const changed = parseDetails(row.details)?.changed;
      if (!Array.isArray(changed) || !changed.includes('email')) return [];
    }
    return [
      {
        kind: KIND_BY_ACTION[row.action]!,
        at: row.at,
        actor: { id: row.actor_id, label: row.actor_label },
        auditId: row.id,
      },
    ];
  });
}
