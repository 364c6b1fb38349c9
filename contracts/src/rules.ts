/**
 * The contracts' plain values and German messages, without zod: the web app's first bundle (auth
 * state, role checks) imports them from here and so loads no schema library (see decision 024).
 */

export const ROLE_NAMES = ['Admin', 'Super-Admin', 'Aufsichtsrat', 'Vertreter'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];
export const ADMIN_ROLES: readonly RoleName[] = ['Admin', 'Super-Admin'];
export const isAdmin = (roles: readonly string[]): boolean =>
  roles.some((role) => (ADMIN_ROLES as readonly string[]).includes(role));
/** Only a Super-Admin grants admin roles, empties the Papierkorb and manages API-Schlüssel. */
export const isSuperAdmin = (roles: readonly string[]): boolean => roles.includes('Super-Admin');

/** Root folder and the folders the first migration creates; never renamed, moved or deleted. */
export const ROOT_FOLDER_ID = 1;
export const PROTECTED_FOLDER_IDS: readonly number[] = [1, 2, 3, 4];

export const TITLE_OPTIONS = ['Herr', 'Frau'] as const;

export const MIN_NAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_TEXT_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 10_000;

export const msg = {
  required: (field: string) => `${field} ist erforderlich.`,
  min: (field: string, n: number) => `${field} muss mindestens ${n} Zeichen lang sein.`,
  max: (field: string, n: number) => `${field} darf höchstens ${n} Zeichen lang sein.`,
  email: 'Bitte eine gültige E-Mail-Adresse eingeben.',
  passwordMismatch: 'Die Passwörter stimmen nicht überein.',
  passwordCommon: 'Dieses Passwort ist zu verbreitet. Bitte ein anderes wählen.',
  passwordIsEmail: 'Das Passwort darf nicht die eigene E-Mail-Adresse sein.',
  invalidId: 'Ungültige ID.',
  invisibleCharacters: (field: string) =>
    `${field} enthält unsichtbare Steuerzeichen (Zeichen ohne Breite oder zur Schreibrichtung). Bitte entfernen Sie diese.`,
  mixedScripts: (field: string) =>
    `${field} mischt Buchstaben verschiedener Schriften (z. B. lateinisch und kyrillisch).`,
} as const;

// Sign-in messages: the login page shows them before any schema is loaded.
export const LOGIN_FAILED_MESSAGE =
  'Die eingegebenen Zugangsdaten sind nicht korrekt. Bitte versuchen Sie es erneut!';
export const FORGOT_PASSWORD_SUCCESS_MESSAGE =
  'Ein Link zum Zurücksetzen deines Passworts wurde dir gesendet.';
export const PASSWORD_RESET_SUCCESS_MESSAGE = 'Ihr Passwort wurde zurückgesetzt!';
/** After an invitation's link: the password is set and the new member is signed in. */
export const INVITATION_ACCEPTED_MESSAGE = 'Ihr Passwort ist festgelegt. Willkommen im Gremienportal!';
export const RESET_TOKEN_INVALID_MESSAGE =
  'Der Link zum Zurücksetzen ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.';
/** Login throttling (product.md P8.5): the window is one minute, so "a minute" is never too short. */
export const LOGIN_THROTTLED_MESSAGE =
  'Zu viele fehlgeschlagene Anmeldeversuche. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.';
/** Too many failures from one client address, whichever e-mail addresses it tried (10 minutes). */
export const LOGIN_CLIENT_THROTTLED_MESSAGE =
  'Zu viele fehlgeschlagene Anmeldeversuche von Ihrem Anschluss. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.';
/** More sign-ins of one client address at the same moment than it may still fail. */
export const LOGIN_CLIENT_CONCURRENT_MESSAGE =
  'Von Ihrem Anschluss laufen gerade zu viele Anmeldungen gleichzeitig. Bitte versuchen Sie es in einigen Sekunden erneut.';
/** Too many failures for one e-mail address from anywhere (one hour); said alike for unknown ones. */
export const LOGIN_ACCOUNT_THROTTLED_MESSAGE =
  'Zu viele fehlgeschlagene Anmeldeversuche für diese E-Mail-Adresse. Bitte versuchen Sie es später erneut oder setzen Sie Ihr Passwort zurück.';
/** Password checks are queued beyond a few seconds of work: sign-ins wait outside instead. */
export const LOGIN_BUSY_MESSAGE =
  'Die Anmeldung ist gerade stark ausgelastet. Bitte versuchen Sie es in einigen Sekunden erneut.';

/**
 * `code` of the 403 every call but the setup ones answers while a required second factor is not
 * set up (decision 126); here, without zod, because the first bundle's API client reacts to it.
 */
export const TWO_FACTOR_SETUP_REQUIRED = 'two_factor_setup_required';
