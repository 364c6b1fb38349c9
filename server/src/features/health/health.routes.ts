import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

export const healthRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/health',
      {
        config: { access: 'public' },
        // Load balancers ask every few seconds; their probes would bury the real requests.
        logLevel: 'warn',
        schema: {
          tags: ['System'],
          summary: 'Betriebsbereitschaft für Load Balancer und Überwachung',
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
  };
