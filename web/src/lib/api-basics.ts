/**
 * The API's base path and the stored session, shared by the API client and the boot script (which
 * must stay small and so cannot import the client).
 */
export const API_BASE = '/api/v1';
export const TOKEN_STORAGE_KEY = 'access_token';
export const USER_STORAGE_KEY = 'user';

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be switched off (private modes, policies): behave as signed out.
    return null;
  }
}

export function getAccessToken(): string | null {
  return readStorage(TOKEN_STORAGE_KEY);
}
