import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FORGOT_PASSWORD_SUCCESS_MESSAGE,
  PASSWORD_RESET_SUCCESS_MESSAGE,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResponseSchema,
  passwordResetBodySchema,
} from '@gremienportal/contracts/auth';
import { errorBodySchema, messageSchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { dummyPasswordHash } from '../../passwords.ts';
import { principalOf } from '../../plugins/auth.ts';
import { authService, type Client } from './auth.service.ts';

/**
 * These bodies are a few short fields. The app-wide JSON limit is sized for data-URL uploads;
 * public routes must not let anyone make the server parse that much.
 */
const BODY_LIMIT = 16 * 1024;

const clientOf = (request: FastifyRequest): Client => ({ ip: request.ip });

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const auth = authService(ctx);
    // Computed once ahead, so the first login with an unknown address takes no longer than others.
    void dummyPasswordHash();

    app.post(
      '/auth/login',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Anmelden: liefert ein Zugriffstoken und den Nutzer',
          security: [],
          body: loginBodySchema,
          response: {
            200: loginResponseSchema,
            401: errorBodySchema.describe('E-Mail-Adresse oder Passwort falsch'),
            422: errorBodySchema,
            429: errorBodySchema.describe('Zu viele Fehlversuche; siehe Retry-After'),
            503: errorBodySchema.describe('Passwortprüfung ausgelastet; siehe Retry-After'),
          },
        },
      },
      async (request, reply) => {
        // The answer carries a bearer token: no cache may keep it (as RFC 6749 asks of token answers).
        reply.header('Cache-Control', 'no-store');
        return auth.login(request.body, clientOf(request));
      },
    );

    app.post(
      '/auth/logout',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Abmelden: beendet die aktuelle Sitzung',
          response: { 204: z.undefined().describe('Abgemeldet'), 401: errorBodySchema },
        },
      },
      async (request, reply) => {
        await auth.logout(principalOf(request), clientOf(request));
        return reply.status(204).send();
      },
    );

    app.post(
      '/auth/forgot-password',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Link zum Zurücksetzen anfordern (gleiche Antwort für jede Adresse)',
          security: [],
          body: forgotPasswordBodySchema,
          response: { 200: messageSchema, 422: errorBodySchema },
        },
      },
      async (request) => {
        await auth.requestPasswordReset(request.body, clientOf(request));
        return { message: FORGOT_PASSWORD_SUCCESS_MESSAGE };
      },
    );

    app.post(
      '/auth/password-reset',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Neues Passwort mit einem Link zum Zurücksetzen oder einer Einladung setzen',
          security: [],
          body: passwordResetBodySchema,
          response: {
            200: messageSchema,
            422: errorBodySchema.describe('Eingaben ungültig oder Link ungültig, benutzt oder abgelaufen'),
          },
        },
      },
      async (request) => {
        await auth.resetPassword(request.body, clientOf(request));
        return { message: PASSWORD_RESET_SUCCESS_MESSAGE };
      },
    );
  };
