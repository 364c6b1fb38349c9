import { TWO_FACTOR_MESSAGES, type ResetTwoFactorBody } from '@gremienportal/contracts/two-factor';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { composeMail } from '../../mail/compose.ts';
import type { Actor } from '../../plugins/auth.ts';
import { auditOn, recordAudit } from '../audit/audit-log.service.ts';
import { endAllSessions } from '../auth/auth.service.ts';
import { secondFactorService } from './second-factor.service.ts';
import * as repo from './two-factor.repository.ts';
import { auditingKeyRefusals, lockForChange } from '../users/users.service.ts';

/**
 * A lost phone (decision 126): the office resets another account's second factor, with the rights of
 * any change to that account (an Admin cannot reset an Admin's or a Super-Admin's). Every session
 * of the account ends; the member sets the factor up again at the next sign-in if their role
 * requires it, and is mailed about the reset.
 *
 * Decision 146: a stolen session alone must not remove a second factor. One's own is turned off
 * under "Mein Account" (password and code); another account's needs the acting admin's own second
 * factor: a current code, a recovery code, or a passkey's answer to the confirm prompt. Wrong
 * proofs count toward the admin's own lock (second-factor.service.ts).
 */
export async function resetSecondFactor(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: ResetTwoFactorBody,
): Promise<void> {
  if (actor.principal.id === id) throw new AppError('conflict', TWO_FACTOR_MESSAGES.resetOwn);
  await auditingKeyRefusals(ctx, actor, async () => {
    // First the rights and whether there is anything to reset, then the admin's proof: the proof
    // is checked outside a transaction (the counters and a spent code must stay spent), so the
    // write below checks the rights again on locked rows.
    await ctx.db.kysely.transaction().execute(async (trx) => {
      await lockForChange(ctx, trx, actor, id, 'user.two_factor_reset');
      const account = await repo.secondFactorOf(trx, id);
      if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
    });
    await verifyActorsSecondFactor(ctx, actor, body);
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const { target } = await lockForChange(ctx, trx, actor, id, 'user.two_factor_reset');
      const account = await repo.secondFactorOf(trx, id);
      if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
      await repo.clearSecondFactor(trx, id);
      await endAllSessions(trx, id);
      await recordAudit(trx, ctx.clock, {
        ...auditOn(actor, 'user', id, `${target.firstname} ${target.lastname} <${target.email}>`),
        action: 'user.two_factor_reset',
      });
      await enqueueMail(
        trx,
        ctx.clock,
        composeMail({
          to: target.email,
          subject: 'Zwei-Faktor-Anmeldung zurückgesetzt – Gremienportal',
          recipient: target,
          blocks: [
            {
              kind: 'paragraph',
              lines: [
                'die Geschäftsstelle hat die Zwei-Faktor-Anmeldung Ihres Kontos zurückgesetzt, etwa weil Ihr Telefon verloren ging. Ihre Sitzungen wurden beendet.',
              ],
            },
            {
              kind: 'facts',
              rows: [['Zurückgesetzt von', `${actor.principal.firstname} ${actor.principal.lastname}`]],
            },
            {
              kind: 'paragraph',
              lines: [
                'Bitte melden Sie sich neu an und richten Sie die Zwei-Faktor-Anmeldung unter „Mein Account“ wieder ein.',
              ],
            },
            {
              kind: 'paragraph',
              lines: [
                'Wenn Sie das nicht veranlasst haben, wenden Sie sich bitte sofort an die Geschäftsstelle.',
              ],
            },
          ],
        }),
      );
    });
  });
}

/** The acting admin's own code, recovery code or passkey; 403 without any, 422 when wrong. */
async function verifyActorsSecondFactor(ctx: AppContext, actor: Actor, body: ResetTwoFactorBody) {
  const own = await repo.secondFactorOf(ctx.db.kysely, actor.principal.id);
  if (!own?.two_factor_enabled) throw forbidden(TWO_FACTOR_MESSAGES.resetNeedsOwnFactor);
  await secondFactorService(ctx).confirmOwnFactor(actor.principal.id, body);
}
