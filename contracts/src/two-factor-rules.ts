/**
 * The second factor's plain values and German messages, without zod (like rules.ts): the web
 * app's sign-in step imports them from here and so loads no schema library (decision 024).
 */

export { TWO_FACTOR_SETUP_REQUIRED } from './rules.ts';
export const RECOVERY_CODE_COUNT = 10;
/** The ways to confirm a sign-in: authenticator app, passkey, recovery code. */
export const TWO_FACTOR_METHODS = ['totp', 'webauthn', 'recovery'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];
/** How long "Diesem Gerät 30 Tage vertrauen" lasts. */
export const TRUSTED_DEVICE_DAYS = 30;

export const TWO_FACTOR_MESSAGES = {
  setupRequired:
    'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben. Bitte richten Sie sie ein, bevor Sie weiterarbeiten.',
  codeInvalid: 'Der Bestätigungscode ist nicht korrekt. Bitte versuchen Sie es erneut.',
  recoveryInvalid: 'Dieser Wiederherstellungscode ist ungültig oder wurde bereits verwendet.',
  challengeInvalid: 'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit Ihrem Passwort an.',
  noPendingSetup: 'Bitte starten Sie die Einrichtung der Authenticator-App erneut.',
  alreadyActive: 'Die Authenticator-App ist bereits eingerichtet.',
  notActive: 'Die Zwei-Faktor-Anmeldung ist nicht eingerichtet.',
  passwordWrong: 'Das Passwort ist nicht korrekt.',
  passkeyFailed: 'Der Passkey konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.',
  passkeyRegisterFailed: 'Der Passkey konnte nicht hinzugefügt werden. Bitte versuchen Sie es erneut.',
  passkeyExists: 'Dieser Passkey ist bereits eingerichtet.',
  noPasskey: 'Für dieses Konto ist kein Passkey eingerichtet.',
  passkeyLast:
    'Das ist Ihr einziger zweiter Faktor. Um die Zwei-Faktor-Anmeldung auszuschalten, wählen Sie „Ausschalten“.',
  passkeyNameTooLong: 'Der Name darf höchstens 60 Zeichen lang sein.',
  passkeyNameRequired: 'Bitte einen Namen für den Passkey angeben.',
  codeFormat: 'Bitte den 6-stelligen Code aus der Authenticator-App eingeben.',
  resetDone: 'Die Zwei-Faktor-Anmeldung wurde zurückgesetzt.',
  resetOwn: 'Nutzen Sie „Ausschalten“ in Ihrem Konto.',
  resetNeedsOwnFactor:
    'Bitte richten Sie zuerst Ihre eigene Zwei-Faktor-Anmeldung unter „Mein Account“ ein. Erst dann können Sie die eines anderen Kontos zurücksetzen.',
} as const;

/** The second step is locked after wrong codes: how long still, in whole minutes rounded up. */
export function twoFactorLockedMessage(secondsLeft: number): string {
  const minutes = Math.max(1, Math.ceil(secondsLeft / 60));
  const wait = minutes === 1 ? 'einer Minute' : `${minutes} Minuten`;
  return `Zu viele falsche Bestätigungscodes: Die Anmeldung für dieses Konto ist gesperrt. Bitte versuchen Sie es in ${wait} erneut.`;
}
