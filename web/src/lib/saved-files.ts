/**
 * What the browser does with a downloaded file: the name it is saved under (from the server's
 * Content-Disposition), saving it, and showing it in a new tab when that is safe. The download
 * itself, with the bearer header, is `api.download` (api-client.ts).
 */

export interface DownloadedFile {
  blob: Blob;
  filename: string;
  /** The media type the server declared, without parameters. */
  type: string;
}

/** The file name from a Content-Disposition header; `filename*` (RFC 5987) wins over `filename`. */
export function filenameFromContentDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
  if (extended) {
    const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(extended.replace(/^"(.*)"$/, '$1'));
    if (match) {
      const [, charset = '', encoded = ''] = match;
      try {
        const decoded =
          charset.toLowerCase() === 'utf-8' || charset === ''
            ? decodeURIComponent(encoded)
            : decodeLatin1(encoded);
        const name = sanitizeFilename(decoded);
        if (name) return name;
      } catch {
        // Malformed percent-encoding: fall back to the plain parameter.
      }
    }
  }
  const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  if (quoted !== undefined) return sanitizeFilename(quoted.replace(/\\(.)/g, '$1')) || undefined;
  const token = /(?:^|;)\s*filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return token ? sanitizeFilename(token) || undefined : undefined;
}

function decodeLatin1(encoded: string): string {
  return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** No folders, no control characters: the name is only ever a suggestion for saving. */
function sanitizeFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
}

/**
 * Types a browser shows without running anything, the same the server sends inline. Anything
 * else (HTML, SVG, …) is saved instead: a blob URL belongs to the portal's origin, so opening such
 * a file in a tab could run its scripts there, outside the server's sandboxing headers.
 */
const INLINE_SAFE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const BLOB_URL_LIFETIME_MS = 5 * 60_000;

export function canOpenInline(type: string): boolean {
  return INLINE_SAFE_TYPES.has(type.split(';')[0]?.trim().toLowerCase() ?? '');
}

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFETIME_MS);
}

/**
 * Shows a downloaded file in a new tab when that is safe, else saves it. Returns whether a tab
 * was opened (false also when a pop-up blocker stopped it and the file was saved instead).
 */
export function openBlobInNewTab(file: DownloadedFile): boolean {
  if (!canOpenInline(file.type)) {
    saveBlob(file.blob, file.filename);
    return false;
  }
  const url = URL.createObjectURL(
    file.blob.type === file.type ? file.blob : new Blob([file.blob], { type: file.type }),
  );
  const opened = window.open(url, '_blank');
  if (!opened) {
    URL.revokeObjectURL(url);
    saveBlob(file.blob, file.filename);
    return false;
  }
  opened.opener = null;
  setTimeout(() => URL.revokeObjectURL(url), BLOB_URL_LIFETIME_MS);
  return true;
}
