import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  acknowledgementListResponseSchema,
  acknowledgementReminderResponseSchema,
  acknowledgementResponseSchema,
} from '@gremienportal/contracts/acknowledgements';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { sendCsv } from '../../http/csv-reply.ts';
import { acknowledgementsService } from './acknowledgements.service.ts';
import { csvAnswer } from '../../http/text-answers.ts';

const tags = ['Dateien'];
const adminErrors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Kenntnisnahme (decision 131): the member's confirmation, the admins' list, CSV and reminder. */
export const acknowledgementsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const acknowledgements = acknowledgementsService(ctx);

    app.post(
      '/files/:id/acknowledgement',
      {
        schema: {
          tags,
          summary:
            'Kenntnisnahme bestätigen (erst nach dem Öffnen oder Herunterladen des aktuellen Inhalts; nicht widerrufbar)',
          params: idParamsSchema,
          response: {
            200: acknowledgementResponseSchema,
            401: errorBodySchema,
            404: errorBodySchema,
            409: errorBodySchema,
          },
        },
      },
      async (request) => acknowledgements.confirm(actorOf(request), request.params.id),
    );

    app.get(
      '/files/:id/acknowledgements',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary:
            'Kenntnisnahme: alle, die das Dokument sehen, mit Bestätigung oder offen, Zahlen und Anteil',
          params: idParamsSchema,
          response: { 200: acknowledgementListResponseSchema, ...adminErrors },
        },
      },
      async (request) => ({ data: await acknowledgements.list(principalOf(request), request.params.id) }),
    );

    app.get(
      '/files/:id/acknowledgements.csv',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Kenntnisnahme als CSV (Excel, Semikolon, UTF-8 mit BOM)',
          params: idParamsSchema,
          response: { 200: csvAnswer, ...adminErrors },
        },
      },
      async (request, reply) =>
        sendCsv(reply, await acknowledgements.exportCsv(principalOf(request), request.params.id)),
    );

    app.post(
      '/files/:id/acknowledgements/reminder',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Erinnerung an alle ohne Bestätigung senden (höchstens einmal in 24 Stunden je Dokument)',
          params: idParamsSchema,
          response: { 200: acknowledgementReminderResponseSchema, 409: errorBodySchema, ...adminErrors },
        },
      },
      async (request) => acknowledgements.remind(actorOf(request), request.params.id),
    );
  };
