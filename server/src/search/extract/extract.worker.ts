/* Worker thread of the text extraction: for each request, reads the input, parses it, posts one ExtractResult. */
import { open } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import type { ExtractRequest, ExtractResult } from './types.ts';
import { parseDocument } from './parse-document.ts';
import { bytesToRead } from './plain-text.ts';
import { lowerThreadPriority } from '../../thread-priority.ts';

// Background work: requests go first (decision 139).
lowerThreadPriority();

// One document per message; the host sends the next only after the answer.
parentPort?.on('message', (request: ExtractRequest) => {
  void run(request)
    .catch((): ExtractResult => ({ state: 'failed', reason: 'damaged' }))
    .then((result) => parentPort!.postMessage(result));
});

async function run({ input, format, limits }: ExtractRequest): Promise<ExtractResult> {
  if ('slices' in input) {
    return parseDocument(Buffer.concat(input.slices), format, limits, input.complete);
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
