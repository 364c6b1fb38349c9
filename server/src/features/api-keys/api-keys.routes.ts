import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_KEY_MESSAGES,
  apiKeyListResponseSchema,
  createApiKeyBodySchema,
  createdApiKeyResponseSchema,
} from '@gremienportal/contracts/api-keys';
import { errorBodySchema, idParamsSchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../plugins/auth.ts';
import { apiKeysService } from './api-keys.service.ts';

const tags = ['API-Schlüssel'];
const errors = { 401: errorBodySchema, 403: errorBodySchema };

/** API-Schlüssel for technical accounts (decision 136): Super-Admins only. */
export const apiKeysRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const keys = apiKeysService(ctx);

    app.get(
      '/api-keys',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'Alle API-Schlüssel (nur Super-Admins)',
          response: { 200: apiKeyListResponseSchema, ...errors },
        },
      },
      async (request) => ({ data: await keys.list(actorOf(request)) }),
    );

    app.post(
      '/api-keys',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'API-Schlüssel anlegen; der Schlüssel steht nur in dieser Antwort',
          body: createApiKeyBodySchema,
          response: { 201: createdApiKeyResponseSchema, ...errors, 422: errorBodySchema },
        },
      },
      async (request, reply) => {
        const data = await keys.create(actorOf(request), request.body);
        // The token is in this answer only: no cache may keep it.
        return reply
          .status(201)
          .header('Cache-Control', 'no-store')
          .send({ message: API_KEY_MESSAGES.created, data });
      },
    );

    app.delete(
      '/api-keys/:id',
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary: 'API-Schlüssel widerrufen (wirkt sofort)',
          params: idParamsSchema,
          response: { 204: z.null(), ...errors, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        await keys.revoke(actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
