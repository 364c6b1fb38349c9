import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, idParamsSchema, messageSchema } from '@gremienportal/contracts/common';
import { resolutionResponseSchema } from '@gremienportal/contracts/beschlussbuch';
import {
  conflictBodySchema,
  createMotionBodySchema,
  establishBodySchema,
  handCountBodySchema,
  MOTION_MESSAGES,
  motionListQuerySchema,
  motionListResponseSchema,
  motionResponseSchema,
  motionWithMessageSchema,
  objectionBodySchema,
  openMotionBodySchema,
  updateMotionBodySchema,
  voteBodySchema,
} from '@gremienportal/contracts/resolutions';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import type { ResolutionsFeature } from './resolutions.feature.ts';

const tags = ['Beschlüsse'];
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...errors, 409: errorBodySchema, 422: errorBodySchema };

/**
 * Beschlussvorlagen and their votes (decision 190). A motion is visible to admins and the members
 * of its committee (and an elector whose membership ended during the vote); others get 404. What
 * each may do is decided in policies/motions.policy.ts.
 */
export const motionsRoutes =
  (feature: ResolutionsFeature): FastifyPluginAsyncZod =>
  async (app) => {
    const { motions, resolutions } = feature;
    const motionAction = (
      path: string,
      summary: string,
      run: (actor: ReturnType<typeof actorOf>, id: number) => Promise<unknown>,
    ) =>
      app.post(
        `/motions/:id/${path}`,
        {
          schema: {
            tags,
            summary,
            params: idParamsSchema,
            response: { 200: motionResponseSchema, ...writeErrors },
          },
        },
        async (request) => {
          await run(actorOf(request), request.params.id);
          return { data: await motions.get(principalOf(request), request.params.id) };
        },
      );

    app.get(
      '/motions',
      {
        schema: {
          tags,
          summary: 'Beschlussvorlagen der eigenen Gremien (Admins: alle), nach Gremium oder Sitzung',
          description:
            '`pending=1`: nur laufende Abstimmungen, in denen die eigene Stimme oder ein Widerspruch noch aussteht.',
          querystring: motionListQuerySchema,
          response: { 200: motionListResponseSchema, 401: errorBodySchema, 422: errorBodySchema },
        },
      },
      async (request) => ({ data: await motions.list(principalOf(request), request.query) }),
    );
    app.post(
      '/motions',
      {
        schema: {
          tags,
          summary: 'Beschlussvorlage anlegen (Admins, Vorsitz und Schriftführung des Gremiums)',
          body: createMotionBodySchema,
          response: { 201: motionResponseSchema, ...writeErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await motions.create(actorOf(request), request.body) }),
    );
    app.get(
      '/motions/:id',
      {
        schema: {
          tags,
          summary: 'Eine Beschlussvorlage: eigene Stimme, Zahlen erst nach dem Schließen',
          params: idParamsSchema,
          response: { 200: motionResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await motions.get(principalOf(request), request.params.id) }),
    );
    app.put(
      '/motions/:id',
      {
        schema: {
          tags,
          summary: 'Beschlussvorlage ändern; während der Abstimmung macht das die Abstimmung ungültig',
          params: idParamsSchema,
          body: updateMotionBodySchema,
          response: { 200: motionWithMessageSchema, ...writeErrors },
        },
      },
      async (request) => {
        const { motion, voided } = await motions.update(actorOf(request), request.params.id, request.body);
        return { data: motion, message: voided };
      },
    );
    app.delete(
      '/motions/:id',
      {
        schema: {
          tags,
          summary: 'Beschlussvorlage löschen (nur als Entwurf)',
          params: idParamsSchema,
          response: { 200: messageSchema, ...writeErrors },
        },
      },
      async (request) => {
        await motions.remove(actorOf(request), request.params.id);
        return { message: 'Die Beschlussvorlage wurde gelöscht.' };
      },
    );
    app.post(
      '/motions/:id/open',
      {
        schema: {
          tags,
          summary: 'Abstimmung öffnen: in der Sitzung oder als Umlaufverfahren mit Frist',
          params: idParamsSchema,
          body: openMotionBodySchema,
          response: { 200: motionResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({ data: await motions.open(actorOf(request), request.params.id, request.body) }),
    );
    app.post(
      '/motions/:id/votes',
      {
        schema: {
          tags,
          summary: 'Abstimmen (vor dem Öffnen einer Sitzungsabstimmung: schriftliche Stimmabgabe)',
          params: idParamsSchema,
          body: voteBodySchema,
          response: { 200: motionWithMessageSchema, ...writeErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await motions.vote(actor, request.params.id, request.body.choice);
        const motion = await motions.get(actor.principal, request.params.id);
        const message = motion.state === 'entwurf' ? MOTION_MESSAGES.writtenVoted : MOTION_MESSAGES.voted;
        return { data: motion, message };
      },
    );
    app.post(
      '/motions/:id/objection',
      {
        schema: {
          tags,
          summary: 'Der Beschlussfassung im Umlaufverfahren widersprechen',
          params: idParamsSchema,
          body: objectionBodySchema,
          response: { 200: motionWithMessageSchema, ...writeErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const { stopped } = await motions.object(actor, request.params.id, request.body.reason);
        const message = stopped ? MOTION_MESSAGES.objectionStopped : MOTION_MESSAGES.objected;
        return { data: await motions.get(actor.principal, request.params.id), message };
      },
    );
    app.post(
      '/motions/:id/conflict',
      {
        schema: {
          tags,
          summary: 'Interessenkonflikt (Befangenheit) erklären: für sich, oder der Vorsitz für ein Mitglied',
          params: idParamsSchema,
          body: conflictBodySchema,
          response: { 200: motionResponseSchema, ...writeErrors },
        },
      },
      async (request) => {
        await motions.declareConflict(actorOf(request), request.params.id, request.body.user_id);
        return { data: await motions.get(principalOf(request), request.params.id) };
      },
    );
    app.post(
      '/motions/:id/hand-count',
      {
        schema: {
          tags,
          summary: 'Handzeichen der Sitzung erfassen (ersetzt frühere; dazu zählen die Online-Stimmen)',
          params: idParamsSchema,
          body: handCountBodySchema,
          response: { 200: motionResponseSchema, ...writeErrors },
        },
      },
      async (request) => ({
        data: await motions.handCount(actorOf(request), request.params.id, request.body),
      }),
    );
    motionAction('close', 'Abstimmung schließen: das Ergebnis erscheint', (actor, id) =>
      motions.close(actor, id),
    );
    motionAction('withdraw', 'Beschlussvorlage zurückziehen', (actor, id) => motions.withdraw(actor, id));
    app.post(
      '/motions/:id/reminders',
      {
        schema: {
          tags,
          summary:
            'An das Umlaufverfahren erinnern: wer weder abgestimmt noch widersprochen hat, höchstens einmal am Tag',
          params: idParamsSchema,
          response: { 200: messageSchema, ...writeErrors },
        },
      },
      async (request) => ({
        message: MOTION_MESSAGES.reminded(await motions.remind(actorOf(request), request.params.id)),
      }),
    );
    app.post(
      '/motions/:id/establish',
      {
        schema: {
          tags,
          summary: 'Ergebnis feststellen (Vorsitz, mit dem aktuellen Code der Authenticator-App)',
          params: idParamsSchema,
          body: establishBodySchema,
          // 429: too many wrong codes lock the second factor for a while, as at sign-in.
          response: { 200: resolutionResponseSchema, ...writeErrors, 429: errorBodySchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const entry = await resolutions.establish(actor, request.params.id, request.body.code);
        return { data: await feature.register.get(actor.principal, entry.id) };
      },
    );
  };
