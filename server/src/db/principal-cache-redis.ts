import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { PrincipalCache } from './principal-cache.ts';

const CHANNEL = 'gremienportal:principals';

/**
 * Several instances (decision 137): each local invalidation of the principal cache is published,
 * and every other instance empties its cache when it hears it. A lost message (Redis away) leaves
 * another instance's entries at most the cache's second old.
 */
export function shareInvalidations(
  url: string,
  cache: PrincipalCache<unknown>,
  logger: Pick<Logger, 'warn'>,
): { close(): Promise<void> } {
  const self = randomUUID();
  const options = { maxRetriesPerRequest: 1, connectTimeout: 5_000, lazyConnect: false };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  let warned = 0;
  const warn = (error: unknown) => {
    if (Date.now() - warned < 30_000) return;
    warned = Date.now();
    logger.warn({ err: error }, 'Redis nicht erreichbar: Anmeldungen gelten bis zu 1 s weiter');
  };
  publisher.on('error', warn);
  subscriber.on('error', warn);
  subscriber.subscribe(CHANNEL).catch(warn);
  subscriber.on('message', (_channel: string, sender: string) => {
    if (sender !== self) cache.invalidate(true);
  });
  cache.onInvalidate = () => {
    publisher.publish(CHANNEL, self).catch(warn);
  };
  return {
    async close() {
      cache.onInvalidate = undefined;
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
