import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The API description is the tested truth (decision 132): every answer a test app gives is checked
 * against the document at /api/docs for its operation, status and media type. An undocumented
 * status, media type or body is recorded as a violation; `buildTestApp` fails the `inject` call
 * that received it (and `close()` anything that came in over a real port).
 */

type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'https://portal.test/openapi.json';
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * One document per process and one compiled validator per distinct schema (most error answers
 * share `{ $ref: Error }`), so checking costs the suite little.
 */
let shared: { paths: Record<string, Record<string, Operation>>; ajv: Ajv2020 } | undefined;
const validators = new Map<string, ValidateFunction>();

function documentOf(app: FastifyInstance) {
  if (!shared) {
    const document = app.swagger() as unknown as Json & {
      paths: Record<string, Record<string, Operation>>;
      components: Json;
    };
    // Not strict: OpenAPI keywords beside the schemas (and `format: binary`) are no JSON Schema.
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addFormat('binary', true);
    ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    shared = { paths: document.paths, ajv };
  }
  return shared;
}

function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = shared!.ajv.compile(
      JSON.parse(key.replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)),
    );
    validators.set(key, validate);
  }
  return validate;
}

/** `/api/v1/calendar/:token.ics` → `/api/v1/calendar/{token}.ics`. */
const openApiPath = (routeUrl: string) => routeUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function mediaTypeOf(reply: FastifyReply): string | undefined {
  const header = reply.getHeader('content-type');
  return typeof header === 'string' ? header.split(';')[0]!.trim().toLowerCase() : undefined;
}

function matchContent(content: Record<string, { schema?: Json }>, mediaType: string) {
  const range = `${mediaType.split('/')[0]}/*`;
  for (const key of [mediaType, range, '*/*']) if (content[key]) return { key, entry: content[key] };
  return undefined;
}

function bodyText(reply: FastifyReply, payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) {
    const raw = reply.getHeader('content-encoding') === 'gzip' ? gunzipSync(payload) : payload;
    return raw.toString('utf8');
  }
  return undefined;
}

/** What is wrong with one answer, or undefined when the document describes it. */
export function checkAnswer(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | undefined {
  const routeUrl = request.routeOptions.url;
  if (!routeUrl?.startsWith('/api/v1/')) return undefined;
  const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase();
  const path = openApiPath(routeUrl);
  const where = `${request.method} ${path} → ${reply.statusCode}`;
  const operation = documentOf(app).paths[path]?.[method];
  if (!operation) return `${where}: die Operation fehlt in der API-Beschreibung`;
  const status = String(reply.statusCode);
  const response = operation.responses[status];
  if (!response)
    return `${where}: Status nicht dokumentiert (dokumentiert: ${Object.keys(operation.responses).join(', ')})`;

  const text = bodyText(reply, payload);
  const hasBody = payload !== null && payload !== undefined && text !== '';
  // Fastify drops the body of a 204 after this hook (a route's `send(null)` serialises to "null").
  if (!hasBody || request.method === 'HEAD' || reply.statusCode === 204) return undefined;
  const mediaType = mediaTypeOf(reply);
  if (!response.content) return `${where}: Antwort mit Inhalt (${mediaType}), dokumentiert ist keiner`;
  if (!mediaType) return `${where}: Antwort ohne Content-Type`;
  const match = matchContent(response.content, mediaType);
  if (!match) {
    return `${where}: Medientyp ${mediaType} nicht dokumentiert (dokumentiert: ${Object.keys(response.content).join(', ')})`;
  }
  if (mediaType !== 'application/json' || text === undefined || !match.entry.schema) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: kein gültiges JSON`;
  }
  const validate = validatorFor(match.entry.schema);
  if (validate(body)) return undefined;
  return `${where}: Inhalt passt nicht zur API-Beschreibung: ${JSON.stringify(validate.errors?.slice(0, 5))}\n${text.slice(0, 500)}`;
}

/**
 * Installs the check on a test app: an `onSend` hook on the root applies to every route. Returns
 * the violations seen so far; the caller reports them.
 */
export function checkAnswersAgainstDescription(app: FastifyInstance): string[] {
  const violations: string[] = [];
  // The document is made before the first request: made during one, it would hold up the
  // requests running beside it (the sign-in tests measure such waits).
  app.addHook('onReady', async () => {
    documentOf(app);
    validatorFor(ERROR_REF);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const violation = checkAnswer(app, request, reply, payload);
    if (violation) violations.push(violation);
    return payload;
  });
  return violations;
}
