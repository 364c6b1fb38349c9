import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { composeMail } from '../../mail/compose.ts';
import type { Actor } from '../../plugins/auth.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import { clearSecondFactor, endAllSessions, secondFactorOf } from '../auth/auth.service.ts';
import { lockForChange } from './users.service.ts';

/**
 * A lost phone (issue 18): the office resets another account's second factor, with the rights of
 * any change to that account (an Admin cannot reset an Admin's or a Super-Admin's). Every session
 * of the account ends; the member sets the factor up again at the next sign-in if their role
 * requires it, and is mailed about the reset.
 */
export async function resetSecondFactor(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const { target } = await lockForChange(ctx, trx, actor, id);
    const account = await secondFactorOf(trx, id);
    if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
    await clearSecondFactor(trx, id);
    await endAllSessions(trx, id);
    await recordAudit(trx, ctx.clock, {
      ...auditBy(actor),
      action: 'user.two_factor_reset',
      objectType: 'user',
      objectId: id,
      objectLabel: `${target.firstname} ${target.lastname} <${target.email}>`,
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
}
