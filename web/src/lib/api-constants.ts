/** The API's base path and the storage keys of the session, shared by the API client and the boot script. */
export const API_BASE = '/api/v1';
export const TOKEN_STORAGE_KEY = 'access_token';
export const USER_STORAGE_KEY = 'user';
