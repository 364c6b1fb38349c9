import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import {
  searchQuerySchema,
  searchResponseSchema,
  suggestQuerySchema,
  suggestResponseSchema,
} from '@gremienportal/contracts/search';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import { searchService } from './search.service.ts';
import type { SearchCounter } from './search-counter.ts';

const tags = ['Suche'];
const errors = { 401: errorBodySchema, 422: errorBodySchema };

/** Search (decision 128): every signed-in member, over what they may see. */
export const searchRoutes =
  (ctx: AppContext, cache: ReadCache, counter: SearchCounter): FastifyPluginAsyncZod =>
  async (app) => {
    const search = searchService(ctx, cache);

    app.get(
      '/search',
      {
        schema: {
          tags,
          summary: 'Dokumente, Ordner, Events und Beschlüsse nach Titel und Inhalt suchen',
          description:
            '`q` (2–200 Zeichen): Wörter und Wortteile, alle müssen vorkommen; „in Anführungszeichen“ als genaue ' +
            'Wortfolge; Groß-/Kleinschreibung und ä/ae, ö/oe, ü/ue, ß/ss gleich. Wortteile unter 3 Zeichen ' +
            'finden nur Titel. Beschlüsse (`type=resolution`) nach Nummer, Titel und Text, nur die der ' +
            'eigenen Gremien (Admins: alle). Filter: `type`, `format`, `from`/`to` (Tag oder Zeitpunkt), ' +
            '`folder_id` (mit Unterordnern), `sort` (relevance, date), `page`, `per_page` (1–100). ' +
            '`highlight` und `snippet.ranges` sind [Anfang, Ende)-Bereiche im Klartext, kein HTML.',
          querystring: searchQuerySchema,
          response: { 200: searchResponseSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        counter.count(principal);
        return search.search(principal, request.query);
      },
    );

    app.get(
      '/search/suggest',
      {
        schema: {
          tags,
          summary: 'Vorschläge beim Tippen: bis zu 8 Titel',
          querystring: suggestQuerySchema,
          response: { 200: suggestResponseSchema, ...errors },
        },
      },
      async (request) => search.suggest(principalOf(request), request.query.q),
    );
  };
