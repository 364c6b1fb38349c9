import { join } from 'node:path';
import type { Config } from '../config.ts';
import { DiskStorage } from './disk-storage.ts';
import type { FileStorage } from './file-storage.ts';
import { s3StorageFromConfig } from './s3-storage.ts';

/** The storage the configuration names: S3-compatible when `STORAGE=s3`, else `DATA_DIR/files`. */
export function storageFromConfig(config: Config): FileStorage {
  return config.STORAGE === 's3'
    ? s3StorageFromConfig(config)
    : new DiskStorage(join(config.DATA_DIR, 'files'), {
        readableByGroup: config.DOWNLOAD_OFFLOAD === 'nginx',
      });
}
