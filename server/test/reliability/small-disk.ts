import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, rmdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ByteRange, FileStorage, StoredObject } from '../../src/storage/file-storage.ts';

/**
 * A filesystem that runs full, for the full-disk tests: a small tmpfs where the test may mount one
 * (Linux as root, as in CI), otherwise injected `ENOSPC` write errors.
 */

export type DiskKind = 'tmpfs' | 'injected';

export const noSpaceError = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

function tryMount(dir: string, sizeMb: number): boolean {
  if (process.platform !== 'linux' || process.env.FULL_DISK_SIMULATION === '1') return false;
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], {
    stdio: 'ignore',
  });
  return result.status === 0;
}

function unmount(dir: string): void {
  spawnSync('umount', [dir], { stdio: 'ignore' });
}

/** Whether this machine lets the test mount a tmpfs (decided once, before the tests are named). */
export async function detectDiskKind(): Promise<DiskKind> {
  const probe = await mkdtemp(join(tmpdir(), 'gremienportal-mount-probe-'));
  const mounted = tryMount(probe, 1);
  if (mounted) unmount(probe);
  await rmdir(probe).catch(() => undefined);
  return mounted ? 'tmpfs' : 'injected';
}

export interface SmallDisk {
  kind: DiskKind;
  /** The folder on the small filesystem (empty at first). */
  dir: string;
  /** Takes every free byte (a ballast file, or the injected capacity). */
  fill(): Promise<void>;
  /** Gives the space taken by `fill` back. */
  release(): Promise<void>;
  freeBytes(): Promise<number>;
  readonly full: boolean;
  /** Storage for the app: the disk storage itself on tmpfs, a wrapper that runs out when injected. */
  wrapStorage(storage: FileStorage): FileStorage;
  close(): Promise<void>;
}

/** A `sizeMb` tmpfs mounted on a new folder, or a plain folder with injected limits. */
export async function createSmallDisk(kind: DiskKind, sizeMb: number): Promise<SmallDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'gremienportal-small-disk-'));
  if (kind === 'tmpfs' && !tryMount(dir, sizeMb)) throw new Error(`tmpfs auf ${dir} nicht einhängbar`);
  return kind === 'tmpfs' ? tmpfsDisk(dir) : injectedDisk(dir, sizeMb * 1024 * 1024);
}

function tmpfsDisk(dir: string): SmallDisk {
  const ballast = join(dir, 'ballast.bin');
  let full = false;
  return {
    kind: 'tmpfs',
    dir,
    get full() {
      return full;
    },
    async fill() {
      const handle = await open(ballast, 'a');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        // Large pieces first, then single blocks, until not one byte more fits.
        for (const size of [chunk.length, 4096, 1]) {
          for (;;) {
            try {
              await handle.write(chunk, 0, size);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await handle.close();
      }
      full = true;
    },
    async release() {
      await rm(ballast, { force: true });
      full = false;
    },
    async freeBytes() {
      const stats = await statfs(dir);
      return stats.bavail * stats.bsize;
    },
    wrapStorage: (storage) => storage,
    async close() {
      unmount(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Injected: stored objects count against `capacity`; past it every write fails with ENOSPC. */
function injectedDisk(dir: string, capacity: number): SmallDisk {
  const sizes = new Map<string, number>();
  let ballast = 0;
  const used = () => ballast + [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const disk: SmallDisk = {
    kind: 'injected',
    dir,
    get full() {
      return ballast > 0 && used() >= capacity;
    },
    async fill() {
      ballast = Math.max(0, capacity - used());
    },
    async release() {
      ballast = 0;
    },
    async freeBytes() {
      return Math.max(0, capacity - used());
    },
    wrapStorage(storage) {
      return new (class implements FileStorage {
        async put(source: Readable, options: { maxBytes: number }): Promise<StoredObject> {
          const limited = Readable.from(
            (async function* () {
              let written = 0;
              for await (const chunk of source as AsyncIterable<Buffer>) {
                written += chunk.length;
                if (used() + written > capacity) throw noSpaceError();
                yield chunk;
              }
            })(),
            { objectMode: false },
          );
          const stored = await storage.put(limited, options);
          sizes.set(stored.key, stored.size);
          return stored;
        }
        get(key: string, range?: ByteRange) {
          return storage.get(key, range);
        }
        size(key: string) {
          return storage.size(key);
        }
        async delete(key: string) {
          await storage.delete(key);
          sizes.delete(key);
        }
        sweep(isReferenced: (key: string) => Promise<boolean>, olderThan: Date) {
          return storage.sweep(isReferenced, olderThan);
        }
      })();
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
  return disk;
}

/** Makes sure `path` exists as a folder on the small disk. */
export async function folderOn(disk: SmallDisk, name: string): Promise<string> {
  const path = join(disk.dir, name);
  await mkdir(path, { recursive: true });
  return path;
}
