import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  createEventBodySchema,
  downloadKeyParamsSchema,
  eventListResponseSchema,
  eventResponseSchema,
  eventWriteResponseSchema,
  updateEventBodySchema,
} from '@gremienportal/contracts/events';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { contentDisposition, downloadName, downloadResponses } from '../../http/send-download.ts';
import { closeWhenBodyUnread, multipartOptions, readUpload } from '../../http/upload-source.ts';
import { parseFields, withUpload } from '../../http/upload-fields.ts';
import { sendEventDocument } from './event-documents.ts';
import { eventsService } from './events.service.ts';
import { calendarAnswer } from '../../http/text-answers.ts';

const tags = ['Events'];

const PAYLOAD_DESCRIPTION =
  'JSON `{ title, start, end, location, description, roles, notifications, data }` mit der ' +
  'Informationsdatei als Data-URL in `data`, oder `multipart/form-data` mit denselben Feldnamen ' +
  '(Listen als wiederholte Felder) und der Datei als Teil `file`. `roles` und `notifications` ' +
  'sind Rollen-IDs oder -Namen. `start`/`end`: ISO 8601 mit Zeitzone (`2026-11-21T14:30:00+01:00`, ' +
  '`…Z`) oder ohne Zeitzone (`2026-11-21T14:30`, auch mit Sekunden oder Leerzeichen statt `T`), ' +
  'dann als Ortszeit Europe/Berlin.';

const uploadOptions = { fileFields: ['data', 'file'], listFields: ['roles', 'notifications'] } as const;

export const eventsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const events = eventsService(ctx);

    app.get(
      '/events',
      {
        schema: {
          tags,
          summary: 'Events, die der angemeldete Nutzer sehen darf (Admins: alle)',
          response: { 200: eventListResponseSchema },
        },
      },
      async (request) => ({ data: await events.list(principalOf(request)) }),
    );

    app.get(
      '/events/:id',
      {
        schema: {
          tags,
          summary: 'Ein Event (verborgene und fehlende antworten gleich mit 404)',
          params: idParamsSchema,
          response: { 200: eventResponseSchema, 404: errorBodySchema },
        },
      },
      async (request) => ({ data: await events.get(principalOf(request), request.params.id) }),
    );

    app.delete(
      '/events/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Event löschen (mit seiner Informationsdatei)',
          params: idParamsSchema,
          response: { 204: z.null(), 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        await events.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/events/:id/ics',
      {
        schema: {
          tags,
          summary: 'Das Event als iCalendar-Datei (RFC 5545) zum Übernehmen in einen Kalender',
          params: idParamsSchema,
          response: { 200: calendarAnswer, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const { title, body } = await events.calendar(principalOf(request), request.params.id);
        return reply
          .type('text/calendar; charset=utf-8')
          .header('Content-Disposition', contentDisposition('attachment', downloadName(title, 'ics')))
          .header('Cache-Control', 'private, no-store')
          .send(body);
      },
    );

    app.get(
      '/info/:key',
      {
        schema: {
          tags,
          summary: 'Informationsdatei eines Events (GET und HEAD, Range)',
          params: downloadKeyParamsSchema,
          response: downloadResponses,
        },
      },
      async (request, reply) => sendEventDocument(ctx, request, reply, 'information', request.params.key),
    );

    // Multipart only where documents arrive: its hooks would otherwise run on every request.
    await app.register(async (scope) => {
      await scope.register(multipart, multipartOptions(ctx.config));
      scope.addHook('onSend', closeWhenBodyUnread);
      const uploads = scope.withTypeProvider<ZodTypeProvider>();

      uploads.post(
        '/events',
        {
          config: { access: 'admin' },
          schema: {
            tags,
            summary: 'Event anlegen (mit Informationsdatei und Benachrichtigungen)',
            description: PAYLOAD_DESCRIPTION,
            upload: { body: createEventBodySchema, dataUrlFields: ['data'] },
            response: { 201: eventWriteResponseSchema, 413: errorBodySchema, 422: errorBodySchema },
          },
        },
        async (request, reply) => {
          const upload = await readUpload(request, ctx, uploadOptions);
          const event = await withUpload(ctx, upload, () =>
            events.create(actorOf(request), parseFields(createEventBodySchema, upload.fields), upload.stored),
          );
          return reply.status(201).send({ event });
        },
      );

      uploads.put(
        '/events/:id',
        {
          config: { access: 'admin' },
          schema: {
            tags,
            summary: 'Event ändern; eine neue Datei ersetzt die bisherige',
            description:
              `${PAYLOAD_DESCRIPTION} Ohne \`roles\` bleiben die Rollen unverändert. Mit \`notify: true\` ` +
              'und `notifications` (Rollen des Events) erhalten deren Mitglieder eine Mail mit dem, was sich ' +
              'geändert hat, und bei geänderter Zeit oder geändertem Ort den Kalendereintrag als ' +
              'METHOD:REQUEST mit erhöhter SEQUENCE; `notified` nennt die Zahl der Mails.',
            upload: { body: updateEventBodySchema, dataUrlFields: ['data'] },
            params: idParamsSchema,
            response: {
              200: eventWriteResponseSchema,
              404: errorBodySchema,
              413: errorBodySchema,
              422: errorBodySchema,
            },
          },
        },
        async (request) => {
          const upload = await readUpload(request, ctx, uploadOptions);
          return withUpload(ctx, upload, () =>
            events.update(
              actorOf(request),
              request.params.id,
              parseFields(updateEventBodySchema, upload.fields),
              upload.stored,
            ),
          );
        },
      );
    });
  };
