import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import { downloadKeyParamsSchema } from '@gremienportal/contracts/events';
import {
  MEETING_MESSAGES,
  minutesResponseSchema,
  minutesUploadBodySchema,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import { invalidField } from '../../errors.ts';
import { actorOf } from '../../plugins/auth.ts';
import { downloadResponses } from '../../http/send-download.ts';
import { closeWhenBodyUnread, multipartOptions, readUpload } from '../../http/upload-source.ts';
import { parseFields, withUpload } from '../../http/upload-fields.ts';
import { sendEventDocument } from '../events/event-documents.ts';
import { minutesService } from './minutes.service.ts';

const tags = ['Events'];

/** The Protokoll der Sitzung (decision 130): publish, replace, remove, download. */
export const minutesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const minutes = minutesService(ctx);

    app.delete(
      '/events/:id/minutes',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Protokoll eines Events entfernen',
          params: idParamsSchema,
          response: { 204: z.null(), 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        await minutes.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/minutes/:key',
      {
        schema: {
          tags,
          summary: 'Protokoll eines Events (GET und HEAD, Range)',
          params: downloadKeyParamsSchema,
          response: downloadResponses,
        },
      },
      async (request, reply) => sendEventDocument(ctx, request, reply, 'minutes', request.params.key),
    );

    // Multipart only where the document arrives (decision 112).
    await app.register(async (scope) => {
      await scope.register(multipart, multipartOptions(ctx.config));
      scope.addHook('onSend', closeWhenBodyUnread);
      const uploads = scope.withTypeProvider<ZodTypeProvider>();

      uploads.post(
        '/events/:id/minutes',
        {
          config: { access: 'admin' },
          schema: {
            tags,
            summary: 'Protokoll veröffentlichen oder ersetzen',
            description:
              'JSON `{ data }` mit dem Protokoll als Data-URL, oder `multipart/form-data` mit der Datei ' +
              'als Teil `file`. Dieselben Formate und Größen wie die Informationsdatei. Die erste ' +
              'Veröffentlichung benachrichtigt alle, die zugesagt haben und das Event sehen ' +
              '(`recipients: zugesagt`, Standard) oder alle mit einer Rolle des Events (`recipients: alle`). ' +
              'Vor dem Beginn der Sitzung nur mit `confirm_future: true` (sonst 422).',
            upload: { body: minutesUploadBodySchema, dataUrlFields: ['data', 'file'] },
            params: idParamsSchema,
            response: {
              200: minutesResponseSchema,
              404: errorBodySchema,
              413: errorBodySchema,
              422: errorBodySchema,
            },
          },
        },
        async (request) => {
          const upload = await readUpload(request, ctx, { fileFields: ['data', 'file'] });
          const published = await withUpload(ctx, upload, async () => {
            const body = parseFields(minutesUploadBodySchema, upload.fields);
            if (!upload.stored) throw invalidField('file', MEETING_MESSAGES.minutesRequired);
            return minutes.publish(actorOf(request), request.params.id, upload.stored, body);
          });
          return { message: MEETING_MESSAGES.minutesSaved, data: published };
        },
      );
    });
  };
