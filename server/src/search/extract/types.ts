/* The shapes of the text extraction, shared by its caller side and its helper process. */

export type ExtractResult =
  | { state: 'done'; text: string }
  | {
      state: 'failed';
      reason: 'unsupported' | 'damaged' | 'encrypted' | 'too_large' | 'timeout' | 'memory';
    };
export type ExtractFailure = Extract<ExtractResult, { state: 'failed' }>['reason'];

export interface ExtractLimits {
  /** Wall-clock time of one extraction, worker start included. */
  timeoutMs: number;
  /** Heap of the helper (V8 old generation); buffers outside the heap are bounded by the input limits. */
  maxMemoryMb: number;
  /** UTF-8 bytes of the returned text; longer text is cut. */
  maxTextBytes: number;
  /** Bytes of the stored file; a larger file is not read at all. */
  maxInputBytes: number;
}

/** What the helper is asked; `format` is already checked and lower case. */
export interface ExtractRequest {
  /**
   * A path the helper reads itself, or `byteLength` bytes the host writes to the helper's stdin
   * after the request (`complete`: all of the file).
   */
  input: { path: string } | { byteLength: number; complete: boolean };
  format: string;
  limits: ExtractLimits;
}
