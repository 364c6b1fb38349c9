/**
 * Setup file of every server test file: every token the portal issues through `newToken` is noted
 * for the global log search (log-capture.ts).
 */
import { vi } from 'vitest';
import { recordIssuedToken } from './log-capture.ts';

vi.mock(import('../../src/credentials/tokens.ts'), async (importOriginal) => {
  const actual = await importOriginal();
  return {
    ...actual,
    newToken: () => {
      const token = actual.newToken();
      recordIssuedToken(token);
      return token;
    },
  };
});

// Presigned download addresses (DOWNLOAD_OFFLOAD=s3, decision 135) grant a document to whoever
// holds one: their signatures are searched for in the log like tokens.
vi.mock(import('../../src/storage/s3-presign.ts'), async (importOriginal) => {
  const actual = await importOriginal();
  return {
    ...actual,
    presignedGetUrl: async (...args: Parameters<typeof actual.presignedGetUrl>) => {
      const url = await actual.presignedGetUrl(...args);
      const signature = new URL(url).searchParams.get('X-Amz-Signature');
      if (!signature) throw new Error('Vorsignierte Adresse ohne X-Amz-Signature');
      recordIssuedToken(signature);
      return url;
    },
  };
});
