import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  agendaCheckBodySchema,
  agendaCheckResponseSchema,
  agendaResponseSchema,
  putAgendaBodySchema,
} from '@gremienportal/contracts/meetings';
import {
  agendaPublicationResponseSchema,
  agendaPublishResponseSchema,
} from '@gremienportal/contracts/meeting-notices';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import { agendaService } from './agenda.service.ts';
import { agendaPublicationService } from './agenda-publication.service.ts';

const tags = ['Events'];

/** The Tagesordnung of an event (decision 130). */
export const agendaRoutes =
  (ctx: AppContext, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    const agenda = agendaService(ctx, cache);
    const publication = agendaPublicationService(ctx);

    app.get(
      '/events/:id/agenda',
      {
        schema: {
          tags,
          summary:
            'Tagesordnung eines Events in Lesereihenfolge (1, 2, 2.1, 3) mit den Dokumenten, die der ' +
            'angemeldete Nutzer sehen darf; Admins erfahren je Dokument, welche Rollen des Events es nicht sehen',
          params: idParamsSchema,
          response: { 200: agendaResponseSchema, 404: errorBodySchema },
        },
      },
      async (request) => ({ data: await agenda.get(principalOf(request), request.params.id) }),
    );

    app.put(
      '/events/:id/agenda',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Tagesordnung ersetzen (die ganze geordnete Liste, in einer Transaktion)',
          params: idParamsSchema,
          body: putAgendaBodySchema,
          response: { 200: agendaResponseSchema, 404: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request) => ({
        data: await agenda.replace(actorOf(request), request.params.id, request.body),
      }),
    );

    app.post(
      '/events/:id/agenda/check',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Welche Rollen des Events diese Dokumente nicht sehen würden (Warnung im Formular)',
          params: idParamsSchema,
          body: agendaCheckBodySchema,
          response: { 200: agendaCheckResponseSchema, 404: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request) => ({
        data: await agenda.check(principalOf(request), request.params.id, request.body.file_ids),
      }),
    );

    app.get(
      '/events/:id/agenda/publish',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary:
            'Was „Tagesordnung veröffentlichen“ jetzt senden würde: an wie viele Personen, und was sich ' +
            'seit der letzten Veröffentlichung geändert hat',
          params: idParamsSchema,
          response: { 200: agendaPublicationResponseSchema, 404: errorBodySchema },
        },
      },
      async (request) => ({ data: await publication.preview(principalOf(request), request.params.id) }),
    );

    app.post(
      '/events/:id/agenda/publish',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Tagesordnung veröffentlichen: eine Mail an alle, für die die Sitzung ist',
          description:
            'Der erste Aufruf sendet jeder Person mit einer Rolle der Sitzung (aktives Konto) die ' +
            'Tagesordnung mit den Dokumenten, die sie sehen darf, den Link zur Sitzung und zur ' +
            'Sitzungsmappe. Spätere Aufrufe senden, was sich seitdem geändert hat (Zeit, Ort, Punkte, ' +
            'Dokumente), bei geänderter Zeit oder geändertem Ort mit dem Kalendereintrag ' +
            '(METHOD:REQUEST). 409, wenn die Tagesordnung leer ist oder sich nichts geändert hat.',
          params: idParamsSchema,
          response: { 200: agendaPublishResponseSchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request) => publication.publish(actorOf(request), request.params.id),
    );
  };
