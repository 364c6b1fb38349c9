import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app.ts';

export const eventsRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async () => {};
