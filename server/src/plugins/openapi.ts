import type { FastifyInstance } from 'fastify';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, roleSchema } from '@gremienportal/contracts/common';
import { folderSchema } from '@gremienportal/contracts/folders';
import { storedFileSchema, treeNodeSchema } from '@gremienportal/contracts/files';
import { portalEventSchema } from '@gremienportal/contracts/events';
import { userSchema } from '@gremienportal/contracts/users';
import type { Config } from '../config.ts';
import type { RouteAccess } from './auth.ts';
import { scopeForRoute } from '../policies/api-key.policy.ts';
import { apiKeySchema } from '@gremienportal/contracts/api-keys';

/**
 * The API description at /api/docs (decision 132): OpenAPI 3.1, generated from the routes' zod
 * contracts. Routes state what is particular to them (summary, success answers, errors with a
 * reason of their own); this module adds in one place what follows from a route's kind: the
 * operationId, access, the standard error answers, download and upload media types.
 */

export const OPENAPI_VERSION = '3.1.0';

/** What an upload route takes besides its multipart form: the JSON reading and the file fields. */
export interface UploadDescription {
  /** The JSON reading of the body; multipart sends the same fields as form fields. */
  body: z.ZodType;
  /** JSON fields that carry the file as a data URL; multipart sends it as the part `file`. */
  dataUrlFields: readonly string[];
}

declare module 'fastify' {
  interface FastifySchema {
    /** Documents a body read by `readUpload` (multipart or JSON with a data URL). */
    upload?: UploadDescription;
  }
}

/**
 * The shared objects, named in `components.schemas`. Registered here rather than with `.meta()`
 * in the contracts: the contracts stay as the web app bundles them, and the ids name the very
 * schema instances the routes answer with, so the document cannot drift from them.
 */
const NAMED_SCHEMAS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [errorBodySchema, 'Error'],
  [roleSchema, 'Role'],
  [folderSchema, 'Folder'],
  [storedFileSchema, 'StoredFile'],
  [treeNodeSchema, 'TreeNode'],
  [portalEventSchema, 'PortalEvent'],
  [userSchema, 'User'],
  [apiKeySchema, 'ApiKey'],
];
for (const [schema, id] of NAMED_SCHEMAS)
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const BINARY = { type: 'string', format: 'binary' };

const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Anfrage ungültig: fehlerhafte Adresse, kein gültiges JSON oder kein Objekt als Inhalt',
  '401': 'Nicht angemeldet, Token unbekannt oder Sitzung abgelaufen',
  '403':
    'Keine Berechtigung; `code: two_factor_setup_required`, solange ein nötiger zweiter Faktor nicht eingerichtet ist',
  '404': 'Nicht gefunden oder für den angemeldeten Nutzer nicht sichtbar',
  '409': 'Konflikt mit dem aktuellen Stand',
  '413': 'Anfrage oder Datei zu groß',
  '415': 'Dieses Datenformat wird nicht unterstützt',
  '416': 'Der angeforderte Bereich (Range) liegt außerhalb der Datei',
  '422': 'Eingaben ungültig; `errors` nennt je Feld die deutschen Meldungen',
  '429': 'Zu viele Anfragen; `Retry-After` nennt die Wartezeit in Sekunden',
  '500': 'Interner Fehler',
  '503': 'Vorübergehend nicht verfügbar (Neustart, Überlastung); `Retry-After`, wo bekannt',
  '507': 'Der Speicherplatz ist erschöpft',
};

const ACCESS_DESCRIPTIONS: Record<RouteAccess, string> = {
  public: 'Zugriff: ohne Anmeldung.',
  user: 'Zugriff: angemeldete Nutzer (Bearer-Token).',
  admin: 'Zugriff: Admin und Super-Admin (Bearer-Token); andere erhalten 403.',
  'admin-hidden':
    'Zugriff: Admin und Super-Admin (Bearer-Token); für andere existiert das Objekt nicht (404).',
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  System: 'Betriebszustand',
  Anmeldung: 'Anmelden, Abmelden, Passwort vergessen und zweiter Faktor',
  Konto: 'Das eigene Konto des angemeldeten Nutzers',
  Rollen: 'Die Rollen des Portals',
  Nutzer: 'Nutzerverwaltung (Admin)',
  Ordner: 'Ordner des Dokumentenbereichs und der Ordnerbaum',
  Dateien: 'Dokumente: Liste, Upload, Download',
  Events: 'Termine und Sitzungen mit Tagesordnung, Zusagen und Protokoll',
  Aktivitäten: 'Aktivitäten (Audit-Log) der Geschäftsstelle',
  'API-Schlüssel': 'Schlüssel für technische Konten anderer Systeme (Super-Admin)',
};

/** Which API-Schlüssel may call an operation (api-key.policy.ts), for integrators. */
function keyScopeText(method: string, path: string): string {
  if (!path.startsWith('/api/v1/')) return '';
  const scope = scopeForRoute(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'));
  return scope
    ? ` API-Schlüssel: mit der Berechtigung \`${scope}\`.`
    : ' API-Schlüssel: nicht nutzbar (403).';
}

/** `GET /api/v1/folders/{id}/files` → `getFoldersByIdFiles`: stable as long as the route is. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', ...param[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

type Json = Record<string, unknown>;
type Operation = Json & {
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema?: Json; encoding?: Json }> } & Json;
  responses: Record<string, Json & { content?: Record<string, Json>; headers?: Json }>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The error answers a route can give because of what kind of route it is. */
function standardErrors(method: string, operation: Operation, access: RouteAccess): string[] {
  // 422 everywhere: any query or body with a NUL character is refused (plugins/text-input.ts).
  // 507 everywhere: reads write too (sessions, the delivery record of a download).
  const statuses = ['400', '422', '500', '503', '507'];
  const parameters = operation.parameters ?? [];
  if (access !== 'public') statuses.push('401', '403');
  if (access === 'admin-hidden' || parameters.some((p) => p.in === 'path')) statuses.push('404');
  // Fastify reads a body sent with any other method, whether or not the route takes one.
  if (method !== 'get') statuses.push('413', '415');
  return statuses;
}

const downloadHeaders = (partial: boolean): Json => ({
  'Content-Disposition': {
    description: '`inline` (PDF und Bilder) oder `attachment`, mit dem Dateinamen',
    schema: { type: 'string' },
  },
  'Content-Length': { schema: { type: 'integer' } },
  ETag: { description: 'Kennzeichnet diese Fassung der Datei (für `If-Range`)', schema: { type: 'string' } },
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  ...(partial
    ? { 'Content-Range': { description: '`bytes start-end/size`', schema: { type: 'string' } } }
    : {}),
});

/** Binary answers: the stored media type; PDF and unknown formats named, any other allowed. */
const binaryContent = (mediaTypes: readonly string[]) =>
  Object.fromEntries(mediaTypes.map((type) => [type, { schema: BINARY }]));

function describeDownload(operation: Operation): void {
  const content = binaryContent(['application/pdf', 'application/octet-stream', '*/*']);
  operation.responses['200'] = {
    description: 'Der Dateiinhalt; Content-Type ist der gespeicherte Medientyp der Datei',
    headers: downloadHeaders(false),
    content,
  };
  operation.responses['206'] = {
    description: 'Ein Teilbereich des Dateiinhalts (Antwort auf `Range`)',
    headers: downloadHeaders(true),
    content,
  };
  // Decision 135: with DOWNLOAD_OFFLOAD=s3 the object store sends the bytes of a GET.
  operation.responses['303'] = {
    description:
      'Nur bei `DOWNLOAD_OFFLOAD=s3`, nur auf GET: der Inhalt liegt unter `Location`, einer vorsignierten ' +
      'Adresse des Objektspeichers, 60 Sekunden gültig; dort kommen Medientyp und Dateiname wie bei 200. ' +
      'Bei der Weiterleitung zu einem anderen Ursprung lässt der Browser den Bearer-Header weg.',
    headers: {
      Location: { description: 'Die vorsignierte Adresse', schema: { type: 'string', format: 'uri' } },
      'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
    },
  };
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      in: 'header',
      name: 'Range',
      required: false,
      description:
        'Ein Bereich `bytes=start-end`, `bytes=start-` oder `bytes=-länge`; mehrere Bereiche → ganze Datei',
      schema: { type: 'string' },
    },
    {
      in: 'header',
      name: 'If-Range',
      required: false,
      description: 'ETag einer früheren Antwort: der Bereich nur, wenn die Datei noch dieselbe ist',
      schema: { type: 'string' },
    },
  ];
}

/** Multipart reading of an upload: the JSON fields as form fields, the file as part `file`. */
function describeUpload(operation: Operation, dataUrlFields: readonly string[]): void {
  const json = operation.requestBody?.content['application/json']?.schema;
  if (!json) return;
  const properties = { ...((json.properties as Json | undefined) ?? {}) };
  for (const field of dataUrlFields) delete properties[field];
  properties.file = { ...BINARY, description: 'Die Datei (ein Teil mit Dateinamen)' };
  const { required, ...rest } = json as Json & { required?: string[] };
  const multipart: Json = {
    ...rest,
    properties,
    ...(required ? { required: required.filter((name) => !dataUrlFields.includes(name)) } : {}),
  };
  operation.requestBody!.content = {
    'application/json': { schema: json },
    'multipart/form-data': { schema: multipart, encoding: { file: { contentType: '*/*' } } },
  };
}

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child.replace('#/components/schemas/', ''));
      else refsIn(child, found);
    }
  }
}

/** Drops component schemas nothing refers to (each named schema exists as input and output). */
function pruneSchemas(document: Json & { components: { schemas: Json } }): void {
  const { components, ...rest } = document;
  const used = new Set<string>();
  refsIn(rest, used);
  const queue = [...used];
  while (queue.length > 0) {
    const found = new Set<string>();
    refsIn(components.schemas[queue.pop()!], found);
    for (const name of found) {
      if (used.has(name)) continue;
      used.add(name);
      queue.push(name);
    }
  }
  components.schemas = Object.fromEntries(
    Object.entries(components.schemas)
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Completes every operation from its kind (see the module comment). */
export function completeDocument(document: Json): Json {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const access = (operation['x-access'] as RouteAccess | undefined) ?? 'user';
      const upload = operation['x-upload'] as string[] | undefined;
      delete operation['x-access'];
      delete operation['x-upload'];
      operation.operationId = operationIdOf(method, path);
      const accessText =
        ACCESS_DESCRIPTIONS[access] + (access === 'public' ? '' : keyScopeText(method, path));
      operation.description = operation.description
        ? `${operation.description as string}\n\n${accessText}`
        : accessText;
      if (access === 'public') operation.security = [];
      for (const tag of (operation.tags as string[] | undefined) ?? []) tags.add(tag);

      if (operation.responses['206']) describeDownload(operation);
      if (upload) describeUpload(operation, upload);
      for (const status of standardErrors(method, operation, access)) operation.responses[status] ??= {};
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) {
          const declared = response.description;
          operation.responses[status] = {
            description:
              declared && declared !== 'Default Response'
                ? declared
                : (ERROR_DESCRIPTIONS[status] ?? 'Fehler'),
            ...(response.headers ? { headers: response.headers } : {}),
            content: { 'application/json': { schema: ERROR_REF } },
          };
        } else if (!response.description || response.description === 'Default Response') {
          response.description = status === '204' ? 'Erledigt, ohne Inhalt' : 'Erfolg';
        }
      }
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  document.tags = [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  pruneSchemas(document as Json & { components: { schemas: Json } });
  return document;
}

export function openApiOptions(config: Pick<Config, 'PUBLIC_URL'>): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: {
        title: 'Gremienportal API',
        version: '1.0.0',
        description:
          'REST-API des Gremienportals: Dokumente, Ordner, Events und Nutzer der Gremien. ' +
          'Anmeldung mit POST /api/v1/auth/login; das Token geht als `Authorization: Bearer …` mit. ' +
          'Fehler antworten immer mit JSON `{ message, errors?, code? }`. Anleitung: docs/api.md.',
        license: { name: 'Proprietär', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.PUBLIC_URL.replace(/\/$/, ''), description: 'Dieses Portal' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      const upload = input.schema?.upload;
      const result = jsonSchemaTransform({
        ...input,
        // The upload's JSON reading becomes the documented body (only here: Fastify must not
        // parse it, `readUpload` streams it); `describeUpload` adds the multipart reading.
        schema: upload
          ? { ...input.schema, body: upload.body, consumes: ['application/json'] }
          : input.schema,
      });
      const schema = result.schema as Record<string, unknown>;
      if (schema.hide) return result;
      delete schema.upload;
      delete schema.produces;
      schema['x-access'] = input.route.config?.access ?? 'user';
      if (upload) schema['x-upload'] = [...upload.dataUrlFields];
      return result;
    },
    transformObject: (input) => completeDocument(jsonSchemaTransformObject(input) as Json),
  };
}

/** The document as JSON at /api/docs/json and the viewer at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, openApiOptions(config));
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
