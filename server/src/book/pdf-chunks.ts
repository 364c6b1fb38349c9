import {
  copyStringIntoBuffer,
  PDFContentStream,
  PDFRawStream,
  PDFWriter,
  type PDFContext,
  type PDFDocument,
} from 'pdf-lib';

/*
 * pdf-lib writes a document into one buffer of its whole size (`save()`), which for a book of many
 * documents would be a second copy of everything at the worst moment. This writer lays out the
 * same bytes as pdf-lib's own `PDFWriter` (classic cross-reference table, no object streams) but
 * hands them out in chunks, so the whole file is never in memory twice; the size is known before
 * the first byte (Content-Length).
 */

type Layout = Awaited<ReturnType<ChunkWriter['layout']>>;

class ChunkWriter extends PDFWriter {
  constructor(context: PDFContext) {
    // No pauses for the event loop: this runs in a helper process of its own.
    super(context, Number.MAX_SAFE_INTEGER);
  }

  layout() {
    return this.computeBufferSize();
  }
}

const END_OBJECT = '\nendobj\n\n';

function* serialize(layout: Layout, chunkBytes: number): Generator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const take = (): Uint8Array => {
    // A buffer of its own (never a slice of Node's shared pool), sent to the host as it is.
    let out = pending[0]!;
    if (pending.length > 1) {
      out = new Uint8Array(pendingBytes);
      let at = 0;
      for (const part of pending) {
        out.set(part, at);
        at += part.length;
      }
    }
    pending = [];
    pendingBytes = 0;
    return out;
  };
  const add = (bytes: Uint8Array) => {
    pending.push(bytes);
    pendingBytes += bytes.length;
  };

  const head = new Uint8Array(layout.header.sizeInBytes() + 2);
  head.fill(0x0a, layout.header.copyBytesInto(head, 0));
  add(head);
  for (const [ref, object] of layout.indirectObjects) {
    const opening = `${ref.objectNumber} ${ref.generationNumber} obj\n`;
    const bytes = new Uint8Array(opening.length + object.sizeInBytes() + END_OBJECT.length);
    let offset = copyStringIntoBuffer(opening, bytes, 0);
    offset += object.copyBytesInto(bytes, offset);
    copyStringIntoBuffer(END_OBJECT, bytes, offset);
    add(bytes);
    if (pendingBytes >= chunkBytes) yield take();
  }
  const tail = new Uint8Array(
    (layout.xref ? layout.xref.sizeInBytes() + 1 : 0) +
      (layout.trailerDict ? layout.trailerDict.sizeInBytes() + 2 : 0) +
      layout.trailer.sizeInBytes(),
  );
  let offset = 0;
  if (layout.xref) {
    offset += layout.xref.copyBytesInto(tail, offset);
    tail[offset++] = 0x0a;
  }
  if (layout.trailerDict) {
    offset += layout.trailerDict.copyBytesInto(tail, offset);
    tail[offset++] = 0x0a;
    tail[offset++] = 0x0a;
  }
  layout.trailer.copyBytesInto(tail, offset);
  add(tail);
  yield take();
}

/**
 * The content streams pdf-lib made for the book (its own pages, every footer and divider) are
 * written without compression: they are a few hundred bytes each, and pako's set-up for each of
 * several hundred streams cost more time (and garbage) than all other work of a book. Copied pages
 * keep their streams as they came.
 */
function uncompressOwnStreams(context: PDFContext): void {
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFContentStream) {
      context.assign(ref, PDFRawStream.of(context.obj({}), object.getUnencodedContents()));
    }
  }
}

/** The document's bytes in chunks of about `chunkBytes` (one large object may make a larger one). */
export async function pdfChunks(
  doc: PDFDocument,
  chunkBytes = 256 * 1024,
): Promise<{ size: number; chunks: Iterator<Uint8Array> }> {
  // What `save()` does first: fonts, images and pages embedded into the document's objects.
  await doc.flush();
  uncompressOwnStreams(doc.context);
  const layout = await new ChunkWriter(doc.context).layout();
  return { size: layout.size, chunks: serialize(layout, chunkBytes) };
}
