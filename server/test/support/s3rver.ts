import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** s3rver (an S3 server for tests) ships no types; this is the part the server tests use. */
export interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets?: { name: string }[];
}) => S3rverInstance;

export const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
