import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import {
  calendarFeedCreatedSchema,
  calendarFeedResponseSchema,
  calendarTokenParamsSchema,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { calendarFeedService } from './calendar-feed.service.ts';
import { calendarAnswer } from '../../http/text-answers.ts';

const tags = ['Kalender'];

/** The personal calendar feed (decision 130): managed on the account page, read by calendar apps. */
export const calendarFeedRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const feeds = calendarFeedService(ctx);

    app.get(
      '/account/calendar-feed',
      {
        schema: {
          tags,
          summary: 'Das eigene Kalender-Abonnement: ob es besteht, seit wann, zuletzt abgerufen',
          response: { 200: calendarFeedResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await feeds.status(principalOf(request)) }),
    );

    app.post(
      '/account/calendar-feed',
      {
        schema: {
          tags,
          summary: 'Neue Adresse für das Kalender-Abonnement; die bisherige gilt nicht mehr',
          description:
            'Die Adresse enthält ein eigenes Zugriffstoken und wird nur in dieser Antwort gezeigt. ' +
            'Sie öffnet nur den Kalender, sonst nichts.',
          response: { 201: calendarFeedCreatedSchema, 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        // The answer carries the feed's token: no cache may keep it.
        reply.header('Cache-Control', 'no-store');
        return reply.status(201).send({ data: await feeds.create(actorOf(request)) });
      },
    );

    app.delete(
      '/account/calendar-feed',
      {
        schema: {
          tags,
          summary: 'Kalender-Abonnement beenden: die Adresse gilt nicht mehr',
          response: { 204: z.null(), 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        await feeds.revoke(actorOf(request));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/calendar/:token.ics',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary:
            'Persönlicher Kalender (iCalendar) zum Abonnieren; das Token in der Adresse ist der Zugang',
          description:
            'Die Events, die der Inhaber der Adresse sehen darf, ab 90 Tagen zurück, und abgesagte ' +
            '(im Papierkorb) als STATUS:CANCELLED. Ein Bearer-Token wird hier nicht gelesen.',
          security: [],
          params: calendarTokenParamsSchema,
          response: {
            200: calendarAnswer,
            404: errorBodySchema,
            429: errorBodySchema.describe('Zu viele unbekannte Adressen; siehe Retry-After'),
          },
        },
      },
      async (request, reply) => {
        const body = await feeds.feed(request.params.token, { ip: request.ip });
        return reply
          .type('text/calendar; charset=utf-8')
          .header('Content-Disposition', 'inline; filename="gremienportal.ics"')
          .header('Cache-Control', 'private, no-store')
          .send(body);
      },
    );
  };
