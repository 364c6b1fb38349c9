import { z } from 'zod';
import { passwordField } from './fields.ts';
import { authUserSchema, loginResponseSchema } from './auth.ts';
import { currentPasswordField } from './account.ts';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_METHODS } from './two-factor-rules.ts';

/**
 * The second factor (decision 126): an authenticator app (TOTP, RFC 6238), passkeys (WebAuthn) and
 * single-use recovery codes; required for the roles in TWO_FACTOR_REQUIRED_ROLES.
 */
// The plain values and German messages live in two-factor-rules.ts, zod-free, so the web's sign-in
// step can show and compare them without loading a schema library (decision 024).
export {
  TWO_FACTOR_METHODS,
  type TwoFactorMethod,
  RECOVERY_CODE_COUNT,
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_MESSAGES,
  TWO_FACTOR_SETUP_REQUIRED,
  twoFactorLockedMessage,
} from './two-factor-rules.ts';

const codeField = z
  .string({ error: TWO_FACTOR_MESSAGES.codeFormat })
  .trim()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: TWO_FACTOR_MESSAGES.codeFormat }));
const recoveryCodeField = z
  .string({ error: TWO_FACTOR_MESSAGES.recoveryInvalid })
  .trim()
  .min(1, { error: TWO_FACTOR_MESSAGES.recoveryInvalid })
  .max(40, { error: TWO_FACTOR_MESSAGES.recoveryInvalid });
const challengeField = z
  .string({ error: TWO_FACTOR_MESSAGES.challengeInvalid })
  .min(16, { error: TWO_FACTOR_MESSAGES.challengeInvalid })
  .max(100, { error: TWO_FACTOR_MESSAGES.challengeInvalid });
/** A WebAuthn response as @simplewebauthn/browser returns it (checked by the server library). */
const webauthnResponseField = z.record(z.string(), z.unknown(), {
  error: TWO_FACTOR_MESSAGES.passkeyFailed,
});

/** First step's answer for an account with a second factor. */
export const twoFactorRequiredSchema = z.object({
  two_factor_required: z.literal(true),
  methods: z.array(z.enum(TWO_FACTOR_METHODS)),
  /** Interim token: ≤ 5 minutes, single use, grants nothing but the second step. */
  challenge: z.string(),
});
export type TwoFactorRequired = z.infer<typeof twoFactorRequiredSchema>;

/** `POST /auth/login`: signed in, or the second step is needed. */
export const loginResultSchema = z.union([loginResponseSchema, twoFactorRequiredSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

/**
 * `POST /auth/password-reset`: the password is set. Through an invitation's link the member is
 * signed in at once (`sign_in`, as after `POST /auth/login`: a session, or the second step when
 * the account already has a second factor); through a reset link they sign in themselves.
 */
export const passwordResetResultSchema = z.object({
  message: z.string(),
  sign_in: loginResultSchema.optional(),
});
export type PasswordResetResult = z.infer<typeof passwordResetResultSchema>;

/** Second step: exactly one of `code`, `recovery_code`. */
export const twoFactorBodySchema = z
  .object({
    challenge: challengeField,
    code: codeField.optional(),
    recovery_code: recoveryCodeField.optional(),
    trust_device: z.boolean().optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
    error: TWO_FACTOR_MESSAGES.codeFormat,
    path: ['code'],
  });
export type TwoFactorBody = z.infer<typeof twoFactorBodySchema>;

export const webauthnLoginOptionsBodySchema = z.object({ challenge: challengeField });
export const webauthnLoginBodySchema = z.object({
  challenge: challengeField,
  response: webauthnResponseField,
  trust_device: z.boolean().optional(),
});

/** What a finished second step answers: the sign-in's token, and a device token when asked. */
export const twoFactorLoginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  user: authUserSchema,
  /** Send it as `device_token` with the next sign-ins on this device (30 days). */
  device_token: z.string().optional(),
});

export const totpSetupResponseSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The QR code as SVG markup, made on the server. */
  qr_svg: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/**
 * Confirming the app with its first code; the password is asked again, also during the set-up a
 * role requires right after signing in (decision 147).
 */
export const totpConfirmBodySchema = z.object({ code: codeField, current_password: currentPasswordField });
export type TotpConfirmBody = z.infer<typeof totpConfirmBodySchema>;
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** Turning the second factor off: the password and a current code (or recovery code) or a passkey. */
export const disableTwoFactorBodySchema = z
  .object({
    password: passwordField(),
    code: codeField.optional(),
    recovery_code: recoveryCodeField.optional(),
    webauthn: webauthnResponseField.optional(),
  })
  .refine(
    (body) => body.code !== undefined || body.recovery_code !== undefined || body.webauthn !== undefined,
    {
      error: TWO_FACTOR_MESSAGES.codeFormat,
      path: ['code'],
    },
  );
export type DisableTwoFactorBody = z.infer<typeof disableTwoFactorBodySchema>;

/**
 * `DELETE /user/{id}/two-factor` (decision 146): the acting admin confirms with their own second
 * factor: a current code of their app, one of their recovery codes, or their passkey's answer to
 * the prompt of `POST /account/two-factor/webauthn/confirm-options`.
 */
export const resetTwoFactorBodySchema = z
  .object({
    code: codeField.optional(),
    recovery_code: recoveryCodeField.optional(),
    webauthn: webauthnResponseField.optional(),
  })
  .refine(
    (body) => body.code !== undefined || body.recovery_code !== undefined || body.webauthn !== undefined,
    { error: TWO_FACTOR_MESSAGES.codeFormat, path: ['code'] },
  );
export type ResetTwoFactorBody = z.infer<typeof resetTwoFactorBodySchema>;

/** Options for the browser's passkey prompt (`navigator.credentials.create/get`, as JSON). */
export const webauthnOptionsSchema = z
  .record(z.string(), z.unknown())
  .describe('PublicKeyCredentialCreationOptionsJSON bzw. PublicKeyCredentialRequestOptionsJSON');

/**
 * Adding a passkey, step 1: the password is asked before the browser's prompt opens, so that no
 * passkey is made on the device for a refused password; step 2 takes only the answer to a prompt
 * opened this way (decision 147).
 */
export const passkeyOptionsBodySchema = z.object({ current_password: currentPasswordField });
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBodySchema>;

export const passkeyRegistrationBodySchema = z.object({
  name: z
    .string({ error: TWO_FACTOR_MESSAGES.passkeyNameRequired })
    .trim()
    .min(1, { error: TWO_FACTOR_MESSAGES.passkeyNameRequired })
    .max(60, { error: TWO_FACTOR_MESSAGES.passkeyNameTooLong }),
  response: webauthnResponseField,
});
export type PasskeyRegistrationBody = z.infer<typeof passkeyRegistrationBodySchema>;

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** A passkey added; the recovery codes only when it was the account's first second factor. */
export const passkeyRegistrationResponseSchema = z.object({
  passkey: passkeySchema,
  recovery_codes: z.array(z.string()),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;

export const trustedDeviceSchema = z.object({
  id: z.number().int(),
  label: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type TrustedDevice = z.infer<typeof trustedDeviceSchema>;

/** Part of GET /account. */
export const twoFactorStatusSchema = z.object({
  totp: z.boolean(),
  webauthn: z.number().int(),
  recovery_codes_left: z.number().int(),
  /** The member's roles require a second factor. */
  required: z.boolean(),
  passkeys: z.array(passkeySchema),
  trusted_devices: z.array(trustedDeviceSchema),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
