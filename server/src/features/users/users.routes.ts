import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema, messageSchema } from '@gremienportal/contracts/common';
import {
  createUserBodySchema,
  INVITATION_SENT_MESSAGE,
  updateUserBodySchema,
  userDataResponseSchema,
  userListResponseSchema,
  userResponseSchema,
} from '@gremienportal/contracts/users';
import { resetTwoFactorBodySchema } from '@gremienportal/contracts/two-factor';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../plugins/auth.ts';
import { usersService } from './users.service.ts';
import { resetSecondFactor } from '../two-factor/two-factor-reset.service.ts';

const tags = ['Nutzer'];
/** Documented error answers (German `{ message, errors? }`). */
const errors = { 401: errorBodySchema, 403: errorBodySchema };
const errorsById = { ...errors, 404: errorBodySchema };

export const usersRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const users = usersService(ctx);

    app.get(
      '/user',
      {
        config: { access: 'admin' },
        schema: { tags, summary: 'Alle Nutzer', response: { 200: userListResponseSchema, ...errors } },
      },
      async () => ({ data: await users.list() }),
    );

    const createOptions = {
      config: { access: 'admin' as const },
      schema: {
        tags,
        summary: 'Nutzer anlegen und per E-Mail einladen',
        body: createUserBodySchema,
        response: { 201: userResponseSchema, ...errors, 422: errorBodySchema },
      },
    };
    app.post('/user', createOptions, async (request, reply) => {
      const user = await users.create(actorOf(request), request.body);
      return reply.status(201).send({ user });
    });
    // product.md P8.1: no public self-registration; an admin-only alias of the user creation.
    app.post('/auth/register', createOptions, async (request, reply) => {
      const user = await users.create(actorOf(request), request.body);
      return reply.status(201).send({ user });
    });

    app.get(
      '/user/:id',
      {
        schema: {
          tags,
          summary: 'Ein Nutzer (Admins: jeder, sonst nur das eigene Konto)',
          params: idParamsSchema,
          response: { 200: userDataResponseSchema, ...errorsById },
        },
      },
      async (request) => ({ data: await users.get(actorOf(request), request.params.id) }),
    );

    app.put(
      '/user/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Nutzer ändern',
          params: idParamsSchema,
          body: updateUserBodySchema,
          response: { 200: userResponseSchema, ...errorsById, 422: errorBodySchema },
        },
      },
      async (request) => ({ user: await users.update(actorOf(request), request.params.id, request.body) }),
    );

    app.delete(
      '/user/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Nutzer löschen',
          params: idParamsSchema,
          response: { 204: z.null(), ...errorsById },
        },
      },
      async (request, reply) => {
        await users.remove(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/user/:id/two-factor',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Zwei-Faktor-Anmeldung eines Kontos zurücksetzen (verlorenes Gerät)',
          description:
            'Entfernt Authenticator-App, Passkeys, Wiederherstellungscodes und vertraute Geräte, beendet alle ' +
            'Sitzungen des Kontos und benachrichtigt es per E-Mail. Rechte wie beim Ändern des Kontos: ein Admin ' +
            'nicht bei Admins und Super-Admins. Der handelnde Admin bestätigt mit seinem eigenen zweiten Faktor: ' +
            '`code` (Authenticator-App), `recovery_code` oder `webauthn` (Antwort auf ' +
            '`POST /account/two-factor/webauthn/confirm-options`); falsche Codes zählen zur Sperre seines Kontos. ' +
            '403 ohne eigenen zweiten Faktor, 422 bei falschem Code, 409 für das eigene Konto („Ausschalten“ ' +
            'unter „Mein Account“) und wenn keine Zwei-Faktor-Anmeldung eingerichtet ist.',
          params: idParamsSchema,
          body: resetTwoFactorBodySchema,
          response: {
            204: z.null(),
            ...errorsById,
            409: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        await resetSecondFactor(ctx, actorOf(request), request.params.id, request.body);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/user/:id/invitation',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Einladung erneut senden',
          params: idParamsSchema,
          response: { 200: messageSchema, ...errorsById, 422: errorBodySchema },
        },
      },
      async (request) => {
        await users.resendInvitation(actorOf(request), request.params.id);
        return { message: INVITATION_SENT_MESSAGE };
      },
    );
  };
