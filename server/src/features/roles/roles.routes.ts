import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataOf, errorBodySchema, roleSchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import { rolesService } from './roles.service.ts';
import { principalOf } from '../../plugins/auth.ts';

export const rolesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const roles = rolesService(ctx);
    app.get(
      '/roles',
      {
        schema: {
          tags: ['Rollen'],
          summary: 'Rollen, nach id sortiert: für Admins alle, sonst die festen Rollen und die eigenen',
          response: { 200: dataOf(z.array(roleSchema)), 401: errorBodySchema },
        },
      },
      async (request) => ({ data: await roles.list(principalOf(request)) }),
    );
  };
