import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger.js';
import type { Bindings, ChildLoggerOptions, Logger, LoggerOptions } from 'pino';
import type { Config } from '../config.ts';

/** What either replacement of `loggedPath` would find (without the global flag: no `lastIndex`). */
const MAY_HOLD_TOKEN = /calendar\/|[A-Za-z0-9_-]{32}/i;

/**
 * A request path as logged: without its query string (the reset link carries its token there),
 * and with the token of a calendar feed address (`/calendar/{token}.ics`, decision 130) hidden, also
 * in a mistyped or mis-cased path that the router would not even find; any other run of 32 or more
 * token characters is hidden too, since no path of the portal names a thing with one.
 */
export function loggedPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // Most paths hold neither: one test instead of two replacements (decision 187).
  if (!MAY_HOLD_TOKEN.test(path)) return path;
  return path.replace(/(calendar\/)[^/]*/gi, '$1[verborgen]').replace(/[A-Za-z0-9_-]{32,}/g, '[verborgen]');
}

/**
 * Request logs without secrets: the Authorization header and cookies are redacted wherever the
 * portal or a plugin logs them, and URLs are logged as `loggedPath` shows them. The server test
 * suite searches its whole log, at level trace, for every token it issued (decision 133).
 */
export function loggerOptions(config: Config): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    redact: {
      // `req` needs no entry: its serializer below keeps method, path, address and id only.
      paths: [
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
    if (!error && reply.log instanceof RequestLogger) {
      reply.log.completed(request, reply);
      return;
    }
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * A request's logger that becomes a pino child (with the request id) only when something is
 * logged above its level: most requests log nothing but the line of `RequestLog`, which is written
 * through the parent with the same fields, so no child is made for them at all (decision 137).
 */
export class RequestLogger implements FastifyBaseLogger {
  private child_: Logger | undefined;
  private threshold: number;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    this.threshold = this.valueOf(options.level ?? parent.level);
  }

  /** pino's number for a level; `silent` (which has none) and unknown names log nothing. */
  private valueOf(level: string): number {
    return this.parent.levels.values[level] ?? Number.POSITIVE_INFINITY;
  }

  private get real(): Logger {
    this.child_ ??= this.parent.child(this.bindings, this.options);
    return this.child_;
  }

  get level(): string {
    return this.child_?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.options.level = level;
    this.threshold = this.valueOf(level);
    if (this.child_) this.child_.level = level;
  }

  /**
   * The `request completed` line, as the child would write it, from plain values: handing pino
   * Fastify's request and reply objects made the line cost four times as much (decision 137).
   */
  completed(request: FastifyRequest, reply: FastifyReply): void {
    if (this.threshold > this.valueOf('info')) return;
    this.parent.info(
      {
        reqId: request.id,
        req: { id: request.id, method: request.method, url: request.url, ip: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }

  fatal: Logger['fatal'] = (...args: Parameters<Logger['fatal']>) => this.at('fatal', args);
  error: Logger['error'] = (...args: Parameters<Logger['error']>) => this.at('error', args);
  warn: Logger['warn'] = (...args: Parameters<Logger['warn']>) => this.at('warn', args);
  info: Logger['info'] = (...args: Parameters<Logger['info']>) => this.at('info', args);
  debug: Logger['debug'] = (...args: Parameters<Logger['debug']>) => this.at('debug', args);
  trace: Logger['trace'] = (...args: Parameters<Logger['trace']>) => this.at('trace', args);
  silent: Logger['silent'] = () => {};

  private at(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]) {
    if (this.valueOf(level) < this.threshold) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: `RequestLogger` over a pino logger, the usual child otherwise. */
export const requestLoggerFactory: FastifyChildLoggerFactory = function (logger, bindings, options) {
  return 'levels' in logger && 'bindings' in logger
    ? new RequestLogger(logger as unknown as Logger, bindings, { ...options })
    : logger.child(bindings, options);
};
