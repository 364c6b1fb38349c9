import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { errorMessage } from './api-client';

/**
 * The browser's passkey prompts (WebAuthn) through @simplewebauthn/browser, loaded only when a
 * prompt is opened: neither the login page nor the account page carries it in their first load.
 */
const load = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (all current ones can; very old ones cannot). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

export async function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await load();
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

export async function confirmWithPasskey(options: unknown): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await load();
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}

/** A prompt that ended without an answer: cancelled, timed out or refused by the device. */
export class PasskeyPromptError extends Error {
  override readonly name = 'PasskeyPromptError';
}

/** The German reason a prompt failed, from the error the browser (or the library) threw. */
export function passkeyPromptMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return 'Dieser Passkey ist bereits für Ihr Konto eingerichtet.';
  }
  if (name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED') {
    return 'Der Vorgang wurde abgebrochen oder hat zu lange gedauert. Bitte versuchen Sie es erneut.';
  }
  if (name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return 'Passkeys funktionieren nur unter der offiziellen Adresse des Portals.';
  }
  return 'Der Passkey konnte nicht verwendet werden. Bitte versuchen Sie es erneut oder nutzen Sie einen Code.';
}

/** Runs a prompt; a failure of the prompt itself becomes a PasskeyPromptError with a German text. */
export async function prompt<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new PasskeyPromptError(passkeyPromptMessage(error));
  }
}

/** The text for a failed passkey step: the prompt's own reason, else the server's answer. */
export const passkeyFailureText = (error: unknown, fallback: string): string =>
  error instanceof PasskeyPromptError ? error.message : errorMessage(error, fallback);
