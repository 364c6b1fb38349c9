import { z } from 'zod';
import { dataOf, titleText } from './common.ts';

/*
 * API-Schlüssel for technical accounts (decision 136): long-lived bearer tokens a
 * Super-Admin issues for another system (the member administration's import, an archive). A key
 * acts with its issuer's current rights, narrowed to its scopes; it never reaches the personal
 * routes (account, sign-in, read state, one's own answers).
 */

export const API_KEY_SCOPES = [
  'nutzer:lesen',
  'nutzer:schreiben',
  'inhalte:lesen',
  'inhalte:schreiben',
  'protokoll:lesen',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What the administration page says about each scope. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'nutzer:lesen': 'Nutzer und Rollen lesen',
  'nutzer:schreiben': 'Nutzer anlegen, ändern, einladen und löschen',
  'inhalte:lesen': 'Ordner, Dokumente, Events und Suche lesen, Dateien herunterladen',
  'inhalte:schreiben': 'Ordner, Dokumente und Events anlegen, ändern und löschen',
  'protokoll:lesen': 'Aktivitäten lesen und exportieren',
};

/** Every token of a key starts so: log scanners and secret scanners can recognise it. */
export const API_KEY_PREFIX = 'gpk_';

export const API_KEY_VALID_DAYS = { default: 365, max: 730 } as const;

export const API_KEY_MESSAGES = {
  scopesRequired: 'Bitte mindestens eine Berechtigung wählen.',
  scopeInvalid: 'Diese Berechtigung gibt es nicht.',
  scopesDuplicate: 'Jede Berechtigung bitte nur einmal angeben.',
  validDays: `Bitte eine Gültigkeit von 1 bis ${API_KEY_VALID_DAYS.max} Tagen angeben.`,
  superAdminOnly: 'API-Schlüssel verwalten nur Super-Admins.',
  created: 'API-Schlüssel angelegt. Der Schlüssel wird nur jetzt angezeigt.',
  revoked: 'API-Schlüssel widerrufen.',
  notFound: 'Der API-Schlüssel wurde nicht gefunden.',
  outOfScope: 'Dieser API-Schlüssel hat keine Berechtigung für diese Anfrage.',
  adminAccountsOutOfReach:
    'Ein API-Schlüssel vergibt oder entzieht nie die Rollen Admin und Super-Admin und ändert keine Konten von Admins oder Super-Admins. Bitte melden Sie sich dafür persönlich an.',
} as const;

const scopeField = z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.scopeInvalid });

/** `POST /api-keys`. */
export const createApiKeyBodySchema = z.strictObject({
  name: titleText('Name', 3, 100),
  scopes: z
    .array(scopeField, { error: API_KEY_MESSAGES.scopesRequired })
    .min(1, { error: API_KEY_MESSAGES.scopesRequired })
    .max(API_KEY_SCOPES.length, { error: API_KEY_MESSAGES.scopesDuplicate })
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: API_KEY_MESSAGES.scopesDuplicate }),
  valid_days: z
    .number({ error: API_KEY_MESSAGES.validDays })
    .int({ error: API_KEY_MESSAGES.validDays })
    .min(1, { error: API_KEY_MESSAGES.validDays })
    .max(API_KEY_VALID_DAYS.max, { error: API_KEY_MESSAGES.validDays })
    .default(API_KEY_VALID_DAYS.default),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

/** A key as the list shows it; the token itself is never shown again. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(scopeField),
  /** Who issued it: the key acts with this person's rights. */
  issued_by: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListResponseSchema = dataOf(z.array(apiKeySchema));

/** The answer to `POST /api-keys`: the only time the token is shown. */
export const createdApiKeyResponseSchema = z.object({
  message: z.string(),
  data: apiKeySchema.extend({ token: z.string() }),
});
export type CreatedApiKey = z.infer<typeof createdApiKeyResponseSchema>['data'];
