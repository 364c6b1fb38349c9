import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { Config } from '../config.ts';

/**
 * A request path as logged: without its query string (the reset link carries its token there),
 * and with the token of a calendar feed address (`/calendar/{token}.ics`, issue 20) hidden, also
 * in a mistyped or mis-cased path that the router would not even find; any other run of 32 or more
 * token characters is hidden too, since no path of the portal names a thing with one.
 */
export function loggedPath(url: string): string {
  return url
    .split('?')[0]!
    .replace(/(calendar\/)[^/]*/gi, '$1[verborgen]')
    .replace(/[A-Za-z0-9_-]{32,}/g, '[verborgen]');
}

/**
 * Request logs without secrets: the Authorization header and cookies are redacted wherever the
 * portal or a plugin logs them, and URLs are logged as `loggedPath` shows them. The server test
 * suite searches its whole log, at level trace, for every token it issued (issue 22).
 */
export function loggerOptions(config: Config): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        // @fastify/multipart logs the request headers at trace level before it parses an upload.
        'busboyOptions.headers.authorization',
        'busboyOptions.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'password',
        'token',
        'access_token',
        'device_token',
      ],
      censor: '[verborgen]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: loggedPath(request.url), ip: request.ip };
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
