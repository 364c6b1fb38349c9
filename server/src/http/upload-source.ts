// Over 300 lines because multipart and data-URL uploads share one field and size handling and the same storage streaming; formats live in file-formats.ts.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Config } from '../config.ts';
import { AppError, GERMAN, invalidField } from '../errors.ts';
import { NUL_CHARACTER_MESSAGE } from '../plugins/text-input.ts';
import { tooLargeError } from '../storage/disk-storage.ts';
import { FALLBACK_FORMAT, formatFromMime, formatFromName, mimeTypeFor } from './file-formats.ts';

/** A document that has been written to storage while the request was read. */
export interface StoredUpload {
  /** Server-made object name in the storage (the row's `storage_key`). */
  key: string;
  size: number;
  sha256: string;
  /** Extension without the dot: lower case, letters and digits, at most 10 characters. */
  format: string;
  /** Media type to serve it with; derived from the format where known. */
  mimeType: string;
  /** The file name the client sent (multipart) or the data URL's `name` parameter, if any. */
  originalName?: string;
}

export interface UploadSource {
  /**
   * The request's other fields. Multipart: strings, a repeated field (or one named `x[]`) as an
   * array, every name in `listFields` always as an array. JSON: the body's values as sent, minus
   * the field that held the data URL. Validate them with the feature's contract schema.
   */
  fields: Record<string, unknown>;
  /** Present when the request carried a non-empty file. */
  stored?: StoredUpload;
}

export interface ReadUploadOptions {
  /**
   * JSON: body fields that may hold the file as a data URL (`data:<mime>;base64,…`); the first
   * non-empty one is used. Multipart: the file part may have any name. Default `['file', 'data']`.
   */
  fileFields?: readonly string[];
  /** Fields that are lists (roles, permissions, notifications…): always arrays in multipart. */
  listFields?: readonly string[];
  /** Size limit in bytes; default `MAX_UPLOAD_MB`. */
  maxBytes?: number;
  /**
   * Multipart: called with the fields read so far when the file part begins. What it throws
   * refuses the upload before a byte of the file is stored (product.md P6.6); with
   * `closeWhenBodyUnread` the connection then ends instead of reading the rest.
   */
  checkFieldsBeforeFile?: (fields: Record<string, unknown>) => Promise<void>;
}

type UploadContext = Pick<AppContext, 'storage' | 'config' | 'logger'>;

const STREAM_BUFFER = 1024 * 1024;

/**
 * `@fastify/multipart` settings for the routes that take documents: streamed, one file per
 * request, a few small fields beside it. Registered only in their scope (decision 112).
 */
export const multipartOptions = (config: Pick<Config, 'MAX_UPLOAD_MB'>) => ({
  limits: {
    fileSize: config.MAX_UPLOAD_MB * 1024 * 1024,
    files: 1,
    fields: 50,
    fieldSize: 64 * 1024,
    parts: 60,
  },
});

const messages = {
  broken: 'Die hochgeladenen Formulardaten sind unvollständig oder fehlerhaft.',
  dataUrl: 'Die Datei muss als Data-URL (data:…;base64,…) übermittelt werden.',
  brokenDataUrl: 'Die Data-URL der Datei ist fehlerhaft.',
  empty: 'Die Datei ist leer.',
  fieldTooLong: 'Der Wert ist zu lang.',
  notAnObject: 'Die Anfrage ist ungültig.',
} as const;

const fieldNameOf = (name: string) => (name.endsWith('[]') ? name.slice(0, -2) : name);

function addField(
  fields: Record<string, unknown>,
  name: string,
  value: unknown,
  listFields: readonly string[],
  forceList: boolean,
) {
  const existing = fields[name];
  if (existing === undefined) {
    fields[name] = forceList || listFields.includes(name) ? [value] : value;
  } else if (Array.isArray(existing)) {
    existing.push(value);
  } else {
    fields[name] = [existing, value];
  }
}

/**
 * `onSend` hook of the upload routes: an answer sent before the request body was read to its end
 * (an early refusal, the access check's 403, a 413) closes the connection, since Node would
 * otherwise read and discard the rest of the upload, however large, to keep it open.
 */
export function closeWhenBodyUnread(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  if (request.raw.complete === false) reply.header('connection', 'close');
  done(null, payload);
}

/** Deletes a stored upload; used when anything fails after `storage.put`. Never throws. */
export async function discardUpload(ctx: Pick<AppContext, 'storage' | 'logger'>, upload?: UploadSource) {
  const key = upload?.stored?.key;
  if (!key) return;
  try {
    await ctx.storage.delete(key);
  } catch (error) {
    // The start-up sweep removes what could not be deleted now: no row refers to it.
    ctx.logger.warn({ err: error, key }, 'Hochgeladene Datei konnte nicht entfernt werden');
  }
}

/**
 * Turns a request into an upload, whichever way the client sent it:
 *
 * - `multipart/form-data` (what the web app sends): parts are read in order with
 *   `request.parts()`; text fields are collected (repeated fields and `x[]` → arrays) and the one
 *   file part is streamed straight into `ctx.storage.put` — never buffered in memory. A part
 *   without a file name or with no bytes counts as "no file" (browsers send such a part for an
 *   empty file input) unless it has a name and is empty, which is a 422.
 * - `application/json` (API compatibility): the first of `fileFields` that holds a non-empty
 *   string must be a data URL, `data:<mime>[;name=…];base64,<…>` (or percent-encoded without
 *   `;base64`); it is decoded piecewise into a stream and stored with the same limit.
 *
 * The format comes from the file name (lower case, letters and digits, at most 10), else from
 * the media type (`application/pdf` → `pdf`), else `bin`. Errors: a broken body or data URL →
 * 400/422 with a German message; one byte over the limit → 413 with a German message and nothing
 * left in storage. When anything fails after the object was stored it is deleted again; once
 * `readUpload` has returned, the caller owns the object and must `discardUpload` it if its own
 * work (validation, database) fails.
 */
export async function readUpload(
  request: FastifyRequest,
  ctx: UploadContext,
  options: ReadUploadOptions = {},
): Promise<UploadSource> {
  const maxBytes = options.maxBytes ?? ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  const fileFields = options.fileFields ?? ['file', 'data'];
  const listFields = options.listFields ?? [];
  if (request.isMultipart()) {
    return readMultipart(request, ctx, maxBytes, listFields, options.checkFieldsBeforeFile);
  }

  const body = request.body;
  if (body === undefined || body === null) return { fields: {} };
  // Only JSON objects and multipart carry uploads (Fastify also parses text/plain as a string).
  if (typeof body !== 'object') throw new AppError('unsupported_media_type', GERMAN.unsupportedMediaType);
  if (Array.isArray(body)) throw new AppError('bad_request', messages.notAnObject);
  const fields: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const name of fileFields) {
    const value = fields[name];
    delete fields[name];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' || !value.startsWith('data:')) throw invalidField(name, messages.dataUrl);
    // Only the first file field counts; the rest are ignored, as a second file would be.
    for (const other of fileFields) delete fields[other];
    return { fields, stored: await storeDataUrl(ctx, value, name, maxBytes) };
  }
  return { fields };
}

async function readMultipart(
  request: FastifyRequest,
  ctx: UploadContext,
  maxBytes: number,
  listFields: readonly string[],
  checkFieldsBeforeFile: ReadUploadOptions['checkFieldsBeforeFile'],
): Promise<UploadSource> {
  const result: UploadSource = { fields: {} };
  try {
    // One byte of headroom over the plugin's limit: our own counter then reports the overflow
    // with the German 413, instead of busboy silently truncating the file at the limit.
    // 1 MiB buffers between the parser and the disk: the default 16 KiB made every stage wait
    // on the next (bench/RESULTS.md, upload scenario).
    const parts = request.parts({
      limits: { fileSize: maxBytes + 1 },
      fileHwm: STREAM_BUFFER,
      highWaterMark: STREAM_BUFFER,
    } as Parameters<FastifyRequest['parts']>[0]);
    for (;;) {
      let next;
      try {
        next = await parts.next();
      } catch (error) {
        throw multipartError(error, maxBytes);
      }
      if (next.done) break;
      const part = next.value;
      const name = fieldNameOf(part.fieldname);
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated) throw invalidField(name, messages.fieldTooLong);
        if (typeof part.value === 'string' && part.value.includes('\u0000')) {
          throw invalidField(name, NUL_CHARACTER_MESSAGE);
        }
        addField(result.fields, name, part.value, listFields, part.fieldname.endsWith('[]'));
        continue;
      }
      if (result.stored) {
        // The plugin allows one file; a second one would be a FST_FILES_LIMIT, this is a guard.
        throw new AppError('payload_too_large', 'Es kann nur eine Datei hochgeladen werden.');
      }
      await checkFieldsBeforeFile?.(result.fields);
      let sourceError: unknown;
      part.file.on('error', (error) => {
        sourceError ??= error;
      });
      let saved;
      try {
        saved = await ctx.storage.put(part.file, { maxBytes });
      } catch (error) {
        // Judge by the source, not by the storage's error: a failed write may surface as a
        // secondary error (closing the file) that hides the reason.
        if (part.file.truncated || part.file.bytesRead > maxBytes) throw tooLargeError(maxBytes);
        if (error instanceof AppError) throw error;
        if (sourceError !== undefined) throw multipartError(sourceError, maxBytes);
        if (!part.file.readableEnded) {
          // The part stopped early: a broken body (the parser reports it next) or a failed write.
          try {
            await parts.next();
          } catch (parseError) {
            throw multipartError(parseError, maxBytes);
          }
        }
        throw error;
      }
      const format = formatFromName(part.filename) ?? formatFromMime(part.mimetype) ?? FALLBACK_FORMAT;
      const stored: StoredUpload = {
        ...saved,
        format,
        mimeType: mimeTypeFor(format, part.mimetype),
        ...(part.filename ? { originalName: part.filename } : {}),
      };
      result.stored = stored;
      if (part.file.truncated) throw tooLargeError(maxBytes);
      if (saved.size === 0) {
        await discardUpload(ctx, result);
        delete result.stored;
        // An empty file input: no file chosen. A named but empty file is a mistake worth saying.
        if (part.filename) throw invalidField(name, messages.empty);
      }
    }
    return result;
  } catch (error) {
    await discardUpload(ctx, result);
    throw error;
  }
}

/** Busboy and the plugin report broken bodies as plain errors; they are the client's fault. */
function multipartError(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLargeError(maxBytes);
  const status = (error as { statusCode?: number } | undefined)?.statusCode;
  if (status && status >= 400 && status < 500 && code && code !== 'FST_MP_PREMATURE_CLOSE') return error;
  return new AppError('bad_request', messages.broken);
}

const DATA_URL = /^data:([^,]*),/;
const BASE64_CHUNK = 4 * 256 * 1024;

/** Decodes a data URL piece by piece, so a large upload is never held twice in memory. */
async function storeDataUrl(
  ctx: UploadContext,
  dataUrl: string,
  field: string,
  maxBytes: number,
): Promise<StoredUpload> {
  const header = DATA_URL.exec(dataUrl.slice(0, 1024));
  if (!header) throw invalidField(field, messages.brokenDataUrl);
  const params = header[1]!.split(';').map((p) => p.trim());
  const isBase64 = params.at(-1)?.toLowerCase() === 'base64';
  const mediaType = params[0] && params[0].includes('/') ? params[0].toLowerCase() : undefined;
  const nameParam = params.find((p) => /^name=/i.test(p));
  let originalName: string | undefined;
  if (nameParam) {
    try {
      originalName = decodeURIComponent(nameParam.slice(5));
    } catch {
      throw invalidField(field, messages.brokenDataUrl);
    }
  }
  let payload = dataUrl.slice(header[0].length);

  let source: Readable;
  if (isBase64) {
    if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
    // Fail fast, before anything is written: the length says how big the content will be.
    const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
    if (payload.length % 4 !== 0) throw invalidField(field, messages.brokenDataUrl);
    if ((payload.length / 4) * 3 - padding > maxBytes) throw tooLargeError(maxBytes);
    // Checked in full before anything is written, so the stream below cannot fail halfway.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw invalidField(field, messages.brokenDataUrl);
    const text = payload;
    source = Readable.from(
      (function* () {
        for (let offset = 0; offset < text.length; offset += BASE64_CHUNK) {
          yield Buffer.from(text.slice(offset, offset + BASE64_CHUNK), 'base64');
        }
      })(),
      { objectMode: false },
    );
  } else {
    let decoded: Buffer;
    try {
      decoded = Buffer.from(decodeURIComponent(payload), 'utf8');
    } catch {
      throw invalidField(field, messages.brokenDataUrl);
    }
    source = Readable.from([decoded], { objectMode: false });
  }

  const saved = await ctx.storage.put(source, { maxBytes });
  if (saved.size === 0) {
    await discardUpload(ctx, { fields: {}, stored: { ...saved, format: '', mimeType: '' } });
    throw invalidField(field, messages.empty);
  }
  const format = formatFromMime(mediaType) ?? formatFromName(originalName) ?? FALLBACK_FORMAT;
  return {
    ...saved,
    format,
    mimeType: mimeTypeFor(format, mediaType),
    ...(originalName ? { originalName } : {}),
  };
}
