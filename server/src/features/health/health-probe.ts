import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions as HttpServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { API_HEADERS } from '../../plugins/security-headers.ts';

export const HEALTH_PATH = '/api/v1/health';
const BODY = JSON.stringify({ status: 'ok' });
/** Exactly what the route in health.routes.ts sends (the probe test compares the two). */
const HEADERS = {
  ...API_HEADERS,
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(BODY)),
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Fastify's `serverFactory`: the HTTP server Fastify would make, which answers a plain
 * `GET /api/v1/health` itself before the framework sees it (decision 137). A load
 * balancer's probe needs no routing, sign-in, hooks or logger; everything else, a health request
 * with a query string, HEAD, and every request once the portal is closing (`closing()`: Fastify
 * answers those 503), goes to Fastify, where the route with the same answer stays (OpenAPI, tests).
 */
export function serverWithHealthProbe(closing: () => boolean) {
  return (handler: Handler, options: FastifyServerOptions): Server => {
    const server = createServer((options as { http?: HttpServerOptions }).http ?? {}, (request, response) => {
      if (request.url === HEALTH_PATH && request.method === 'GET' && !closing()) {
        response.writeHead(200, HEADERS);
        response.end(BODY);
        return;
      }
      handler(request, response);
    });
    // What Fastify sets on the server it makes itself (lib/server.js).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
