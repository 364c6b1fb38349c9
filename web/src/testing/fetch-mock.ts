import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/api/v1/auth/login". */
  url: string;
  headers: Headers;
  body: unknown;
}

export type MockReply = Response | { status?: number; body?: unknown; headers?: Record<string, string> };
export type MockHandler = (request: RecordedRequest) => MockReply | Promise<MockReply>;

export const json = (status: number, body?: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
  });

function toResponse(reply: MockReply): Response {
  // A fixed Response may be asked for more than once; its body can be read only once.
  if (reply instanceof Response) return reply.clone();
  return json(reply.status ?? 200, reply.body, reply.headers);
}

/**
 * Replaces fetch with a table of routes such as `'POST /api/v1/auth/login'`. Unknown routes answer
 * 404 with a German message, as the server does. Returns the recorded requests.
 */
export function mockApi(routes: Record<string, MockHandler | MockReply>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const request: RecordedRequest = { method, url: `${url.pathname}${url.search}`, headers, body };
    requests.push(request);
    if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return json(404, { message: 'Nicht gefunden.' });
    return toResponse(typeof route === 'function' ? await route(request) : route);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetch: fetchMock };
}
