import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DirectAnswer } from './file-storage.ts';

/**
 * A presigned GET of one object (decision 135): the store answers with the portal's media type,
 * file name and caching rule (`response-*` parameters, covered by the signature). Nothing is sent
 * to the store here; the signature is computed locally. The address grants the object to whoever
 * holds it until it expires, so it is never logged (the server suite searches its log for the
 * signatures of every address made here).
 */
export function presignedGetUrl(
  client: S3Client,
  bucket: string,
  key: string,
  answer: DirectAnswer,
): Promise<string> {
  return getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseContentType: answer.contentType,
      ResponseContentDisposition: answer.contentDisposition,
      ResponseCacheControl: answer.cacheControl,
    }),
    { expiresIn: answer.expiresInSeconds },
  );
}
