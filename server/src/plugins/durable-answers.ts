import type { FastifyInstance } from 'fastify';
import type { Durability } from '../db/durable-commits.ts';

/**
 * No answer leaves before the commits made until then are on the disk (decision 140): a write
 * answers only once its commit is, and a read that may have seen another request's commit waits
 * for it too. With nothing pending (every answer on a quiet portal, PostgreSQL always) the hook
 * costs one comparison and no promise. A failed flush turns the answer into the error answer
 * (500), which reports no success and so goes out without waiting.
 */
export function registerDurableAnswers(app: FastifyInstance, durability: Durability): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!durability.pending || reply.statusCode >= 500) {
      done(null, payload);
      return;
    }
    durability.untilDurable().then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
