import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FORGOT_PASSWORD_SUCCESS_MESSAGE,
  forgotPasswordBodySchema,
  loginBodySchema,
  passwordResetBodySchema,
} from '@gremienportal/contracts/auth';
import { errorBodySchema, messageSchema } from '@gremienportal/contracts/common';
import {
  loginResultSchema,
  passwordResetResultSchema,
  twoFactorBodySchema,
  twoFactorLoginResponseSchema,
  webauthnLoginBodySchema,
  webauthnLoginOptionsBodySchema,
  webauthnOptionsSchema,
} from '@gremienportal/contracts/two-factor';
import { secondFactorService } from '../two-factor/second-factor.service.ts';
import type { AppContext } from '../../context.ts';
import { dummyPasswordHash } from '../../credentials/passwords.ts';
import { principalOf } from '../../plugins/auth.ts';
import { authService, type Client } from './auth.service.ts';

/**
 * These bodies are a few short fields. The app-wide JSON limit is sized for data-URL uploads;
 * public routes must not let anyone make the server parse that much.
 */
const BODY_LIMIT = 16 * 1024;

const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

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
            200: loginResultSchema.describe(
              'Angemeldet, oder bei Konten mit zweitem Faktor `two_factor_required` und ein `challenge` für POST /auth/two-factor',
            ),
            401: errorBodySchema.describe('E-Mail-Adresse oder Passwort falsch'),
            422: errorBodySchema,
            429: errorBodySchema.describe(
              'Zu viele Fehlversuche, oder die Passwortprüfung ist ausgelastet; siehe Retry-After',
            ),
          },
        },
      },
      async (request, reply) => {
        // The answer carries a bearer token: no cache may keep it (as RFC 6749 asks of token answers).
        reply.header('Cache-Control', 'no-store');
        return auth.login(request.body, clientOf(request));
      },
    );

    const secondFactor = secondFactorService(ctx);
    app.post(
      '/auth/two-factor',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Zweiter Schritt der Anmeldung: Bestätigungscode oder Wiederherstellungscode',
          description:
            '`challenge` aus der Antwort von POST /auth/login (5 Minuten gültig, einmal verwendbar) mit `code` ' +
            '(6 Ziffern aus der Authenticator-App) oder `recovery_code`. `trust_device: true` liefert ein ' +
            '`device_token`, das 30 Tage lang bei POST /auth/login als `device_token` den zweiten Schritt erspart. ' +
            '5 falsche Codes nacheinander sperren den zweiten Schritt des Kontos für 15 Minuten (429).',
          security: [],
          body: twoFactorBodySchema,
          response: {
            200: twoFactorLoginResponseSchema,
            401: errorBodySchema.describe('Code falsch, Anmeldung abgelaufen oder bereits verwendet'),
            422: errorBodySchema,
            429: errorBodySchema.describe('Zweiter Schritt gesperrt; siehe Retry-After'),
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return auth.finishSignIn(request.body, clientOf(request));
      },
    );

    app.post(
      '/auth/two-factor/webauthn/options',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Zweiter Schritt mit Passkey, Teil 1: Optionen für navigator.credentials.get',
          security: [],
          body: webauthnLoginOptionsBodySchema,
          response: {
            200: webauthnOptionsSchema,
            401: errorBodySchema.describe('Anmeldung abgelaufen oder bereits verwendet'),
            409: errorBodySchema.describe('Kein Passkey eingerichtet'),
            422: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return secondFactor.loginPasskeyOptions(request.body.challenge);
      },
    );

    app.post(
      '/auth/two-factor/webauthn/verify',
      {
        config: { access: 'public' },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Anmeldung'],
          summary: 'Zweiter Schritt mit Passkey, Teil 2: die Antwort des Browsers schließt die Anmeldung ab',
          description:
            'Wie POST /auth/two-factor, aber mit `response` (AuthenticationResponseJSON) statt eines Codes. ' +
            'Eine fehlgeschlagene Prüfung zählt wie ein falscher Code.',
          security: [],
          body: webauthnLoginBodySchema,
          response: {
            200: twoFactorLoginResponseSchema,
            401: errorBodySchema.describe(
              'Passkey nicht bestätigt, Anmeldung abgelaufen oder bereits verwendet',
            ),
            422: errorBodySchema,
            429: errorBodySchema.describe('Zweiter Schritt gesperrt; siehe Retry-After'),
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        const { response, ...rest } = request.body;
        return auth.finishSignIn({ ...rest, webauthn: response }, clientOf(request));
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { duringTwoFactorSetup: true },
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
            200: passwordResetResultSchema,
            422: errorBodySchema.describe('Eingaben ungültig oder Link ungültig, benutzt oder abgelaufen'),
          },
        },
      },
      async (request) => auth.resetPassword(request.body, clientOf(request)),
    );
  };
