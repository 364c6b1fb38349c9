import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountSchema,
  updateAccountBodySchema,
  updateAccountResponseSchema,
} from '@gremienportal/contracts/account';
import { dataOf, errorBodySchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../plugins/auth.ts';
import { accountOf, accountService } from './account.service.ts';
import { twoFactorService } from './two-factor.service.ts';
import { twoFactorStatusSchema } from '@gremienportal/contracts/two-factor';

/** A few short fields; the app-wide JSON limit is sized for data-URL uploads. */
const BODY_LIMIT = 16 * 1024;

export const accountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const account = accountService(ctx);
    const twoFactor = twoFactorService(ctx);
    app.get(
      '/account',
      {
        config: { duringTwoFactorSetup: true },
        schema: {
          tags: ['Account'],
          summary: 'Das eigene Konto',
          response: {
            200: dataOf(accountSchema.extend({ two_factor: twoFactorStatusSchema })),
            401: errorBodySchema,
          },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return { data: { ...accountOf(principal), two_factor: await twoFactor.status(principal) } };
      },
    );

    app.put(
      '/account',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['Account'],
          summary:
            'Das eigene Konto ändern: Passwort alle; Titel, Namen und E-Mail nur Admin und Super-Admin',
          body: updateAccountBodySchema,
          response: {
            200: updateAccountResponseSchema,
            401: errorBodySchema,
            403: errorBodySchema.describe('Titel, Namen oder E-Mail ohne Berechtigung geändert'),
            422: errorBodySchema,
          },
        },
      },
      async (request) => ({
        user: await account.updateAccount(principalOf(request), request.body, { ip: request.ip }),
      }),
    );
  };
