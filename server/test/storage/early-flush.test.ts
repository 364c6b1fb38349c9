import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskStorage, MeasuringStream } from '../../src/storage/disk-storage.ts';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** `data` in 64-KiB chunks, the way a request body arrives; fails after `breakAfter` bytes. */
function body(data: Buffer, breakAfter = Infinity): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= breakAfter) return void this.destroy(new Error('Verbindung abgebrochen'));
      if (offset >= data.length) return void this.push(null);
      this.push(data.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

/** Decision 145: a new document is flushed to disk in the background while it still arrives. */
describe('early flush of new documents', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gp-flush-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('flushes every few megabytes while the bytes pass and keeps them intact', async () => {
    const data = randomBytes(10 * MiB);
    const path = join(dir, 'file');
    const sink = createWriteStream(path, { flush: true });
    const measure = new MeasuringStream(100 * MiB, { sink, syncEvery: MiB });
    // The bytes arrive at the pace of a network, not of memory: while fewer flushes than megabytes
    // have started, each chunk waits a moment, so a slow disk cannot let the whole body pass
    // before its first flush ends (a tight loop did on a busy machine).
    async function* paced() {
      for (let offset = 0; offset < data.length; offset += 64 * 1024) {
        yield data.subarray(offset, offset + 64 * 1024);
        if (measure.syncs < Math.min(3, Math.floor(offset / MiB))) await new Promise((r) => setTimeout(r, 2));
      }
    }
    await pipeline(Readable.from(paced()), measure, sink);
    // One flush at a time: at least a few of the ten possible ones ran before the end.
    expect(measure.syncs).toBeGreaterThanOrEqual(3);
    expect(measure.bytes).toBe(data.length);
    expect(measure.hash.digest('hex')).toBe(sha256(data));
    expect((await readFile(path)).equals(data)).toBe(true);
  });

  it('stores a document flushed along the way completely, and leaves nothing of a broken one', async () => {
    const storage = new DiskStorage(dir, { syncEveryBytes: MiB });
    const data = randomBytes(6 * MiB);
    const stored = await storage.put(body(data), { maxBytes: 100 * MiB });
    expect(stored).toMatchObject({ size: data.length, sha256: sha256(data) });
    expect((await readFile(join(dir, stored.key))).equals(data)).toBe(true);

    await expect(storage.put(body(randomBytes(6 * MiB), 4 * MiB), { maxBytes: 100 * MiB })).rejects.toThrow(
      'Verbindung abgebrochen',
    );
    expect(await readdir(join(dir, '.tmp'))).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['.tmp', stored.key].sort());
  });
});
