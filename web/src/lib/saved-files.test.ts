import { describe, expect, it, vi } from 'vitest';
import { canOpenInline, filenameFromContentDisposition, openBlobInNewTab } from './saved-files';

describe('saved files', () => {
  it('reads the RFC 5987 file name before the plain one', () => {
    expect(
      filenameFromContentDisposition(
        `attachment; filename="Protokoll_Sitzung.pdf"; filename*=UTF-8''Protokoll%20Sitzung%20M%C3%A4rz.pdf`,
      ),
    ).toBe('Protokoll Sitzung März.pdf');
    expect(filenameFromContentDisposition('inline; filename="Bericht \\"2026\\".pdf"')).toBe(
      'Bericht "2026".pdf',
    );
    expect(filenameFromContentDisposition('attachment; filename=liste.csv')).toBe('liste.csv');
    expect(filenameFromContentDisposition(`attachment; filename*=iso-8859-1'de'Gr%FC%DFe.txt`)).toBe(
      'Grüße.txt',
    );
    expect(filenameFromContentDisposition(`attachment; filename*=UTF-8''..%2F..%2Fetc.txt`)).toBe(
      '.._.._etc.txt',
    );
    expect(filenameFromContentDisposition(null)).toBeUndefined();
  });

  it('opens only harmless types in a new tab and saves everything else', () => {
    expect(canOpenInline('application/pdf')).toBe(true);
    expect(canOpenInline('image/png')).toBe(true);
    expect(canOpenInline('text/html')).toBe(false);
    expect(canOpenInline('image/svg+xml')).toBe(false);

    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const createObjectURL = vi.fn(() => 'blob:test');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    const opened = openBlobInNewTab({
      blob: new Blob(['<script>alert(1)</script>'], { type: 'text/html' }),
      filename: 'seite.html',
      type: 'text/html',
    });

    expect(opened).toBe(false);
    expect(open).not.toHaveBeenCalled();
    expect(click).toHaveBeenCalledTimes(1);
  });
});
