import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Request logs without secrets: the Authorization header and cookies are redacted, and URLs are
 * logged without their query string (the reset link carries its token there).
 */
export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', 'token', 'access_token'],
      censor: '[verborgen]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: request.url.split('?')[0], ip: request.ip };
      },
    },
  };
}
