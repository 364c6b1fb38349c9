import { z } from 'zod';
import { dataOf } from './common.ts';

/*
 * Benachrichtigungen nach Wunsch (decision 131): the admin's "Benachrichtigung an"
 * decides who is told about a new document or event; each member decides how often.
 */

export const NOTIFICATION_FREQUENCIES = ['sofort', 'taeglich', 'woechentlich', 'nie'] as const;
export type NotificationFrequency = (typeof NOTIFICATION_FREQUENCIES)[number];

/** What the account page's choices say. */
export const NOTIFICATION_FREQUENCY_LABELS: Record<NotificationFrequency, string> = {
  sofort: 'Sofort (eine E-Mail je Eintrag)',
  taeglich: 'Täglich (eine Zusammenfassung um 7 Uhr)',
  woechentlich: 'Wöchentlich (eine Zusammenfassung montags um 7 Uhr)',
  nie: 'Nie',
};

/** A new account's settings. */
export const NOTIFICATION_DEFAULTS = { files: 'taeglich', events: 'sofort' } as const satisfies Record<
  string,
  NotificationFrequency
>;

/** Digests leave at this hour (Europe/Berlin); weekly ones on Mondays. */
export const DIGEST_HOUR = 7;

export const NOTIFICATION_MESSAGES = {
  title: 'Benachrichtigungen',
  filesLabel: 'Neue Dokumente',
  eventsLabel: 'Neue oder geänderte Events',
  intro:
    'Wer benachrichtigt wird, legt die Geschäftsstelle je Dokument oder Event fest. Hier wählen Sie, wie oft Sie diese E-Mails erhalten.',
  saved: 'Benachrichtigungen gespeichert',
  saveFailed: 'Die Benachrichtigungen konnten nicht gespeichert werden.',
  frequencyInvalid: 'Bitte sofort, täglich, wöchentlich oder nie wählen.',
} as const;

export const notificationFrequencyField = z.enum(NOTIFICATION_FREQUENCIES, {
  error: NOTIFICATION_MESSAGES.frequencyInvalid,
});

/** The signed-in member's settings, as `GET /account/notifications` answers them. */
export const notificationSettingsSchema = z.object({
  files: notificationFrequencyField,
  events: notificationFrequencyField,
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const notificationSettingsResponseSchema = dataOf(notificationSettingsSchema);

/** `PUT /account/notifications`: both choices; other keys are refused. */
export const putNotificationSettingsBodySchema = z.strictObject({
  files: notificationFrequencyField,
  events: notificationFrequencyField,
});
export type PutNotificationSettingsBody = z.infer<typeof putNotificationSettingsBodySchema>;

export const putNotificationSettingsResponseSchema = z.object({
  message: z.string(),
  data: notificationSettingsSchema,
});
