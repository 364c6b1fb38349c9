import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  attendanceListResponseSchema,
  myAttendanceResponseSchema,
  putAttendanceBodySchema,
  reminderResponseSchema,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { sendCsv } from '../../http/csv-reply.ts';
import { attendanceService } from './attendance.service.ts';
import { csvAnswer } from '../../http/text-answers.ts';

const tags = ['Events'];
const adminErrors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Zu- und Absagen (decision 130): the member's own answer, the admins' list and reminder. */
export const attendanceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const attendance = attendanceService(ctx);

    app.put(
      '/events/:id/attendance',
      {
        schema: {
          tags,
          summary: 'Eigene Zu- oder Absage zu einem Event (ersetzt eine frühere Antwort)',
          params: idParamsSchema,
          body: putAttendanceBodySchema,
          response: { 200: myAttendanceResponseSchema, 404: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request) => ({
        data: await attendance.answer(actorOf(request), request.params.id, request.body),
      }),
    );

    app.get(
      '/events/:id/attendance',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Teilnahmeliste: alle Mitglieder der Rollen des Events und alle, die geantwortet haben',
          params: idParamsSchema,
          response: { 200: attendanceListResponseSchema, ...adminErrors },
        },
      },
      async (request) => ({ data: await attendance.list(principalOf(request), request.params.id) }),
    );

    app.get(
      '/events/:id/attendance.csv',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Teilnahmeliste als CSV (Excel, Semikolon, UTF-8 mit BOM)',
          params: idParamsSchema,
          response: { 200: csvAnswer, ...adminErrors },
        },
      },
      async (request, reply) =>
        sendCsv(reply, await attendance.exportCsv(principalOf(request), request.params.id)),
    );

    app.post(
      '/events/:id/attendance/reminder',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Erinnerung an alle ohne Antwort senden (höchstens einmal pro Stunde und Event)',
          params: idParamsSchema,
          response: { 200: reminderResponseSchema, 409: errorBodySchema, ...adminErrors },
        },
      },
      async (request) => attendance.remind(actorOf(request), request.params.id),
    );
  };
