/**
 * Setup file of every server test file: every token the portal issues through `newToken` is noted
 * for the global log search (log-capture.ts).
 */
import { vi } from 'vitest';
import { recordIssuedToken } from './log-capture.ts';

vi.mock(import('../../src/tokens.ts'), async (importOriginal) => {
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
