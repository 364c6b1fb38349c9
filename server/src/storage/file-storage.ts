import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  sha256: string;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** The headers a store must set when it serves an object itself (DOWNLOAD_OFFLOAD=s3). */
export interface DirectAnswer {
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
  /** How long the address works, in seconds. */
  expiresInSeconds: number;
}

/**
 * Where document content lives: local disk by default, S3-compatible object storage when
 * configured. Objects are immutable: replacing a document writes a new object and deletes the old
 * one after the database change commits.
 */
export interface FileStorage {
  /**
   * Streams `source` into a new object under a server-made key. The object becomes visible
   * under its key only when complete. Over `maxBytes` it rejects with a `payload_too_large`
   * AppError and leaves nothing behind; a full disk rejects with `insufficient_storage`.
   */
  put(source: Readable, options: { maxBytes: number }): Promise<StoredObject>;
  /** Reads an object, or a byte range of it. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Opens the object's file for reading, for stores that keep objects as local files (disk):
   * downloads then reuse their buffers instead of allocating one per read (http/send-file.ts).
   */
  openFile?(key: string): Promise<FileHandle>;
  /**
   * A short-lived address at which the store itself serves the object with the given headers, for
   * stores that can (S3: a presigned GET). It is a secret while it is valid: never log it.
   */
  directUrl?(key: string, answer: DirectAnswer): Promise<string>;
  /** Size of an object, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Removes an object; missing objects are fine. */
  delete(key: string): Promise<void>;
  /**
   * Removes temporary leftovers and objects no row refers to that are older than `olderThan`
   * (so an upload still under way on another instance survives). Returns the removed keys.
   */
  sweep(isReferenced: (key: string) => Promise<boolean>, olderThan: Date): Promise<string[]>;
}
