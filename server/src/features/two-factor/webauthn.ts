import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/**
 * SimpleWebAuthn with its certificate parsers is a large part of loading the portal; only a
 * passkey ceremony needs it, so the first one loads it (decision 126 gives the figures).
 */
let library:
  | Promise<typeof import('@simplewebauthn/server') & typeof import('@simplewebauthn/server/helpers')>
  | undefined;
const simpleWebAuthn = () =>
  (library ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(
    ([server, helpers]) => ({ ...server, ...helpers }),
  ));

/**
 * Passkeys and security keys (WebAuthn) through SimpleWebAuthn. The relying party is the host of
 * PUBLIC_URL: a passkey made for the portal's address works only there (phishing-resistant).
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Gremienportal' };
}

/** Prompt options as JSON for the browser (an API answer is a plain object). */
export type CreationOptions = PublicKeyCredentialCreationOptionsJSON & Record<string, unknown>;
export type RequestOptions = PublicKeyCredentialRequestOptionsJSON & Record<string, unknown>;

/** A stored passkey as the checks need it. */
export interface StoredPasskey {
  credential_id: string;
  public_key: string;
  counter: number | string | bigint;
  transports: string | null;
}

/** A passkey as registration yields it, ready to store. */
export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string | null;
}

/** The prompt asks for the device's lock (PIN, fingerprint) when it has one, but does not insist. */
const USER_VERIFICATION = 'preferred';
const TIMEOUT_MS = 120_000;

const transportsOf = (stored: StoredPasskey) =>
  stored.transports ? (JSON.parse(stored.transports) as string[]) : undefined;

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: number; email: string; displayName: string },
  existing: readonly StoredPasskey[],
): Promise<CreationOptions> {
  const { generateRegistrationOptions } = await simpleWebAuthn();
  return (await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.displayName,
    // A stable handle that is not the e-mail address: the same person on every device.
    userID: new TextEncoder().encode(`gremienportal-user-${user.id}`),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credential_id, transports: transportsOf(key) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: USER_VERIFICATION },
  })) as CreationOptions;
}

/** The new passkey, or null when the response does not prove one for this challenge and origin. */
export async function verifyRegistration(
  rp: RelyingParty,
  response: unknown,
  expectedChallenge: string,
): Promise<NewPasskey | null> {
  const { verifyRegistrationResponse, isoBase64URL } = await simpleWebAuthn();
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ? JSON.stringify(credential.transports) : null,
    };
  } catch {
    // A malformed or forged response is a failed check, not a server error.
    return null;
  }
}

export async function authenticationOptions(
  rp: RelyingParty,
  passkeys: readonly StoredPasskey[],
): Promise<RequestOptions> {
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  return (await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: TIMEOUT_MS,
    userVerification: USER_VERIFICATION,
    allowCredentials: passkeys.map((key) => ({ id: key.credential_id, transports: transportsOf(key) })),
  })) as RequestOptions;
}

/** The credential id a sign-in response names (to find the stored passkey), if it names one. */
export function credentialIdOf(response: unknown): string | null {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 1400 ? id : null;
}

/** The passkey's new signature counter, or null when the response does not prove it. */
export async function verifyAssertion(
  rp: RelyingParty,
  response: unknown,
  expectedChallenge: string,
  stored: StoredPasskey,
): Promise<number | null> {
  const { verifyAuthenticationResponse, isoBase64URL } = await simpleWebAuthn();
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: stored.credential_id,
        publicKey: isoBase64URL.toBuffer(stored.public_key),
        counter: Number(stored.counter),
        transports: transportsOf(stored) as never,
      },
      requireUserVerification: false,
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
