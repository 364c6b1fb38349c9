import { join } from 'node:path';
import type { Config } from '../config.ts';
import { DiskStorage } from './disk-storage.ts';
import type { FileStorage } from './file-storage.ts';

/**
 * The storage the configuration names: S3-compatible when `STORAGE=s3`, else `DATA_DIR/files`.
 * The S3 SDK is loaded only for S3 (a third of a second of every start that does not use it).
 */
export async function storageFromConfig(config: Config): Promise<FileStorage> {
  if (config.STORAGE === 's3') return (await import('./s3-storage.ts')).s3StorageFromConfig(config);
  return new DiskStorage(join(config.DATA_DIR, 'files'), {
    readableByGroup: config.DOWNLOAD_OFFLOAD === 'nginx',
  });
}
