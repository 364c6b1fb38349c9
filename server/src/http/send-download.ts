import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ByteRange } from '../storage/file-storage.ts';
import { MIME_BY_FORMAT } from './file-formats.ts';
import { sendStoredObject } from './send-file.ts';
import { textCharset } from './text-charset.ts';

/** What a download needs to know about a stored object; the caller has checked visibility. */
export interface DownloadObject {
  /** Which row the content belongs to; with the storage key it names this version of it. */
  kind: 'file' | 'event';
  id: number;
  /** Storage key (`files.storage_key`, `events.file_storage_key`). */
  key: string;
  /** Shown name without extension; the file is offered as `title.format`. */
  title: string;
  format: string;
  /** Stored media type; missing → application/octet-stream. */
  mimeType?: string | null;
}

/**
 * The strong `ETag` of one stored version: a hash of row and storage key, never of the content.
 * A content hash would let anyone confirm a guessed document with a HEAD request, which is not
 * recorded (decision 116); the storage key is random, never leaves the server and changes with
 * every replacement, so this tag still tells versions apart for `If-Range`.
 */
export function versionTag(object: Pick<DownloadObject, 'kind' | 'id' | 'key'>): string {
  const digest = createHash('sha256')
    .update(`${object.kind}\n${object.id}\n${object.key}`)
    .digest('base64url');
  return `"${digest}"`;
}

/**
 * Only these may be shown in the browser; they cannot carry script. Everything else, and always
 * HTML, SVG, XML and scripts, is an attachment.
 */
export const INLINE_FORMATS: ReadonlySet<string> = new Set(['pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp']);

/**
 * Sandboxed even when opened directly: an uploaded HTML or SVG file can never run script in the
 * portal's origin, nor reach anything but its own inline styles and images.
 */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/** The internal nginx location that `X-Accel-Redirect` names (DOWNLOAD_OFFLOAD=nginx, decision 135). */
export const NGINX_OFFLOAD_PREFIX = '/_offload/';

/**
 * How long a presigned address of DOWNLOAD_OFFLOAD=s3 works: enough to follow the redirect, which
 * happens at once; the store checks it when the transfer starts, so a long download is not cut.
 */
export const DIRECT_URL_SECONDS = 60;

const messages = {
  missing: 'Die Datei ist nicht mehr vorhanden.',
  range: 'Der angeforderte Bereich liegt außerhalb der Datei.',
} as const;

/** Response schemas for routes that answer with `sendDownload` (for the OpenAPI document). */
export const downloadResponses = {
  200: z.any().describe('Der Dateiinhalt (Content-Type aus dem gespeicherten Medientyp)'),
  206: z.any().describe('Ein Teilbereich des Dateiinhalts (Range)'),
  404: errorBodySchema,
  416: errorBodySchema,
} as const;

const TRANSLITERATION: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  é: 'e',
  è: 'e',
  á: 'a',
  à: 'a',
  ó: 'o',
  ò: 'o',
  '–': '-',
  '—': '-',
};

/** A file name from title and format: no path separators, no control characters. */
export function downloadName(title: string, format: string): string {
  const clean = (value: string) =>
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
      .trim();
  const base = clean(title) || 'Datei';
  const ext = clean(format);
  return ext ? `${base}.${ext}` : base;
}

/** RFC 6266 with an RFC 5987 `filename*` for the real name and a plain ASCII fallback. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name
    .normalize('NFC')
    .replace(/[^\x20-\x7e]/gu, (ch) => TRANSLITERATION[ch] ?? '_')
    .replace(/["\\;%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * Parses one `Range: bytes=a-b | a- | -n`. Several ranges, other units and malformed headers are
 * ignored (the whole file is sent), as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'full' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return { kind: 'full' };
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(end) || end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(end, size - 1) } };
}

/**
 * Sends a stored object as a download, for GET and HEAD:
 * `Content-Disposition` named `title.format` (inline only for PDF and raster images, attachment
 * otherwise), `X-Content-Type-Options: nosniff`, a sandboxing CSP, `Cache-Control: private,
 * no-store`, the stored media type, `Accept-Ranges: bytes`. One `Range` gives 206 with
 * `Content-Range`; a range past the end gives 416 with `Content-Range: bytes * /size`. The
 * content is sent by `sendStoredObject` (send-file.ts); HEAD reads nothing.
 *
 * With `DOWNLOAD_OFFLOAD` (decision 135) everything up to the audit entry is the same, and only the
 * bytes of a GET go another way: `nginx` answers with `X-Accel-Redirect` and these headers, and
 * nginx sends the file (ranges and `If-Range` included); `s3` answers 303 to a presigned address
 * valid for 60 seconds at which the store sends the object with the same media type and name.
 * HEAD has no bytes to hand over and is answered here in every mode.
 *
 * The caller checks the bearer token and visibility first (hidden or unknown → 404) and records
 * the audit entry.
 */
export interface SendDownloadOptions {
  /**
   * Called once the answer is settled (object present, range decided) and before any byte is
   * sent; a rejection fails the request. Used to record every answer with content (any status,
   * any range; not HEAD) in the audit log within the request, so the entry exists when the
   * response ends.
   */
  beforeSend?: (info: { status: 200 | 206; head: boolean; start: number }) => Promise<void>;
}

export async function sendDownload(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Pick<AppContext, 'storage' | 'config' | 'db'>,
  object: DownloadObject,
  options: SendDownloadOptions = {},
): Promise<FastifyReply> {
  const size = await ctx.storage.size(object.key);
  if (size === null) throw notFound(messages.missing);

  const format = object.format.toLowerCase();
  const inline = INLINE_FORMATS.has(format);
  // Inline types are fixed by the format, so a PDF named upload can never be served as HTML.
  const mediaType = inline
    ? MIME_BY_FORMAT[format]!
    : object.mimeType && /^[\w.+-]+\/[\w.+-]+$/.test(object.mimeType)
      ? object.mimeType
      : 'application/octet-stream';
  const contentType = mediaType.startsWith('text/')
    ? `${mediaType}; charset=${await textCharset(ctx.storage, object.key, size)}`
    : mediaType;

  const disposition = contentDisposition(
    inline ? 'inline' : 'attachment',
    downloadName(object.title, format),
  );
  reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', disposition)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', DOWNLOAD_CSP)
    .header('Cache-Control', 'private, no-store')
    .header('Accept-Ranges', 'bytes');
  const etag = versionTag(object);
  reply.header('ETag', etag);

  let range = parseRange(request.headers.range, size);
  const ifRange = request.headers['if-range'];
  // A resumed download of a replaced document must not splice two versions together.
  if (range.kind !== 'full' && ifRange && ifRange !== etag) range = { kind: 'full' };

  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('Content-Range', `bytes */${size}`)
      .removeHeader('Content-Disposition')
      .type('application/json; charset=utf-8')
      .send({ message: messages.range });
  }

  const isHead = request.method === 'HEAD';
  await options.beforeSend?.({
    status: range.kind === 'partial' ? 206 : 200,
    head: isHead,
    start: range.kind === 'partial' ? range.range.start : 0,
  });
  // The audit entry is on the disk before the first byte leaves (decision 140): the direct path
  // writes around Fastify's onSend hook, which holds every other answer until then.
  await ctx.db.durability.untilDurable();
  const offload = isHead ? 'none' : ctx.config.DOWNLOAD_OFFLOAD;
  if (offload === 'nginx') {
    // nginx passes Content-Type, Content-Disposition and Cache-Control on by itself and the other
    // headers through its location's `add_header` (docs/deployment.md); it sets Accept-Ranges,
    // Content-Length and Content-Range itself and checks If-Range against this ETag.
    return reply
      .status(200)
      .removeHeader('Accept-Ranges')
      .header('X-Accel-Redirect', `${NGINX_OFFLOAD_PREFIX}${object.key}`)
      .send();
  }
  if (offload === 's3' && ctx.storage.directUrl) {
    const location = await ctx.storage.directUrl(object.key, {
      contentType,
      contentDisposition: disposition,
      cacheControl: 'private, no-store',
      expiresInSeconds: DIRECT_URL_SECONDS,
    });
    // The address is a secret while valid: no cache may keep this answer; the request log never
    // holds response headers.
    return reply
      .status(303)
      .removeHeader('Content-Type')
      .removeHeader('Content-Disposition')
      .removeHeader('ETag')
      .removeHeader('Accept-Ranges')
      .header('Cache-Control', 'no-store')
      .header('Location', location)
      .send();
  }
  if (range.kind === 'partial') {
    const { start, end } = range.range;
    reply
      .status(206)
      .header('Content-Range', `bytes ${start}-${end}/${size}`)
      .header('Content-Length', String(end - start + 1));
    // An empty stream keeps our Content-Length on HEAD; Fastify would reset it for no body.
    if (isHead) return reply.send(Readable.from([]));
    return sendStoredObject(reply, ctx.storage, object.key, size, range.range);
  }
  reply.status(200).header('Content-Length', String(size));
  if (isHead || size === 0) return reply.send(Readable.from([]));
  return sendStoredObject(reply, ctx.storage, object.key, size);
}
