import {
  TWO_FACTOR_MESSAGES,
  type DisableTwoFactorBody,
  type PasskeyOptionsBody,
  type PasskeyRegistrationBody,
  type PasskeyRegistrationResponse,
  type TotpConfirmBody,
  type TotpSetupResponse,
  type TwoFactorStatus,
} from '@gremienportal/contracts/two-factor';
import { CURRENT_PASSWORD_WRONG_MESSAGE } from '@gremienportal/contracts/account';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { newRecoveryCodes } from './recovery-codes.ts';
import { newTotpSecret, totpQrSvg, totpStep, totpUri } from './totp.ts';
import { registrationOptions, relyingParty, verifyRegistration } from './webauthn.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { endOtherSessions, recheckPassword } from '../auth/auth.service.ts';
import { secondFactorService } from './second-factor.service.ts';
import { requiresSecondFactor } from '../../policies/two-factor.policy.ts';
import * as repo from './two-factor.repository.ts';
import { twoFactorChangedMail } from './two-factor.mails.ts';

/** Where a wrong password is shown when a second factor is added (decision 147). */
const CURRENT_PASSWORD = { field: 'current_password', message: CURRENT_PASSWORD_WRONG_MESSAGE };

/**
 * Setting up and turning off one's own second factor (decision 126). Each change ends the account's
 * other sessions, is audited and mailed, in one transaction. Adding a factor and turning it off
 * ask for the password again (decision 147): a stolen session must not lock the owner out.
 */
export function twoFactorService(ctx: AppContext) {
  const k = () => ctx.db.kysely;

  const secondFactor = secondFactorService(ctx);
  const rp = relyingParty(ctx.config.PUBLIC_URL);

  async function recordChange(
    actor: Actor,
    action:
      | 'account.two_factor_enabled'
      | 'account.two_factor_disabled'
      | 'account.recovery_codes_renewed'
      | 'account.passkey_added'
      | 'account.passkey_removed',
    mail: Parameters<typeof twoFactorChangedMail>[1],
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
      const required = requiresSecondFactor(ctx.config, principal.roles);
      // Without a second factor there is no seed, passkey, recovery code or trusted device
      // (turning it off deletes them all): most members' account page costs no query (decision 137).
      if (!principal.twoFactorEnabled) {
        return {
          totp: false,
          webauthn: 0,
          recovery_codes_left: 0,
          required,
          passkeys: [],
          trusted_devices: [],
        };
      }
      const now = ctx.clock.now().toISOString();
      const [account, passkeys, devices, left] = await Promise.all([
        repo.secondFactorOf(k(), principal.id),
        repo.passkeysOf(k(), principal.id),
        repo.trustedDevicesOf(k(), principal.id, now),
        repo.recoveryCodesLeft(k(), principal.id),
      ]);
      return {
        totp: Boolean(account?.totp_secret),
        webauthn: passkeys.length,
        recovery_codes_left: left,
        required,
        passkeys,
        trusted_devices: devices,
      };
    },

    /** A new seed, pending until a code from it confirms it. */
    async startTotp(principal: Principal): Promise<TotpSetupResponse> {
      const account = await repo.secondFactorOf(k(), principal.id);
      if (account?.totp_secret) throw new AppError('conflict', TWO_FACTOR_MESSAGES.alreadyActive);
      const secret = newTotpSecret();
      await repo.setPendingTotp(k(), principal.id, ctx.secrets.seal(secret));
      const uri = totpUri(secret, principal.email);
      return { secret, otpauth_url: uri, qr_svg: await totpQrSvg(uri) };
    },

    /**
     * The first code, with the password, makes the seed active and yields the recovery codes,
     * shown this once.
     */
    async confirmTotp(actor: Actor, body: TotpConfirmBody): Promise<string[]> {
      const account = await repo.secondFactorOf(k(), actor.principal.id);
      if (account?.totp_secret) throw new AppError('conflict', TWO_FACTOR_MESSAGES.alreadyActive);
      if (!account?.totp_pending) throw new AppError('conflict', TWO_FACTOR_MESSAGES.noPendingSetup);
      await recheckPassword(ctx, actor, body.current_password, CURRENT_PASSWORD);
      const step = await totpStep(ctx.secrets.open(account.totp_pending), body.code, ctx.clock.now(), null);
      if (step === null) throw invalidField('code', TWO_FACTOR_MESSAGES.codeInvalid);
      // Recovery codes come with the first second factor; a passkey may have brought them already.
      const codes = account.two_factor_enabled ? [] : newRecoveryCodes();
      await recordChange(actor, 'account.two_factor_enabled', 'enabled', async (trx) => {
        await repo.activateTotp(trx, actor.principal.id, account.totp_pending!, step);
        if (codes.length > 0) await repo.replaceRecoveryCodes(trx, actor.principal.id, codes);
      });
      return codes;
    },

    /**
     * The browser's prompt to make a passkey for the portal (registration options), after the
     * password: the registration takes only the answer to this prompt.
     */
    async passkeyOptions(actor: Actor, body: PasskeyOptionsBody) {
      const { principal } = actor;
      await recheckPassword(ctx, actor, body.current_password, CURRENT_PASSWORD);
      const options = await registrationOptions(
        rp,
        {
          id: principal.id,
          email: principal.email,
          displayName: `${principal.firstname} ${principal.lastname}`,
        },
        await repo.passkeysForCheck(k(), principal.id),
      );
      await secondFactor.openPrompt(principal.id, 'register', options.challenge);
      return options;
    },

    /**
     * The prompt's answer becomes a passkey of the account. The first second factor of the account
     * turns the second step on and yields the recovery codes, shown this once.
     */
    async addPasskey(actor: Actor, body: PasskeyRegistrationBody): Promise<PasskeyRegistrationResponse> {
      const userId = actor.principal.id;
      const challenge = await secondFactor.takePrompt(userId, 'register');
      const key = challenge ? await verifyRegistration(rp, body.response, challenge) : null;
      if (!key) throw invalidField('response', TWO_FACTOR_MESSAGES.passkeyRegisterFailed);
      if (await repo.passkeyExists(k(), key.credentialId)) {
        throw new AppError('conflict', TWO_FACTOR_MESSAGES.passkeyExists);
      }
      const account = await repo.secondFactorOf(k(), userId);
      const first = !account?.two_factor_enabled;
      const codes = first ? newRecoveryCodes() : [];
      const now = ctx.clock.now().toISOString();
      let id = 0;
      await recordChange(
        actor,
        first ? 'account.two_factor_enabled' : 'account.passkey_added',
        first ? 'enabled' : 'passkey_added',
        async (trx) => {
          id = await repo.insertPasskey(trx, { userId, name: body.name, now, ...key });
          if (first) {
            await repo.enableSecondFactor(trx, userId);
            await repo.replaceRecoveryCodes(trx, userId, codes);
          }
        },
      );
      return { passkey: { id, name: body.name, created_at: now, last_used_at: null }, recovery_codes: codes };
    },

    /** Removes one passkey; the only second factor left is turned off with "Ausschalten" instead. */
    async removePasskey(actor: Actor, id: number): Promise<void> {
      const userId = actor.principal.id;
      const [account, passkeys] = await Promise.all([
        repo.secondFactorOf(k(), userId),
        repo.passkeysOf(k(), userId),
      ]);
      if (!passkeys.some((key) => key.id === id)) throw notFound();
      if (!account?.totp_secret && passkeys.length === 1) {
        throw new AppError('conflict', TWO_FACTOR_MESSAGES.passkeyLast);
      }
      await recordChange(actor, 'account.passkey_removed', 'passkey_removed', async (trx) => {
        await repo.deletePasskey(trx, userId, id);
      });
    },

    /** A passkey prompt that confirms turning the second factor off. */
    confirmOptions: (principal: Principal) => secondFactor.confirmPasskeyOptions(principal.id),

    /** New recovery codes; the old ones stop working. */
    async renewRecoveryCodes(actor: Actor): Promise<string[]> {
      const account = await repo.secondFactorOf(k(), actor.principal.id);
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
      const account = await repo.secondFactorOf(k(), actor.principal.id);
      if (!account?.two_factor_enabled) throw new AppError('conflict', TWO_FACTOR_MESSAGES.notActive);
      await recheckPassword(ctx, actor, body.password, {
        field: 'password',
        message: TWO_FACTOR_MESSAGES.passwordWrong,
      });
      await secondFactor.confirmOwnFactor(actor.principal.id, body);
      await recordChange(actor, 'account.two_factor_disabled', 'disabled', async (trx) => {
        await repo.clearSecondFactor(trx, actor.principal.id);
      });
    },
  };
}
