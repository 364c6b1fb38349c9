import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import {
  trashEmptyResponseSchema,
  trashListQuerySchema,
  trashListResponseSchema,
  trashParamsSchema,
  trashRestoreBodySchema,
  trashRestoreResponseSchema,
} from '@gremienportal/contracts/trash';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../plugins/auth.ts';
import { trashService } from './trash.service.ts';

const tags = ['Papierkorb'];
const errors = { 401: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
const writeErrors = { ...errors, 403: errorBodySchema, 409: errorBodySchema };

/**
 * The Papierkorb (decision 125): Admins list and restore, only a Super-Admin removes for good.
 * Anyone else gets 404, as for a hidden object (`admin-hidden`).
 */
export const trashRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const trash = trashService(ctx);

    app.get(
      '/trash',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Einträge im Papierkorb, zuletzt gelöschte zuerst, seitenweise',
          description:
            'Filter: `type` (file, folder, event), `deleted_by` (Nutzer-ID), `from`/`to` (Tag oder Zeitpunkt ' +
            'wie bei den Aktivitäten). Seiten: `page`, `per_page` (1–100).',
          querystring: trashListQuerySchema,
          response: { 200: trashListResponseSchema, ...errors },
        },
      },
      async (request) => trash.list(actorOf(request), request.query),
    );

    app.post(
      '/trash/:type/:id/restore',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Aus dem Papierkorb wiederherstellen',
          description:
            'An den früheren Ort mit den früheren Rollen. Ist der frühere Ordner nicht mehr da, ist `folder_id` ' +
            'nötig (422 sonst). Ein Titel, den es dort inzwischen gibt, erhält „ (wiederhergestellt)“. ' +
            '409, wenn der Eintrag inzwischen wiederhergestellt oder endgültig gelöscht wurde.',
          params: trashParamsSchema,
          // Fastify hands a request without a body to validation as null, not undefined.
          body: trashRestoreBodySchema.nullish(),
          response: { 200: trashRestoreResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({
        data: await trash.restore(
          actorOf(request),
          request.params.type,
          request.params.id,
          request.body ?? {},
        ),
      }),
    );

    app.delete(
      '/trash/:type/:id',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Endgültig löschen (nur Super-Admin)',
          params: trashParamsSchema,
          response: { 204: z.null(), ...writeErrors },
        },
      },
      async (request, reply) => {
        await trash.purge(actorOf(request), request.params.type, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/trash',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Papierkorb leeren (nur Super-Admin)',
          response: { 200: trashEmptyResponseSchema, ...writeErrors },
        },
      },
      async (request) => {
        return { data: { removed: await trash.empty(actorOf(request)) } };
      },
    );
  };
