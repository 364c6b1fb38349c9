/*
 * Helper process of the text extraction (decisions 127, 144): for each request, reads the input,
 * parses it, posts one ExtractResult. Bytes come through stdin after their request.
 */
import { open } from 'node:fs/promises';
import { onMessage, post, readBytes } from '../../processes/helper-side.ts';
import type { ExtractRequest, ExtractResult } from './types.ts';
import { parseDocument } from './parse-document.ts';
import { bytesToRead } from './plain-text.ts';

// One document at a time; the host sends the next only after the answer.
onMessage((request: ExtractRequest) => {
  void run(request)
    .catch((): ExtractResult => ({ state: 'failed', reason: 'damaged' }))
    .then(post);
});

async function run({ input, format, limits }: ExtractRequest): Promise<ExtractResult> {
  if ('byteLength' in input) {
    // Input that ends early ends the helper, so that a helper with a broken pipe takes no more work.
    const bytes = await readBytes(input.byteLength).catch(() => process.exit(1));
    return parseDocument(bytes, format, limits, input.complete);
  }
  const file = await open(input.path, 'r');
  try {
    const { size } = await file.stat();
    // The file may have grown since the caller looked; the limit holds for what is read here.
    if (size > limits.maxInputBytes) return { state: 'failed', reason: 'too_large' };
    const wanted = bytesToRead(format, size, limits.maxTextBytes);
    const buffer = Buffer.alloc(wanted);
    let offset = 0;
    while (offset < wanted) {
      const { bytesRead } = await file.read(buffer, offset, wanted - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return await parseDocument(buffer.subarray(0, offset), format, limits, offset === size);
  } finally {
    await file.close();
  }
}
