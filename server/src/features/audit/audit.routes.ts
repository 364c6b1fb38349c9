import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app.ts';

export const auditRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async () => {};
