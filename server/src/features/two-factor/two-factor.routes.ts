import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import {
  disableTwoFactorBodySchema,
  passkeyOptionsBodySchema,
  passkeyRegistrationBodySchema,
  passkeyRegistrationResponseSchema,
  recoveryCodesResponseSchema,
  webauthnOptionsSchema,
  totpConfirmBodySchema,
  totpSetupResponseSchema,
} from '@gremienportal/contracts/two-factor';
import type { AppContext } from '../../context.ts';
import { actorOf, principalOf } from '../../plugins/auth.ts';
import { twoFactorService } from './two-factor.service.ts';

const tags = ['Account'];
const BODY_LIMIT = 16 * 1024;
const errors = { 401: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema };

/** Setting up and turning off one's own second factor (decision 126). */
export const twoFactorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const twoFactor = twoFactorService(ctx);

    app.post(
      '/account/two-factor/totp',
      {
        config: { duringTwoFactorSetup: true },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: 'Authenticator-App einrichten: neues Geheimnis mit QR-Code (wartet auf Bestätigung)',
          response: { 200: totpSetupResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return twoFactor.startTotp(principalOf(request));
      },
    );

    app.post(
      '/account/two-factor/totp/confirm',
      {
        config: { duringTwoFactorSetup: true },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Authenticator-App mit einem Code und dem Passwort bestätigen; liefert 10 Wiederherstellungscodes (nur jetzt)',
          description:
            'Falsche Passwörter zählen wie fehlgeschlagene Anmeldungen; nach zu vielen endet die Sitzung (429).',
          body: totpConfirmBodySchema,
          response: { 200: recoveryCodesResponseSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return { recovery_codes: await twoFactor.confirmTotp(actorOf(request), request.body) };
      },
    );

    app.post(
      '/account/two-factor/recovery-codes',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: 'Neue Wiederherstellungscodes; die bisherigen gelten nicht mehr',
          response: { 200: recoveryCodesResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return { recovery_codes: await twoFactor.renewRecoveryCodes(actorOf(request)) };
      },
    );

    app.post(
      '/account/two-factor/webauthn/registration-options',
      {
        config: { duringTwoFactorSetup: true },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Passkey hinzufügen, Schritt 1: mit dem Passwort die Optionen für navigator.credentials.create',
          description:
            'Falsche Passwörter zählen wie fehlgeschlagene Anmeldungen; nach zu vielen endet die Sitzung (429).',
          body: passkeyOptionsBodySchema,
          response: {
            200: webauthnOptionsSchema,
            401: errorBodySchema,
            422: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return twoFactor.passkeyOptions(actorOf(request), request.body);
      },
    );

    app.post(
      '/account/two-factor/webauthn/registration',
      {
        config: { duringTwoFactorSetup: true },
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: 'Passkey hinzufügen, Schritt 2: die Antwort des Browsers prüfen und speichern',
          description:
            'Der erste zweite Faktor eines Kontos schaltet die Zwei-Faktor-Anmeldung ein und liefert ' +
            '10 Wiederherstellungscodes (nur jetzt); sonst ist `recovery_codes` leer.',
          body: passkeyRegistrationBodySchema,
          response: { 200: passkeyRegistrationResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return twoFactor.addPasskey(actorOf(request), request.body);
      },
    );

    app.delete(
      '/account/two-factor/webauthn/:id',
      {
        schema: {
          tags,
          summary: 'Einen Passkey entfernen (nicht den einzigen zweiten Faktor)',
          params: idParamsSchema,
          response: { 204: z.null(), 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        await twoFactor.removePasskey(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/account/two-factor/webauthn/confirm-options',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: 'Mit einem Passkey bestätigen (Ausschalten): Optionen für navigator.credentials.get',
          response: { 200: webauthnOptionsSchema, 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        return twoFactor.confirmOptions(principalOf(request));
      },
    );

    app.delete(
      '/account/two-factor/trusted-devices/:id',
      {
        schema: {
          tags,
          summary:
            'Einem vertrauten Gerät nicht mehr vertrauen (die nächste Anmeldung fragt wieder nach dem Code)',
          params: idParamsSchema,
          response: { 204: z.null(), 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        await twoFactor.forgetDevice(principalOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/account/two-factor',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Zwei-Faktor-Anmeldung ausschalten: Passwort und ein aktueller Code, Wiederherstellungscode oder Passkey nötig',
          body: disableTwoFactorBodySchema,
          response: { 204: z.null(), ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        await twoFactor.disable(actorOf(request), request.body);
        return reply.status(204).send(null);
      },
    );
  };
