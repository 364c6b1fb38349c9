import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  circularAnnouncementResponseSchema,
  correctionBodySchema,
  followUpBodySchema,
  resolutionListQuerySchema,
  resolutionListResponseSchema,
  resolutionResponseSchema,
} from '@gremienportal/contracts/beschlussbuch';
import { berlinDate } from '@gremienportal/contracts/audit';
import { contentDisposition } from '../../http/send-download.ts';
import { csvAnswer } from '../../http/text-answers.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import type { AppContext } from '../../context.ts';
import type { ResolutionsFeature } from './resolutions.feature.ts';
import { registerPdf } from './register-pdf.ts';
import { circularAnnouncement } from './announcement.ts';
import { resolutionsCsv } from './resolutions.present.ts';

const tags = ['Beschlüsse'];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const listErrors = { 401: errorBodySchema, 422: errorBodySchema };
const writeErrors = { ...errors, 409: errorBodySchema, 422: errorBodySchema };
const FILTERS =
  'Filter: `committee_id`, `term_id`, `year`, `result`, `q` (Freitext in Nummer, Titel und Text), `overdue=1` (überfällige Umsetzung).';
const pdfAnswer = {
  description: 'Das Beschlussbuch als PDF, mit dem Namen des Mitglieds in der Fußzeile',
  content: { 'application/pdf': { schema: z.string() } },
};

const privateDownload = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };

/** The Beschlussbuch (decision 190): the resolutions of the member's committees, never changed. */
export const resolutionsRoutes =
  (ctx: AppContext, feature: ResolutionsFeature): FastifyPluginAsyncZod =>
  async (app) => {
    const { register, resolutions } = feature;
    app.get(
      '/resolutions',
      {
        schema: {
          tags,
          summary: 'Beschlussbuch: die Beschlüsse der eigenen Gremien (Admins: alle), neueste zuerst',
          description: FILTERS,
          querystring: resolutionListQuerySchema,
          response: { 200: resolutionListResponseSchema, ...listErrors },
        },
      },
      async (request) => ({ data: await register.list(principalOf(request), request.query) }),
    );
    app.get(
      '/resolutions.csv',
      {
        schema: {
          tags,
          summary: 'Beschlussbuch als CSV (Excel, Semikolon, UTF-8 mit BOM)',
          description: FILTERS,
          querystring: resolutionListQuerySchema,
          response: { 200: csvAnswer, ...listErrors },
        },
      },
      async (request, reply) => {
        const rows = await register.list(principalOf(request), request.query);
        const day = berlinDate(new Date()).split('.').reverse().join('-');
        return reply
          .headers(privateDownload)
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', contentDisposition('attachment', `Beschlussbuch-${day}.csv`))
          .send(resolutionsCsv(rows.map((row) => ({ ...row, file_ids: [] }))));
      },
    );
    app.get(
      '/resolutions.pdf',
      {
        schema: {
          tags,
          summary: 'Beschlussbuch als PDF: Deckblatt, ein Abschnitt je Beschluss mit seiner Prüfsumme',
          description: FILTERS,
          querystring: resolutionListQuerySchema,
          response: { 200: pdfAnswer, ...listErrors },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const rows = await register.list(principal, request.query);
        const now = new Date();
        const pdf = await registerPdf({
          resolutions: rows,
          viewerName: `${principal.firstname} ${principal.lastname}`,
          generatedAt: now.toISOString(),
          filterLabel: await register.filterLabel(principal, request.query),
          timeZone: 'Europe/Berlin',
        });
        const day = berlinDate(now).split('.').reverse().join('-');
        return (
          reply
            .headers(privateDownload)
            .header('Content-Type', 'application/pdf')
            .header('Content-Disposition', contentDisposition('attachment', `Beschlussbuch-${day}.pdf`))
            // A file, not JSON: the documented answer is a string, so the reply type is widened.
            .send(Buffer.from(pdf) as unknown as string)
        );
      },
    );
    app.get(
      '/resolutions/:id',
      {
        schema: {
          tags,
          summary: 'Ein Beschluss',
          params: idParamsSchema,
          response: { 200: resolutionResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await register.get(principalOf(request), request.params.id) }),
    );
    app.get(
      '/events/:id/agenda/circular-announcement',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary:
            'Tagesordnungspunkt „Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung“, zum Einfügen',
          params: idParamsSchema,
          response: { 200: circularAnnouncementResponseSchema, ...errors },
        },
      },
      async (request) => ({
        data: await circularAnnouncement(ctx, principalOf(request), request.params.id),
      }),
    );
    app.put(
      '/resolutions/:id/follow-up',
      {
        schema: {
          tags,
          summary: 'Umsetzung pflegen: verantwortlich, fällig am, offen/erledigt, Notiz',
          params: idParamsSchema,
          body: followUpBodySchema,
          response: { 200: resolutionResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({
        data: await register.putFollowUp(actorOf(request), request.params.id, request.body),
      }),
    );
    app.post(
      '/resolutions/:id/correction',
      {
        schema: {
          tags,
          summary: 'Berichtigung: ein neuer, verknüpfter Eintrag (Vorsitz); der alte bleibt unverändert',
          params: idParamsSchema,
          body: correctionBodySchema,
          response: { 201: resolutionResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const entry = await resolutions.correct(actor, request.params.id, request.body);
        return reply.status(201).send({ data: await register.get(actor.principal, entry.id) });
      },
    );
  };
