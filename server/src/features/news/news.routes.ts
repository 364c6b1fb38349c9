import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import {
  markReadBodySchema,
  markReadResponseSchema,
  NEWS_MESSAGES,
  newsResponseSchema,
} from '@gremienportal/contracts/news';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import { newsService } from './news.service.ts';

const tags = ['Neu für Sie'];

/** "Neu für Sie" and "Alle als gelesen markieren" (decision 131). */
export const newsRoutes =
  (ctx: AppContext, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    const news = newsService(ctx, cache);

    app.get(
      '/news',
      {
        schema: {
          tags,
          summary:
            'Neu für Sie: bis zu zehn neue Dokumente (mit Gesamtzahl), Dokumente zur Kenntnisnahme und die nächsten drei Events',
          response: { 200: newsResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await news.get(principalOf(request)) }),
    );

    app.post(
      '/news/read',
      {
        schema: {
          tags,
          summary: 'Einen Ordner (mit allem darunter) oder ohne `folder_id` alles als gelesen markieren',
          body: markReadBodySchema,
          response: {
            200: markReadResponseSchema,
            401: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request) => {
        const folderId = request.body.folder_id;
        const marked = await news.markRead(principalOf(request), folderId);
        return {
          message: folderId === undefined ? NEWS_MESSAGES.markedAll : NEWS_MESSAGES.markedFolder,
          marked,
        };
      },
    );
  };
