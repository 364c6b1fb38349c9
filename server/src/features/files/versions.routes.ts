import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import { downloadQuerySchema } from '@gremienportal/contracts/files';
import {
  fileVersionListResponseSchema,
  versionParamsSchema,
  versionRestoreResponseSchema,
} from '@gremienportal/contracts/versions';
import { idParamsSchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../plugins/auth.ts';
import { downloadResponses, sendDownload } from '../../http/send-download.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import { filesService } from './files.service.ts';
import { versionsService } from './versions.service.ts';

const tags = ['Dateien'];
const errors = { 401: errorBodySchema, 404: errorBodySchema };

/**
 * A document's versions (decision 125): Admins see, download and restore them; for anyone else the
 * routes do not exist (404, `admin-hidden`), as members see only the current version.
 */
export const versionsRoutes =
  (ctx: AppContext, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    const files = filesService(ctx, cache);
    const versions = versionsService(ctx, (actor, id) => files.get(actor.principal, id));

    app.get(
      '/files/:id/versions',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Versionen einer Datei, die aktuelle zuerst (nur Admins)',
          params: idParamsSchema,
          response: { 200: fileVersionListResponseSchema, ...errors, 422: errorBodySchema },
        },
      },
      async (request) => ({ data: await versions.list(request.params.id) }),
    );

    app.get(
      '/files/:id/versions/:version/download',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary: 'Inhalt einer Version (GET und HEAD, Range; nur Admins)',
          params: versionParamsSchema,
          querystring: downloadQuerySchema,
          response: { ...downloadResponses, 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const { id, version } = request.params;
        const object = await versions.forDownload(id, version);
        return sendDownload(request, reply, ctx, object, {
          beforeSend: async ({ head }) => {
            if (!head) await versions.recordDownload(actor, object, version, request.query.purpose);
          },
        });
      },
    );

    app.post(
      '/files/:id/versions/:version/restore',
      {
        config: { access: 'admin-hidden' },
        schema: {
          tags,
          summary:
            'Eine Version wiederherstellen: sie wird als neue aktuelle Version gespeichert (nur Admins)',
          params: versionParamsSchema,
          response: {
            200: versionRestoreResponseSchema,
            ...errors,
            409: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request) => ({
        file: await versions.restore(actorOf(request), request.params.id, request.params.version),
      }),
    );
  };
