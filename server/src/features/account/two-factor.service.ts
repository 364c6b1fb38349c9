import {
  TWO_FACTOR_MESSAGES,
  type DisableTwoFactorBody,
  type TotpSetupResponse,
  type TwoFactorStatus,
} from '@gremienportal/contracts/two-factor';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { verifyPassword } from '../../passwords.ts';
import type { Actor, Principal } from '../../plugins/auth.ts';
import { newRecoveryCodes } from '../../second-factor/recovery-codes.ts';
import { newTotpSecret, totpQrSvg, totpStep, totpUri } from '../../second-factor/totp.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import {
  clearSecondFactor,
  endOtherSessions,
  recoveryCodesLeft,
  secondFactorOf,
  verifySecondFactor,
} from '../auth/auth.service.ts';
import { requiresSecondFactor } from '../../policies/two-factor.policy.ts';
import * as repo from './two-factor.repository.ts';
import { twoFactorChangedMail } from './two-factor.mails.ts';

/**
 * Setting up and turning off one's own second factor (issue 18). Each change ends the account's
 * other sessions, is audited and mailed, in one transaction.
 */
export function twoFactorService(ctx: AppContext) {
  const k = () => ctx.db.kysely;

  async function recordChange(
    actor: Actor,
    action: 'account.two_factor_enabled' | 'account.two_factor_disabled' | 'account.recovery_codes_renewed',
    mail: 'enabled' | 'disabled' | 'renewed',
    work: (trx: Transaction<Database>) => Promise<void>,
  ) {
    await k()
      .transaction()
      .execute(async (trx) => {
        await work(trx);
        await endOtherSessions(trx, actor.principal);
        await recordOwnAccountAudit(trx, ctx.clock, actor.principal, { action, ip: actor.ip });
        await enqueueMail(trx, ctx.clock, twoFactorChangedMail(actor.principal, mail));
      });
  }

  return {
    /** What GET /account shows of the second factor. */
    async status(principal: Principal): Promise<TwoFactorStatus> {
      const now = ctx.clock.now().toISOString();
      const [account, passkeys, devices, left] = await Promise.all([
        secondFactorOf(k(), principal.id),
        repo.passkeysOf(k(), principal.id),
        repo.trustedDevicesOf(k(), principal.id, now),
        recoveryCodesLeft(k(), principal.id),
      ]);
      return {
        totp: Boolean(account?.totp_secret),
        webauthn: passkeys.length,
        recovery_codes_left: left,
        required: requiresSecondFactor(ctx.config, principal.roles),
        passkeys,
        trusted_devices: devices,
      };
    },

    /** A new seed, pending until a code from it confirms it. */
    async startTotp(principal: Principal): Promise<TotpSetupResponse> {
      const account = await secondFactorOf(k(), principal.id);
      if (account?.totp_secret) throw new AppError('conflict', TWO_FACTOR_MESSAGES.alreadyActive);
      const secret = newTotpSecret();
      await repo.setPendingTotp(k(), principal.id, ctx.secrets.seal(secret));
      const uri = totpUri(secret, principal.email);
      return { secret, otpauth_url: uri, qr_svg: await totpQrSvg(uri) };
    },

    /** The first code makes the seed active and yields the recovery codes, shown this once. */
    async confirmTotp(actor: Actor, code: string): Promise<string[]> {
      const account = await secondFactorOf(k(), actor.principal.id);
      if (account?.totp_secret) throw new AppError('conflict', TWO_FACTOR_MESSAGES.alreadyActive);
      if (!account?.totp_pending) throw new AppError('conflict', TWO_FACTOR_MESSAGES.noPendingSetup);
      const step = await totpStep(ctx.secrets.open(account.totp_pending), code, ctx.clock.now(), null);
      if (step === null) throw invalidField('code', TWO_FACTOR_MESSAGES.codeInvalid);
      const codes = newRecoveryCodes();
      await recordChange(actor, 'account.two_factor_enabled', 'enabled', async (trx) => {
        await repo.activateTotp(trx, actor.principal.id, account.totp_pending!, step);
        await repo.replaceRecoveryCodes(trx, actor.principal.id, codes);
      });
      return codes;
    },

    /** New recovery codes; the old ones stop working. */
    async renewRecoveryCodes(actor: Actor): Promise<string[]> {
      const account = await secondFactorOf(k(), actor.principal.id);
      if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
      const codes = newRecoveryCodes();
      await recordChange(actor, 'account.recovery_codes_renewed', 'renewed', (trx) =>
        repo.replaceRecoveryCodes(trx, actor.principal.id, codes),
      );
      return codes;
    },

    /** "Diesem Gerät vertrauen" ends for one device: its next sign-in asks for the code again. */
    async forgetDevice(principal: Principal, id: number): Promise<void> {
      if (!(await repo.deleteTrustedDevice(k(), principal.id, id))) throw notFound();
    },

    /** Off with the password and a current code: seeds, passkeys, codes and trusted devices go. */
    async disable(actor: Actor, body: DisableTwoFactorBody): Promise<void> {
      const account = await secondFactorOf(k(), actor.principal.id);
      if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
      const passwordHash = await repo.passwordHashOf(k(), actor.principal.id);
      if (!passwordHash || !(await verifyPassword(passwordHash, body.password))) {
        throw invalidField('password', TWO_FACTOR_MESSAGES.passwordWrong);
      }
      if (!(await verifySecondFactor(ctx, actor.principal.id, body))) {
        throw invalidField(
          body.code !== undefined ? 'code' : 'recovery_code',
          TWO_FACTOR_MESSAGES.codeInvalid,
        );
      }
      await recordChange(actor, 'account.two_factor_disabled', 'disabled', async (trx) => {
        await clearSecondFactor(trx, actor.principal.id);
      });
    },
  };
}
