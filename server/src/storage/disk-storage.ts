import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, fdatasync, type WriteStream } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, GERMAN } from '../errors.ts';
import { newKey } from './object-keys.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, SHARED_DIR_MODE, SHARED_FILE_MODE } from './private-files.ts';
import type { ByteRange, FileStorage, StoredObject } from './file-storage.ts';

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const TMP_DIR = '.tmp';
const READ_CHUNK = 1024 * 1024;
const WRITE_BUFFER = 1024 * 1024;
const SYNC_EVERY = 32 * 1024 * 1024;

export const tooLargeError = (maxBytes: number) =>
  new AppError(
    'payload_too_large',
    `Die Datei ist zu groß. Erlaubt sind höchstens ${Math.floor(maxBytes / 1024 / 1024)} MB.`,
  );

/**
 * Counts bytes and hashes them while they pass; fails as soon as the limit is crossed. Given the
 * file they go to, it also flushes that file in the background as they pass (decision 145).
 */
export class MeasuringStream extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  /** Background flushes started (decision 145). */
  syncs = 0;
  private unsynced = 0;
  private syncing: Promise<void> | undefined;
  private fd: number | undefined;
  private readonly syncEvery: number;
  /**
   * `sink`: the file the bytes go to (disk storage). Every `syncEvery` bytes its written part is
   * flushed to disk in the background, one flush at a time, so the disk writes while the rest
   * arrives and the flush before the answer finds little left, so the answer comes sooner
   * (decision 145 gives the figures). It also keeps a large
   * upload from leaving a gigabyte of unwritten pages behind.
   */
  constructor(
    private readonly maxBytes: number,
    flushing: { sink: WriteStream; syncEvery?: number } | undefined = undefined,
  ) {
    super({ highWaterMark: WRITE_BUFFER });
    this.syncEvery = flushing?.syncEvery ?? SYNC_EVERY;
    flushing?.sink.once('open', (fd: number) => (this.fd = fd));
  }
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(tooLargeError(this.maxBytes));
    this.hash.update(chunk);
    this.unsynced += chunk.length;
    if (this.unsynced >= this.syncEvery && !this.syncing) this.syncWritten();
    callback(null, chunk);
  }
  /** The last background flush ends before the file may be closed. */
  override _flush(callback: (error?: Error | null) => void) {
    void (this.syncing ?? Promise.resolve()).then(() => callback());
  }
  private syncWritten() {
    const fd = this.fd;
    if (fd === undefined) return;
    this.unsynced = 0;
    this.syncs += 1;
    // Its error is ignored: the flush on close meets the same one and reports it. After a failed
    // upload the file may close first; a flush of whatever reuses the descriptor does no harm.
    this.syncing = new Promise<void>((resolve) =>
      fdatasync(fd, () => {
        this.syncing = undefined;
        resolve();
      }),
    );
  }
}

function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Objects are files under `root`, named by their key. A new object is written to `.tmp/`,
 * flushed to disk, then renamed into place and the folder flushed, so after a crash an object
 * is either complete or absent (its temporary leftover is swept at the next start).
 */
export interface DiskStorageOptions {
  /**
   * DOWNLOAD_OFFLOAD=nginx: documents are readable by the portal's group, so that nginx (whose user
   * is in it) can send them; see SHARED_FILE_MODE.
   */
  readableByGroup?: boolean;
  /** Bytes between background flushes of a new object (decision 145); tests make it small. */
  syncEveryBytes?: number;
}

export class DiskStorage implements FileStorage {
  constructor(
    private readonly root: string,
    private readonly options: DiskStorageOptions = {},
  ) {}

  /**
   * Gives the folder and every document the modes the configuration asks for, at start: documents
   * stored before nginx offload was switched on become readable for it too.
   */
  async applyModes(): Promise<void> {
    if (!this.options.readableByGroup) return;
    await mkdir(this.root, { recursive: true, mode: SHARED_DIR_MODE });
    await chmod(this.root, SHARED_DIR_MODE);
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (entry.isFile() && KEY_PATTERN.test(entry.name)) {
        await chmod(join(this.root, entry.name), SHARED_FILE_MODE);
      }
    }
  }

  private pathOf(key: string): string {
    // Keys are server-made; refusing anything else rules out path traversal for good.
    if (!KEY_PATTERN.test(key)) throw new AppError('not_found', GERMAN.notFound);
    return join(this.root, key);
  }

  async put(source: Readable, options: { maxBytes: number }): Promise<StoredObject> {
    await mkdir(join(this.root, TMP_DIR), { recursive: true, mode: PRIVATE_DIR_MODE });
    const key = newKey();
    const tmpPath = join(this.root, TMP_DIR, `${key}.part`);
    // `flush`: the content is on disk before the file is closed and renamed into place.
    const sink = createWriteStream(tmpPath, {
      flags: 'wx',
      mode: PRIVATE_FILE_MODE,
      flush: true,
      highWaterMark: WRITE_BUFFER,
    });
    const measure = new MeasuringStream(options.maxBytes, { sink, syncEvery: this.options.syncEveryBytes });
    try {
      await pipeline(source, measure, sink);
      // The umask would take the group's bit off at creation; set it once the content is complete.
      if (this.options.readableByGroup) await chmod(tmpPath, SHARED_FILE_MODE);
      await rename(tmpPath, this.pathOf(key));
      await syncDir(this.root);
    } catch (error) {
      // A stream destroyed before its file was open still opens it before closing: wait for
      // that, or the temporary file would appear after it was removed.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      await rm(tmpPath, { force: true });
      if (isNoSpace(error)) throw new AppError('insufficient_storage', GERMAN.insufficientStorage);
      throw error;
    }
    return { key, size: measure.bytes, sha256: measure.hash.digest('hex') };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    await stat(path);
    // 1 MiB reads: a fraction of the system calls of the 64 KiB default, more throughput for
    // large documents (bench/RESULTS.md, download scenario), a bounded buffer per download.
    return createReadStream(path, {
      highWaterMark: READ_CHUNK,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  openFile(key: string): Promise<FileHandle> {
    return open(this.pathOf(key), 'r');
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async sweep(isReferenced: (key: string) => Promise<boolean>, olderThan: Date): Promise<string[]> {
    const removed: string[] = [];
    const tmpDir = join(this.root, TMP_DIR);
    for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
      const path = join(tmpDir, name);
      if ((await stat(path)).mtime < olderThan) {
        await rm(path, { force: true });
        removed.push(`${TMP_DIR}/${name}`);
      }
    }
    for (const entry of await readdir(this.root, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || !KEY_PATTERN.test(entry.name)) continue;
      // Referenced first: nearly every object is, and the start must not stat every object
      // before its first answer (decision 186).
      if (await isReferenced(entry.name)) continue;
      const path = join(this.root, entry.name);
      if ((await stat(path)).mtime >= olderThan) continue;
      await rm(path, { force: true });
      removed.push(entry.name);
    }
    return removed;
  }
}

async function syncDir(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
