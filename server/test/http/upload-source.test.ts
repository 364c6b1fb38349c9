import { describe, expect, it } from 'vitest';
import { formatFromMime, formatFromName, mimeTypeFor } from '../../src/http/file-formats.ts';

describe('upload formats', () => {
  it('takes the format from the file name: lower case, letters and digits, at most 10', () => {
    expect(formatFromName('Bericht 2026.PDF')).toBe('pdf');
    expect(formatFromName('archiv.tar.gz')).toBe('gz');
    expect(formatFromName('C:\\Users\\x\\Brief.DocX')).toBe('docx');
    expect(formatFromName('ohne-endung')).toBeUndefined();
    expect(formatFromName('komisch.p-d-f')).toBeUndefined();
    expect(formatFromName('lang.abcdefghijk')).toBeUndefined();
    expect(formatFromName('punkt.')).toBeUndefined();
    expect(formatFromName(undefined)).toBeUndefined();
  });

  it('takes the format of a data URL from its media type', () => {
    expect(formatFromMime('application/pdf')).toBe('pdf');
    expect(formatFromMime('image/png')).toBe('png');
    expect(formatFromMime('image/jpeg')).toBe('jpg');
    expect(formatFromMime('IMAGE/JPG; foo=bar')).toBe('jpg');
    expect(formatFromMime('application/x-unbekannt')).toBeUndefined();
  });

  it('stores the media type of known formats, else a well-formed client type', () => {
    expect(mimeTypeFor('pdf', 'text/html')).toBe('application/pdf');
    expect(mimeTypeFor('xyz', 'application/x-xyz')).toBe('application/x-xyz');
    expect(mimeTypeFor('xyz', 'kaputt')).toBe('application/octet-stream');
    expect(mimeTypeFor('xyz', undefined)).toBe('application/octet-stream');
  });
});
