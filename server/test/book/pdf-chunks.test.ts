import { PDFDocument, PDFWriter, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfChunks } from '../../src/book/pdf-chunks.ts';

describe('pdfChunks', () => {
  it('writes exactly the bytes of pdf-lib’s own writer, in chunks of about the asked size', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let page = 0; page < 40; page += 1) {
      doc
        .addPage()
        .drawText(`Seite ${page + 1} `.repeat(200), { x: 20, y: 400, size: 8, font, maxWidth: 560 });
    }
    const { size, chunks } = await pdfChunks(doc, 4096);
    const parts: Uint8Array[] = [];
    for (let next = chunks.next(); !next.done; next = chunks.next()) parts.push(next.value);
    const whole = Buffer.concat(parts);
    // `serializeToBuffer` is what `save()` uses after its flush, which pdfChunks has done.
    const reference = await (PDFWriter as unknown as { forContext(c: unknown, n: number): PDFWriter })
      .forContext(doc.context, 50)
      .serializeToBuffer();
    expect(whole.length).toBe(size);
    expect(Buffer.compare(whole, Buffer.from(reference))).toBe(0);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(4096);
    // Each chunk owns its memory, so it can move to another thread.
    for (const part of parts) expect(part.byteLength).toBe(part.buffer.byteLength);
    expect((await PDFDocument.load(whole)).getPageCount()).toBe(40);
  });
});
