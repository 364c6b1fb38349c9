import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, GERMAN, STATUS_BY_CODE } from '../errors.ts';

/** German messages for Fastify's and its plugins' own error codes. */
const MESSAGE_BY_FASTIFY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: GERMAN.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: GERMAN.tooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: GERMAN.emptyJson,
  FST_ERR_CTP_INVALID_JSON_BODY: GERMAN.badJson,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: GERMAN.badRequest,
  FST_REQ_FILE_TOO_LARGE: GERMAN.tooLarge,
  FST_PARTS_LIMIT: GERMAN.tooLarge,
  FST_FILES_LIMIT: 'Es kann nur eine Datei hochgeladen werden.',
  FST_FIELDS_LIMIT: GERMAN.tooLarge,
  FST_INVALID_MULTIPART_CONTENT_TYPE: GERMAN.unsupportedMediaType,
  FST_PROTO_VIOLATION: GERMAN.badRequest,
  FST_ERR_VALIDATION: GERMAN.validation,
};

const MESSAGE_BY_STATUS: Record<number, string> = {
  400: GERMAN.badRequest,
  401: GERMAN.unauthenticated,
  403: GERMAN.forbidden,
  404: GERMAN.notFound,
  405: GERMAN.methodNotAllowed,
  413: GERMAN.tooLarge,
  415: GERMAN.unsupportedMediaType,
  422: GERMAN.validation,
  429: GERMAN.tooManyRequests,
  507: GERMAN.insufficientStorage,
};

const fieldName = (instancePath: string) => instancePath.replace(/^\//, '').replaceAll('/', '.');

/** A full disk, seen by the file system, SQLite or PostgreSQL (SQLSTATE 53100 disk_full). */
const isDiskFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT', 'SQLITE_FULL', '53100'].includes(String((error as { code?: unknown }).code));

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Refused before the whole body arrived (a full disk, a too large upload): the rest is never
    // read, so the connection could serve nothing more and would hang, holding up a graceful stop.
    if (request.raw.complete === false) reply.header('connection', 'close');
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(STATUS_BY_CODE[error.code]).send({
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.reason ? { code: error.reason } : {}),
      });
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path is a thing that does not exist.
      if (error.validationContext === 'params') {
        return reply.status(404).send({ message: GERMAN.notFound });
      }
      // A Map: a field may be named `constructor` or `toString` (an unknown one, named back).
      const errors = new Map<string, string[]>();
      const add = (field: string, message: string) => {
        const messages = errors.get(field) ?? [];
        if (!messages.includes(message)) messages.push(message);
        errors.set(field, messages);
      };
      for (const issue of error.validation) {
        const field = fieldName(issue.instancePath ?? '');
        // Fields the body may not have (plugins/validator.ts, decision 147): named one by one.
        const unknownKeys = issue.keyword === 'unrecognized_keys' ? issue.params.keys : undefined;
        if (Array.isArray(unknownKeys)) {
          for (const key of unknownKeys)
            add(field ? `${field}.${String(key)}` : String(key), GERMAN.unknownField);
          continue;
        }
        if (!field) {
          // The body as a whole is missing or not an object.
          return reply.status(400).send({ message: GERMAN.badRequest });
        }
        add(field, issue.message ?? GERMAN.validation);
      }
      return reply.status(422).send({ message: GERMAN.validation, errors: Object.fromEntries(errors) });
    }

    if (error instanceof SyntaxError) {
      return reply.status(400).send({ message: GERMAN.badJson });
    }

    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        (error.code && MESSAGE_BY_FASTIFY_CODE[error.code]) ?? MESSAGE_BY_STATUS[status] ?? GERMAN.badRequest;
      return reply.status(status).send({ message });
    }
    if (status === 507 || isDiskFull(error)) {
      request.log.error({ err: error }, 'Speicherplatz erschöpft');
      return reply.status(507).send({ message: GERMAN.insufficientStorage });
    }
    request.log.error({ err: error }, 'Unerwarteter Fehler');
    return reply.status(500).send({ message: GERMAN.internal });
  });
}

/**
 * Fastify's router answers a malformed percent-encoding in the path (FST_ERR_BAD_URL) and an
 * overlong path parameter (FST_ERR_MAX_PARAM_LENGTH) itself, before any hook, in English and
 * echoing the path. Passed as the `frameworkErrors` option, this answers them like every other
 * refusal: a malformed address is a bad request, an overlong id names nothing.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply
    .status(tooLong ? 404 : 400)
    .header('X-Content-Type-Options', 'nosniff')
    .send({ message: tooLong ? GERMAN.notFound : GERMAN.badRequest });
}
