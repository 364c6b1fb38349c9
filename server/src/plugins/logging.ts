import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
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

/**
 * One line per request once it is answered (method, path without query, status, duration)
 * instead of Fastify's two: logging was the largest cost of a small request (decision 112).
 * A route with a `logLevel` above `info` (the health check) stays out of the log.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
