import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { open, readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../storage/private-files.ts';

/*
 * A finished Sitzungsmappe waits in a temporary file while the member downloads it (decision 149),
 * so that a slow reader holds a file, not a helper and a build slot. The file is owner-only, like
 * everything in DATA_DIR, and its name is removed right after it was opened: on Linux and macOS
 * nothing of it is left on disk once the portal closes it, or once the portal dies. Where a name
 * cannot be removed while the file is open (Windows), it is removed when the file is closed, and
 * the start-up sweep (`sweepBookFiles`) takes what a crash left.
 */

/** Bytes per read of a download: a small buffer per reader, however many read at once. */
const READ_CHUNK = 64 * 1024;

export class BookFile {
  private written = 0;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    /** Whether the name is still in the folder (it could not be removed while open). */
    private named: boolean,
  ) {}

  /** A new empty file in `dir` (created owner-only if missing). */
  static async create(dir: string): Promise<BookFile> {
    await makePrivateDir(dir);
    const path = join(dir, `${randomUUID()}.pdf`);
    const handle = await open(path, 'wx+', PRIVATE_FILE_MODE);
    const named = await unlink(path).then(
      () => false,
      () => true,
    );
    return new BookFile(handle, path, named);
  }

  /** Appends `bytes`. */
  async write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.byteLength) {
      const { bytesWritten } = await this.handle.write(bytes, at, bytes.byteLength - at, this.written);
      at += bytesWritten;
      this.written += bytesWritten;
    }
  }

  /** The whole file from its start; the file is closed (and gone) when the stream closes. */
  stream(): Readable {
    const stream = this.handle.createReadStream({ start: 0, highWaterMark: READ_CHUNK, autoClose: true });
    stream.once('close', () => {
      this.closed = true;
      void this.removeName();
    });
    return stream;
  }

  /** Closes the file without reading it (a build that failed after the file was made). */
  async discard(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close().catch(() => {});
    await this.removeName();
  }

  private async removeName(): Promise<void> {
    if (!this.named) return;
    this.named = false;
    await rm(this.path, { force: true }).catch(() => {});
  }
}

/**
 * Removes every file in `dir`: at start, what a crash left behind. The folder belongs to one
 * instance (as DATA_DIR does), so nothing in it can be in use then.
 */
export async function sweepBookFiles(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    await rm(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
