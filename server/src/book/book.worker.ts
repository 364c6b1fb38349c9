/*
 * Helper process of the Sitzungsmappe (decisions 130, 144): composes one book at a time, asking
 * the host for each PDF when it is its turn, then hands the file out one chunk per `more`.
 */
import { onMessage, post as postToHost, readBytes } from '../processes/helper-side.ts';
import { composeBook } from './compose.ts';
import { pdfChunks } from './pdf-chunks.ts';
import type { BookPlan, BookSource, ComposeLimits, FromWorker, ToWorker } from './types.ts';

let onSource: ((source: BookSource) => void) | undefined;
let onMore: (() => void) | undefined;

const post = (message: FromWorker) => postToHost(message);

onMessage((message: ToWorker) => {
  if (message.type === 'build') {
    void build(message.plan, message.limits).catch(() => post({ type: 'failed' }));
  } else if (message.type === 'source') {
    if ('failed' in message) onSource?.({ failed: message.failed });
    // Input that ends early ends the helper: the host blames the document it was sending.
    else
      void readBytes(message.byteLength).then(
        (bytes) => onSource?.({ bytes }),
        () => process.exit(1),
      );
  } else {
    onMore?.();
  }
});

async function build(plan: BookPlan, limits: ComposeLimits): Promise<void> {
  const read = (index: number) =>
    new Promise<BookSource>((resolve) => {
      onSource = resolve;
      post({ type: 'need', index });
    });
  const book = await composeBook(plan, limits, read);
  onSource = undefined;
  const { size, chunks } = await pdfChunks(book.doc);
  post({ type: 'built', pages: book.pages, size, inserted: book.inserted });
  // One chunk per `more`. The host counts the bytes: the chunk that completes `size` ends the book
  // for it, with no message after it that could reach the helper's next book.
  for (let next = chunks.next(); !next.done; next = chunks.next()) {
    await new Promise<void>((resolve) => (onMore = resolve));
    post({ type: 'chunk', bytes: next.value });
  }
  onMore = undefined;
}
