import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadName, parseRange } from '../../src/http/send-download.ts';

describe('parseRange', () => {
  it('reads the three forms of one byte range', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=-500', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
    expect(parseRange('bytes=50-500', 100)).toEqual({ kind: 'partial', range: { start: 50, end: 99 } });
  });

  it('calls ranges past the end unsatisfiable', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=100-200', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores missing, malformed and multiple ranges', () => {
    for (const header of [
      undefined,
      '',
      'bytes=',
      'bytes=-',
      'bytes=5-2',
      'bytes=0-1,3-4',
      'lines=0-4',
      'bytes=a-b',
    ]) {
      expect(parseRange(header, 100), String(header)).toEqual({ kind: 'full' });
    }
  });
});

describe('Content-Disposition', () => {
  it('encodes the real name per RFC 5987 and gives an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Übersicht (neu) 50%.pdf')).toBe(
      `attachment; filename="Uebersicht (neu) 50_.pdf"; filename*=UTF-8''%C3%9Cbersicht%20%28neu%29%2050%25.pdf`,
    );
    expect(contentDisposition('inline', 'a"b\\c;d.png')).toBe(
      `inline; filename="a_b_c_d.png"; filename*=UTF-8''a%22b%5Cc%3Bd.png`,
    );
    expect(contentDisposition('inline', 'Bericht 📄.pdf')).toMatch(
      /^inline; filename="Bericht _.pdf"; filename\*=UTF-8''Bericht%20%F0%9F%93%84\.pdf$/,
    );
  });

  it('builds title.format without path separators or control characters', () => {
    expect(downloadName('Protokoll 03/2026', 'pdf')).toBe('Protokoll 03_2026.pdf');
    expect(downloadName('a\r\nb', 'txt')).toBe('a__b.txt');
    expect(downloadName('  ', 'pdf')).toBe('Datei.pdf');
  });
});
