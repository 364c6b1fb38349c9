import type { FileStorage } from '../storage/file-storage.ts';

/** How much of a text document decides its character set. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * The character set of a stored text document, for its `Content-Type`: a browser or editor given
 * bare `text/plain` guesses, and German umlauts come out as "Ã¼". A byte order mark decides; else
 * text that is valid UTF-8 in its first 64 KiB is UTF-8 (a character cut at the sample's end
 * counts as valid); anything else was written by an older Windows program (windows-1252, which
 * every byte is valid in).
 */
export async function textCharset(storage: FileStorage, key: string, size: number): Promise<string> {
  if (size === 0) return 'utf-8';
  const parts: Buffer[] = [];
  for await (const part of await storage.get(key, { start: 0, end: Math.min(size, SAMPLE_BYTES) - 1 })) {
    parts.push(part as Buffer);
  }
  const sample = Buffer.concat(parts);
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be';
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: size > sample.length });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}
