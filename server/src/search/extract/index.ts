/*
 * Text of a stored document for the full-text search (decision 127). The parsers run in a helper
 * process with a heap limit and a deadline, so a hostile or broken file costs one failed result,
 * never the server's memory or event loop (decisions 127, 144).
 */
import { stat } from 'node:fs/promises';
import { bytesToRead } from './plain-text.ts';
import type { ExtractFailure, ExtractLimits, ExtractResult } from './types.ts';
import { runInWorker } from './worker-host.ts';

export type { ExtractFailure, ExtractLimits, ExtractRequest, ExtractResult } from './types.ts';

export const DEFAULT_LIMITS: ExtractLimits = {
  timeoutMs: 30_000,
  maxMemoryMb: 256,
  maxTextBytes: 10 * 1024 * 1024,
  maxInputBytes: 200 * 1024 * 1024,
};

const EXTRACTABLE = new Set(['pdf', 'docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods', 'rtf', 'txt', 'csv']);

/** Whether a stored format (the portal's lower-case extension) can be searched by its content. */
export function isExtractable(format: string): boolean {
  return EXTRACTABLE.has(format.toLowerCase());
}

/**
 * Extracts in a helper process with a heap limit that is ended on timeout; never throws, never
 * blocks the event loop.
 */
export async function extractText(
  input: { path: string } | { bytes: Uint8Array },
  format: string,
  limits: Partial<ExtractLimits> = {},
): Promise<ExtractResult> {
  try {
    const effective: ExtractLimits = { ...DEFAULT_LIMITS, ...limits };
    const lowerFormat = format.toLowerCase();
    if (!EXTRACTABLE.has(lowerFormat)) return failed('unsupported');
    if ('path' in input) {
      if ((await stat(input.path)).size > effective.maxInputBytes) return failed('too_large');
      return await runInWorker({ input: { path: input.path }, format: lowerFormat, limits: effective });
    }
    if (input.bytes.byteLength > effective.maxInputBytes) return failed('too_large');
    const wanted = bytesToRead(lowerFormat, input.bytes.byteLength, effective.maxTextBytes);
    const complete = wanted === input.bytes.byteLength;
    return await runInWorker(
      { input: { byteLength: wanted, complete }, format: lowerFormat, limits: effective },
      input.bytes.subarray(0, wanted),
    );
  } catch {
    // A file that cannot be read (gone, a folder, no permission) has no text to give.
    return failed('damaged');
  }
}

function failed(reason: ExtractFailure): ExtractResult {
  return { state: 'failed', reason };
}
