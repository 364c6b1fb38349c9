/* Document formats: file extensions and media types, for uploads and downloads. */

/** Media types of the formats the portal knows; anything else is served as sent or as octet-stream. */
export const MIME_BY_FORMAT: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  json: 'application/json',
  js: 'text/javascript',
  rtf: 'application/rtf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  ics: 'text/calendar',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
};

/** The preferred extension per media type (the first entry of MIME_BY_FORMAT wins). */
const FORMAT_BY_MIME: Readonly<Record<string, string>> = Object.entries(MIME_BY_FORMAT).reduce<
  Record<string, string>
>(
  (acc, [format, mime]) => {
    acc[mime] ??= format;
    return acc;
  },
  { 'image/jpg': 'jpg', 'image/x-icon': 'ico', 'application/x-pdf': 'pdf', 'text/xml': 'xml' },
);

export const FALLBACK_FORMAT = 'bin';
const OCTET_STREAM = 'application/octet-stream';
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** `Bericht 2026.PDF` → `pdf`; no usable extension → undefined. */
export function formatFromName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = base.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : undefined;
}

/** `application/pdf` → `pdf`; unknown → undefined. */
export function formatFromMime(mime: string | undefined): string | undefined {
  if (!mime) return undefined;
  return FORMAT_BY_MIME[mime.split(';')[0]!.trim().toLowerCase()];
}

/** The media type to store: known formats get theirs, others keep a well-formed client type. */
export function mimeTypeFor(format: string, clientType: string | undefined): string {
  const known = MIME_BY_FORMAT[format];
  if (known) return known;
  const sent = clientType?.split(';')[0]!.trim().toLowerCase();
  return sent && MEDIA_TYPE.test(sent) ? sent : OCTET_STREAM;
}
