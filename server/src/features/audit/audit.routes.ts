import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessParamsSchema,
  auditExportQuerySchema,
  auditListQuerySchema,
  auditListResponseSchema,
  myLoginsResponseSchema,
  pageQuerySchema,
  visibleToParamsSchema,
  visibleToResponseSchema,
} from '@gremienportal/contracts/audit';
import { errorBodySchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { contentDisposition } from '../../http/send-download.ts';
import { auditService } from './audit.service.ts';
import { csvAnswer } from '../../http/text-answers.ts';

const tags = ['Aktivitäten'];
const FILTER_DESCRIPTION =
  'Filter: `actor_id` (Person), `q` (Text im Namen oder in der E-Mail-Adresse der handelnden Person), ' +
  '`action` (eine oder mehrere, wiederholt oder durch Komma getrennt), `object_type` und `object_id`, ' +
  '`from`/`to` als Tag (`2026-11-21`, ein Kalendertag in Europe/Berlin, beide Grenzen eingeschlossen) ' +
  'oder als Zeitpunkt nach ISO 8601.';
const errors = { 401: errorBodySchema, 403: errorBodySchema, 422: errorBodySchema };

/** Read-only: the log is append-only, so there is no route that changes or deletes entries. */
export const auditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const audit = auditService(ctx);

    app.get(
      '/audit',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Einträge der Aktivitäten, neueste zuerst, seitenweise',
          description: `${FILTER_DESCRIPTION} Seiten: \`page\` (ab 1), \`per_page\` (1–100, Standard 10).`,
          querystring: auditListQuerySchema,
          response: { 200: auditListResponseSchema, ...errors },
        },
      },
      async (request) => audit.list(request.query),
    );

    app.get(
      '/audit.csv',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Aktivitäten als CSV (Excel, Semikolon, UTF-8 mit BOM)',
          description: `${FILTER_DESCRIPTION} Alle passenden Einträge, neueste zuerst.`,
          querystring: auditExportQuerySchema,
          response: { 200: csvAnswer, ...errors },
        },
      },
      async (request, reply) => {
        const body = Readable.from(audit.exportCsv(request.query), { objectMode: false });
        body.on('error', (error) => request.log.error({ err: error }, 'CSV-Export abgebrochen'));
        return (
          reply
            .header('Content-Type', 'text/csv; charset=utf-8')
            .header('Content-Disposition', contentDisposition('attachment', audit.exportFileName()))
            .header('Cache-Control', 'private, no-store')
            .header('X-Content-Type-Options', 'nosniff')
            // Streamed: the documented text arrives in chunks, so the reply type (a string) is widened.
            .send(body as unknown as string)
        );
      },
    );

    app.get(
      '/audit/object/:type/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Zugriffe auf eine Datei oder ein Event (angesehen, heruntergeladen)',
          params: accessParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: auditListResponseSchema, ...errors },
        },
      },
      async (request) => audit.accesses(request.params.type, request.params.id, request.query),
    );

    app.get(
      '/audit/visible-to/:type/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Wer eine Datei, einen Ordner oder ein Event jetzt sehen kann (aus den Rollen)',
          params: visibleToParamsSchema,
          response: {
            200: visibleToResponseSchema,
            401: errorBodySchema,
            403: errorBodySchema,
            404: errorBodySchema,
          },
        },
      },
      async (request) => ({ data: await audit.visibleTo(request.params.type, request.params.id) }),
    );

    app.get(
      '/audit/my-logins',
      {
        schema: {
          tags,
          summary: 'Die eigenen letzten 10 Anmeldungen und Fehlversuche',
          response: { 200: myLoginsResponseSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await audit.myLogins(principalOf(request)) }),
    );
  };
