import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config.ts';
import { AppError, GERMAN } from '../errors.ts';
import { newKey } from './object-keys.ts';
import { MeasuringStream } from './disk-storage.ts';
import type { ByteRange, DirectAnswer, FileStorage, StoredObject } from './file-storage.ts';
import { presignedGetUrl } from './s3-presign.ts';

/** Server-made keys only, the same rule as on disk: anything else is "not found". */
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** S3 needs at least 5 MiB per part (except the last). */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** Parts uploaded at once; an upload holds about `(queueSize + 1) × partSize` bytes in memory. */
const DEFAULT_QUEUE_SIZE = 2;

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** Bytes per part of a multipart upload; smaller uploads are one PutObject. */
  partSize?: number;
  queueSize?: number;
}

interface S3ErrorLike {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as S3ErrorLike | undefined)?.$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as S3ErrorLike | undefined)?.name ?? '';

function isMissing(error: unknown): boolean {
  return ['NoSuchKey', 'NotFound'].includes(nameOf(error)) || statusOf(error) === 404;
}

/**
 * A full store: MinIO (`XMinioStorageFull`, 507), Ceph/RGW and others (`QuotaExceeded`), or any
 * 507 answer. AWS S3 itself never fills up.
 */
function isStoreFull(error: unknown): boolean {
  return (
    ['XMinioStorageFull', 'QuotaExceeded', 'InsufficientStorage', 'XMinioAdminBucketQuotaExceeded'].includes(
      nameOf(error),
    ) || statusOf(error) === 507
  );
}

function isNotImplemented(error: unknown): boolean {
  return nameOf(error) === 'NotImplemented' || statusOf(error) === 501 || statusOf(error) === 405;
}

/** The first `bytes` of `source`; the rest is not read (the connection is closed). */
function limitTo(source: Readable, bytes: number): Readable {
  async function* take() {
    let left = bytes;
    // Leaving the loop early destroys the source.
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      yield part;
      if (left <= 0) break;
    }
  }
  return Readable.from(take(), { objectMode: false });
}

/** The S3 client for the configured store: static keys when given, else the SDK's default chain. */
export function s3ClientFromConfig(config: Config): S3Client {
  return new S3Client({
    region: config.S3_REGION,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: config.S3_ACCESS_KEY_ID,
            secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          },
        }
      : {}),
    // Many S3-compatible stores (older MinIO, Ceph, Garage, s3rver) reject the SDK's default
    // CRC32 trailers; content integrity is covered by our own SHA-256 of every object.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 5_000,
      // Each running download holds one connection while the client reads; the SDK default (50)
      // would queue the 51st download behind slow readers.
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  });
}

export function s3StorageFromConfig(config: Config): S3Storage {
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET fehlt (STORAGE=s3)');
  return new S3Storage({ client: s3ClientFromConfig(config), bucket: config.S3_BUCKET });
}

/**
 * Objects in an S3-compatible bucket, named by their server-made key (the bucket belongs to the
 * portal). Uploads stream through: up to `partSize` bytes they are one PutObject, above that a
 * multipart upload, so no upload is ever held in memory whole. S3 makes an object visible only
 * when its PutObject or CompleteMultipartUpload succeeds, which gives the same "complete or
 * absent" guarantee as the disk storage's rename.
 */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3StorageOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.partSize = Math.max(MIN_PART_SIZE, options.partSize ?? DEFAULT_PART_SIZE);
    this.queueSize = Math.max(1, options.queueSize ?? DEFAULT_QUEUE_SIZE);
  }

  private checkKey(key: string): void {
    if (!KEY_PATTERN.test(key)) throw new AppError('not_found', GERMAN.notFound);
  }

  async put(source: Readable, options: { maxBytes: number }): Promise<StoredObject> {
    const key = newKey();
    const measure = new MeasuringStream(options.maxBytes);
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/octet-stream' },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });

    // Whichever side fails first says why: the source (too large, broken request) or the store.
    let firstError: unknown;
    let failed = false;
    const fail = (error: unknown) => {
      if (!failed) {
        failed = true;
        firstError = error;
      }
    };
    const uploading = upload.done().then(
      () => undefined,
      (error: unknown) => {
        fail(error);
        // Nobody reads the body any more: end the pipeline instead of leaving it stalled.
        body.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
    await pipeline(source, measure, body).catch(fail);
    await uploading;

    if (!failed) return { key, size: measure.bytes, sha256: measure.hash.digest('hex') };

    // Nothing may be left behind: the upload stops (and aborts its multipart upload where the
    // store supports that), and an object that got completed anyway is deleted.
    await upload.abort().catch(() => undefined);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(() => undefined);
    if (firstError instanceof AppError) throw firstError;
    if (isStoreFull(firstError)) throw new AppError('insufficient_storage', GERMAN.insufficientStorage);
    throw firstError;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    this.checkKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!(result.Body instanceof Readable)) {
        throw new Error('Unerwartete Antwort des Objektspeichers: kein Datenstrom');
      }
      const wanted = range ? range.end - range.start + 1 : undefined;
      // Some S3-compatible stores answer `bytes=0-0` with the whole object; the download's
      // Content-Length promises exactly the range, so never pass on more than asked for.
      if (wanted !== undefined && (result.ContentLength ?? 0) > wanted) {
        return limitTo(result.Body, wanted);
      }
      return result.Body;
    } catch (error) {
      if (isMissing(error)) throw new AppError('not_found', GERMAN.notFound);
      throw error;
    }
  }

  async directUrl(key: string, answer: DirectAnswer): Promise<string> {
    this.checkKey(key);
    return presignedGetUrl(this.client, this.bucket, key, answer);
  }

  /**
   * Where presigned addresses point (scheme, host, port): the web app's fetch follows a download's
   * redirect there, so the portal's Content-Security-Policy must allow it (`connect-src`).
   */
  async directOrigin(): Promise<string> {
    const sample = await presignedGetUrl(this.client, this.bucket, 'origin-probe-0000', {
      contentType: 'application/octet-stream',
      contentDisposition: 'attachment',
      cacheControl: 'no-store',
      expiresInSeconds: 1,
    });
    return new URL(sample).origin;
  }

  async size(key: string): Promise<number | null> {
    if (!KEY_PATTERN.test(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      // Only "not there" is null; an unreachable store must not look like a deleted document.
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    this.checkKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async sweep(isReferenced: (key: string) => Promise<boolean>, olderThan: Date): Promise<string[]> {
    const removed: string[] = [];
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, MaxKeys: 1000 },
      )) {
        for (const object of page.Contents ?? []) {
          const key = object.Key;
          if (!key || !KEY_PATTERN.test(key)) continue;
          if (!object.LastModified || object.LastModified >= olderThan) continue;
          if (await isReferenced(key)) continue;
          await this.delete(key);
          removed.push(key);
        }
      }
    } catch (error) {
      throw new Error(`Objektspeicher: Bucket „${this.bucket}“ kann nicht gelesen werden: ${String(error)}`, {
        cause: error,
      });
    }
    removed.push(...(await this.abortStaleUploads(olderThan)));
    return removed;
  }

  /**
   * Multipart uploads a crashed instance left open hold storage until aborted. Stores without
   * the listing call (some S3-compatible ones) rely on a lifecycle rule instead
   * (`AbortIncompleteMultipartUpload`, see the deployment guide).
   */
  private async abortStaleUploads(olderThan: Date): Promise<string[]> {
    const removed: string[] = [];
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            ...(keyMarker ? { KeyMarker: keyMarker } : {}),
            ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}),
          }),
        );
      } catch (error) {
        if (isNotImplemented(error)) return removed;
        throw error;
      }
      for (const pending of page.Uploads ?? []) {
        if (!pending.Key || !pending.UploadId || !KEY_PATTERN.test(pending.Key)) continue;
        if (!pending.Initiated || pending.Initiated >= olderThan) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: pending.Key,
            UploadId: pending.UploadId,
          }),
        );
        removed.push(`uploads/${pending.Key}`);
      }
      if (!page.IsTruncated) return removed;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /** Closes the client's pooled connections. */
  close(): void {
    this.client.destroy();
  }
}
