import type { FastifyInstance } from 'fastify';

/**
 * A strict policy: scripts only from the portal's own files, no framing, no referrer (reset
 * links carry a token). Styles allow inline attributes because the UI library sets them.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

/**
 * Pages and assets of the web app (and the API viewer) get the headers helmet would set with the
 * policy above (no HSTS: TLS ends at the proxy, which sets it; no COEP: downloads open in new
 * tabs).
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * API answers are data, never documents: the set OWASP recommends for REST services, with a
 * policy that allows nothing at all should a browser ever render one. The headers that only
 * matter for documents (opener policy, agent cluster, prefetch, legacy IE and Flash switches)
 * are left out: on every small API answer they cost a fifth of its time (decision 112).
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  // Answers carry personal data: no browser or proxy keeps a copy unless a route says otherwise.
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The document headers with more origins the web app may fetch from: with DOWNLOAD_OFFLOAD=s3 a
 * download is redirected to the object store, and the browser applies `connect-src` to the
 * redirect's target too (decision 135).
 */
export function documentHeaders(connectSources: readonly string[] = []): Readonly<Record<string, string>> {
  if (connectSources.length === 0) return DOCUMENT_HEADERS;
  return {
    ...DOCUMENT_HEADERS,
    'content-security-policy': CONTENT_SECURITY_POLICY.replace(
      "connect-src 'self'",
      ["connect-src 'self'", ...connectSources].join(' '),
    ),
  };
}

/** Every answer carries one of the sets; routes may override a header (downloads do). */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { connectSources?: readonly string[] } = {},
): void {
  const pageHeaders = documentHeaders(options.connectSources);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/v1/') ? API_HEADERS : pageHeaders);
    done();
  });
}
