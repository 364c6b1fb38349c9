import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountSchema,
  updateAccountBodySchema,
  updateAccountResponseSchema,
} from '@gremienportal/contracts/account';
import { dataOf, errorBodySchema } from '@gremienportal/contracts/common';
import { ownMembershipSchema } from '@gremienportal/contracts/committees';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { accountService } from './account.service.ts';
import { twoFactorService } from '../two-factor/two-factor.service.ts';
import { twoFactorStatusSchema } from '@gremienportal/contracts/two-factor';
import {
  notificationSettingsResponseSchema,
  putNotificationSettingsBodySchema,
  putNotificationSettingsResponseSchema,
} from '@gremienportal/contracts/notifications';
import { notificationSettingsService } from '../notifications/notifications.service.ts';

/** A few short fields; the app-wide JSON limit is sized for data-URL uploads. */
const BODY_LIMIT = 16 * 1024;

export const accountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const account = accountService(ctx);
    const twoFactor = twoFactorService(ctx);
    const notifications = notificationSettingsService(ctx);
    app.get(
      '/account',
      {
        config: { duringTwoFactorSetup: true },
        schema: {
          tags: ['Account'],
          summary: 'Das eigene Konto',
          response: {
            200: dataOf(
              accountSchema.extend({
                two_factor: twoFactorStatusSchema,
                /** Decision 189: the own committee memberships, active ones first. */
                memberships: z.array(ownMembershipSchema),
              }),
            ),
            401: errorBodySchema,
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const [own, twoFactorStatus] = await Promise.all([
          account.readAccount(principal),
          twoFactor.status(principal),
        ]);
        return { data: { ...own, two_factor: twoFactorStatus } };
      },
    );

    app.put(
      '/account',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Account'],
          summary:
            'Das eigene Konto ändern: Passwort alle; Titel, Namen und E-Mail nur Admin und Super-Admin',
          description:
            'Ein neues Passwort braucht `current_password`. `email_visible_to_committees` (alle): die ' +
            'Mitglieder der eigenen Gremien sehen die E-Mail-Adresse. Unbekannte Felder werden mit 422 abgelehnt.',
          body: updateAccountBodySchema,
          response: {
            200: updateAccountResponseSchema,
            401: errorBodySchema,
            403: errorBodySchema.describe('Titel, Namen oder E-Mail ohne Berechtigung geändert'),
            422: errorBodySchema,
            429: errorBodySchema.describe(
              'Zu viele falsche aktuelle Passwörter (wie bei der Anmeldung); die Sitzung ist beendet',
            ),
          },
        },
      },
      async (request) => ({
        user: await account.updateAccount(principalOf(request), request.body, { ip: request.ip }),
      }),
    );

    app.get(
      '/account/notifications',
      {
        schema: {
          tags: ['Account'],
          summary: 'Wie oft das eigene Konto über neue Dokumente und Events benachrichtigt wird',
          response: { 200: notificationSettingsResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await notifications.get(principalOf(request)) }),
    );

    app.put(
      '/account/notifications',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Account'],
          summary: 'Benachrichtigungen wählen: sofort, täglich, wöchentlich oder nie',
          body: putNotificationSettingsBodySchema,
          response: {
            200: putNotificationSettingsResponseSchema,
            401: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request) => notifications.update(principalOf(request), request.body, { ip: request.ip }),
    );
  };
