import type { FastifyInstance, HTTPMethods } from 'fastify';

/** One registered route: method and path as registered (`/api/v1/files/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

export const routeKey = (route: RegisteredRoute) => `${route.method} ${route.url}`;

const LINE = /^((?:[│ ] {3})*)(?:├── |└── )(.*) \(([A-Z, ]+)\)$/;

/**
 * Every route the server has registered, read from the server itself: Fastify's route tree as
 * `printRoutes({ commonPrefix: false })` prints it, one line per path with its methods. The
 * tree nests a child's path under its parent's, four characters per level; the full path is the
 * concatenation of the segments above it. Each parsed route is confirmed with `hasRoute`, and the
 * OpenAPI document (built from the same registrations by @fastify/swagger) must not name a route
 * the parse missed, so a change in the printed format cannot silently shrink the list.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const printed = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: RegisteredRoute[] = [];
  for (const line of printed.split('\n')) {
    if (line.trim() === '') continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`Unbekanntes Format der Routenliste: ${JSON.stringify(line)}`);
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2]!);
    for (const method of match[3]!.split(',').map((m) => m.trim())) {
      routes.push({ method, url: path });
    }
  }
  for (const route of routes) {
    // Fastify's hasRoute does not match a wildcard HEAD route (the API viewer's `/api/docs/*`).
    if (route.url.endsWith('*')) continue;
    if (!app.hasRoute({ method: route.method as HTTPMethods, url: route.url })) {
      throw new Error(`Route aus der Routenliste nicht registriert: ${routeKey(route)}`);
    }
  }
  const known = new Set(routes.map(routeKey));
  const openApi = app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  for (const [path, operations] of Object.entries(openApi.paths ?? {})) {
    // OpenAPI writes `{id}` where Fastify writes `:id`.
    const url = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const method of Object.keys(operations)) {
      const key = `${method.toUpperCase()} ${url}`;
      if (!known.has(key)) throw new Error(`Route im OpenAPI-Dokument, aber nicht in der Liste: ${key}`);
    }
  }
  return routes.sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/** The routes of the REST API (`/api/v1/…`). */
export const apiRoutes = (app: FastifyInstance) =>
  registeredRoutes(app).filter((route) => route.url.startsWith('/api/v1/'));
