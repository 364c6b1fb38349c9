import { describe, expect, it } from 'vitest';
import { cutToBytes, decodeText, normaliseWhitespace } from '../../src/search/extract/plain-text.ts';

describe('decodeText', () => {
  it('keeps UTF-8 when only a prefix was read and it ends inside a character', () => {
    const cut = Buffer.from('Prüfung Mä', 'utf8').subarray(0, -1); // the second byte of ä is missing
    expect(decodeText(cut, false)).toBe('Prüfung M');
    // The whole file ending like that is not UTF-8.
    expect(decodeText(cut, true)).toBe('PrÃ¼fung MÃ');
  });

  it('reads UTF-16 with a byte order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Größe', 'utf16le')]);
    expect(decodeText(le, true)).toBe('Größe');
  });
});

describe('cutToBytes', () => {
  it('never splits a character of two, three or four UTF-8 bytes', () => {
    expect(cutToBytes('aä€😀', 1)).toBe('a');
    expect(cutToBytes('aä€😀', 2)).toBe('a');
    expect(cutToBytes('aä€😀', 3)).toBe('aä');
    expect(cutToBytes('aä€😀', 9)).toBe('aä€');
    expect(cutToBytes('aä€😀', 10)).toBe('aä€😀');
    expect(cutToBytes('😀'.repeat(10), 5)).toBe('😀');
  });
});

describe('normaliseWhitespace', () => {
  it('turns every kind of line break into one newline and lone surrogates into U+FFFD', () => {
    expect(normaliseWhitespace('a\r\rb\u2028c\u2029\u0085d')).toBe('a\nb\nc\nd');
    expect(normaliseWhitespace('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(normaliseWhitespace('Jahres\u200babschluss\ufeff')).toBe('Jahresabschluss');
  });
});
