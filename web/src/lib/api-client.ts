// Over 300 lines because JSON requests, uploads with progress (XHR) and blob downloads share one
// token, timeout and German error handling; splitting them would spread the 401 rule over files.
/**
 * The one way the web app talks to the API under /api/v1: bearer token from local storage, JSON in
 * and out, German messages for every failure, and a sign-out on any 401.
 */

import { TWO_FACTOR_SETUP_REQUIRED } from '@gremienportal/contracts/rules';
import { filenameFromContentDisposition, type DownloadedFile } from './saved-files';

import { API_BASE, getAccessToken, TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from './api-basics';
import { takeEarlyResponse } from './early-requests';

export { API_BASE, getAccessToken, TOKEN_STORAGE_KEY, USER_STORAGE_KEY };

/** Without an answer after this long a JSON call fails with a German timeout message. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export const TRANSPORT_MESSAGES = {
  network: 'Netzwerkfehler – bitte Verbindung prüfen.',
  timeout: 'Zeitüberschreitung – der Server hat nicht rechtzeitig geantwortet. Bitte erneut versuchen.',
  aborted: 'Die Anfrage wurde abgebrochen.',
  invalidResponse: 'Der Server hat eine unerwartete Antwort gesendet.',
  status: (status: number) => `Anfrage fehlgeschlagen (Status ${status})`,
} as const;

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'invalid-response';
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly kind: ApiErrorKind;
  /** The server's machine-readable reason, where it gives one (`two_factor_setup_required`). */
  readonly code?: string;

  constructor(
    status: number,
    message: string,
    options: { errors?: FieldErrors; kind?: ApiErrorKind; code?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.kind = options.kind ?? 'http';
    if (options.errors) this.errors = options.errors;
    if (options.code) this.code = options.code;
  }

  /** The general message followed by every field message, without repeats. */
  get allMessages(): string[] {
    const all = [this.message, ...Object.values(this.errors ?? {}).flat()];
    return [...new Set(all.filter((text) => text.trim() !== ''))];
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The German text for any thrown value, with a fallback for what is not an ApiError. */
export function errorMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.message ? error.message : fallback;
}

// ---------------------------------------------------------------------------------------------
// Token storage and sign-out on 401

export function clearStoredAuth(): void {
  try {
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
    window.localStorage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Nothing stored that could be removed.
  }
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The auth provider registers how a 401 signs the user out; returns the unregister function. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

function handleUnauthorized(tokenUsed: string | null): void {
  // An answer to a request made with an older token must not end the session signed in since.
  if (tokenUsed !== getAccessToken()) return;
  if (unauthorizedHandler) unauthorizedHandler();
  else clearStoredAuth();
}

type TwoFactorSetupHandler = (message: string) => void;
let twoFactorSetupHandler: TwoFactorSetupHandler | null = null;

/**
 * The signed-in layout registers where a member goes whose role requires a second factor they
 * have not set up yet (decision 126: every call but the setup ones answers 403 with that code).
 */
export function setTwoFactorSetupHandler(handler: TwoFactorSetupHandler): () => void {
  twoFactorSetupHandler = handler;
  return () => {
    if (twoFactorSetupHandler === handler) twoFactorSetupHandler = null;
  };
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds until the call fails with a timeout; 0 waits forever. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** False only for calls whose 401 means something else (the login itself, the logout). */
  signOutOn401?: boolean;
}

export function apiUrl(path: string): string {
  if (path.startsWith(`${API_BASE}/`) || path === API_BASE) return path;
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toFieldErrors(value: unknown): FieldErrors | undefined {
  if (!isRecord(value)) return undefined;
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string',
    );
    if (list.length > 0) errors[field] = list;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  const looksJson = contentType?.includes('json') || /^\s*[[{]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Turns a non-2xx answer into an ApiError with the server's German message. */
function errorFromResponse(status: number, body: unknown): ApiError {
  const message =
    isRecord(body) && typeof body.message === 'string' && body.message.trim() !== ''
      ? body.message
      : TRANSPORT_MESSAGES.status(status);
  return new ApiError(status, message, {
    errors: isRecord(body) ? toFieldErrors(body.errors) : undefined,
    code: isRecord(body) && typeof body.code === 'string' ? body.code : undefined,
  });
}

function settle<T>(status: number, body: unknown, tokenUsed: string | null, options: RequestOptions): T {
  if (status >= 200 && status <= 299) return body as T;
  if (status === 401 && options.signOutOn401 !== false) handleUnauthorized(tokenUsed);
  const error = errorFromResponse(status, body);
  if (status === 403 && error.code === TWO_FACTOR_SETUP_REQUIRED) {
    twoFactorSetupHandler?.(error.message);
  }
  throw error;
}

interface Abortable {
  signal: AbortSignal;
  timedOut: () => boolean;
  dispose: () => void;
}

/** One signal for the caller's abort and the timeout, so both end the same fetch. */
function abortable(options: RequestOptions, defaultTimeout: number): Abortable {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = options.timeoutMs ?? defaultTimeout;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

function transportError(abort: Abortable): ApiError {
  if (abort.timedOut()) return new ApiError(0, TRANSPORT_MESSAGES.timeout, { kind: 'timeout' });
  if (abort.signal.aborted) return new ApiError(0, TRANSPORT_MESSAGES.aborted, { kind: 'aborted' });
  return new ApiError(0, TRANSPORT_MESSAGES.network, { kind: 'network' });
}

/**
 * A GET the boot script may have made already (decision 184): one without a body and without
 * headers of its own but what it accepts takes that answer; anything else goes out now.
 */
function fetchOrEarly(
  path: string,
  token: string | null,
  extraHeaders: Record<string, string> | undefined,
  init: RequestInit & { signal: AbortSignal },
): Promise<Response> {
  const url = apiUrl(path);
  const plain =
    init.method === 'GET' &&
    init.body === undefined &&
    Object.keys(extraHeaders ?? {}).every((name) => name.toLowerCase() === 'accept');
  return (plain ? takeEarlyResponse(url, token, init.signal) : undefined) ?? fetch(url, init);
}

function authHeaders(token: string | null): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const token = getAccessToken();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...authHeaders(token),
    ...options.headers,
  };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const abort = abortable(options, DEFAULT_TIMEOUT_MS);
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetchOrEarly(path, token, options.headers, {
        method,
        headers,
        body: payload,
        signal: abort.signal,
      });
      text = await response.text();
    } catch {
      throw transportError(abort);
    }
    return settle<T>(response.status, parseBody(text, response.headers.get('Content-Type')), token, options);
  } finally {
    abort.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Uploads with progress

export interface UploadProgress {
  loaded: number;
  /** Unknown when the browser cannot tell the size. */
  total?: number;
  /** 0–100, when the total is known. */
  percent?: number;
}

export interface UploadOptions extends Omit<RequestOptions, 'headers'> {
  /** The media type of a body sent as it is (a file, not form data), e.g. `text/csv`. */
  contentType?: string;
}

/**
 * Sends multipart form data, or one file as the whole body, with XMLHttpRequest, the one browser
 * API that reports upload progress. No timeout unless asked: large files on slow lines take long.
 */
export function upload<T>(
  method: 'POST' | 'PUT' | 'PATCH',
  path: string,
  body: FormData | Blob,
  onProgress?: (progress: UploadProgress) => void,
  options: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const token = getAccessToken();
    const xhr = new XMLHttpRequest();
    let timedOut = false;
    xhr.open(method, apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (options.contentType && !(body instanceof FormData))
      xhr.setRequestHeader('Content-Type', options.contentType);
    if (options.timeoutMs) xhr.timeout = options.timeoutMs;

    const onAbortSignal = () => xhr.abort();
    const cleanup = () => options.signal?.removeEventListener('abort', onAbortSignal);

    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        const total = event.lengthComputable ? event.total : undefined;
        onProgress({
          loaded: event.loaded,
          total,
          percent: total ? Math.min(100, Math.round((event.loaded / total) * 100)) : undefined,
        });
      });
    }
    xhr.addEventListener('load', () => {
      cleanup();
      try {
        resolve(
          settle<T>(
            xhr.status,
            parseBody(xhr.responseText, xhr.getResponseHeader('Content-Type')),
            token,
            options,
          ),
        );
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    xhr.addEventListener('error', () => {
      cleanup();
      reject(new ApiError(0, TRANSPORT_MESSAGES.network, { kind: 'network' }));
    });
    xhr.addEventListener('timeout', () => {
      timedOut = true;
      cleanup();
      reject(new ApiError(0, TRANSPORT_MESSAGES.timeout, { kind: 'timeout' }));
    });
    xhr.addEventListener('abort', () => {
      cleanup();
      if (!timedOut) reject(new ApiError(0, TRANSPORT_MESSAGES.aborted, { kind: 'aborted' }));
    });

    if (options.signal?.aborted) {
      xhr.abort();
      return;
    }
    options.signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(body);
  });
}

// ---------------------------------------------------------------------------------------------
// Downloads: fetched with the bearer header, never with a token in the URL (saving and showing
// them: saved-files.ts)

export interface DownloadOptions extends RequestOptions {
  /**
   * Reads the body instead of `response.blob()`, e.g. chunk by chunk to show progress. Passed in
   * by the caller, so the reading code loads with the page that needs it, not with every page.
   */
  readBody?: (response: Response) => Promise<Blob>;
}

export async function download(path: string, options: DownloadOptions = {}): Promise<DownloadedFile> {
  const token = getAccessToken();
  const abort = abortable(options, 0);
  try {
    let response: Response;
    try {
      response = await fetchOrEarly(path, token, options.headers, {
        method: 'GET',
        headers: { Accept: '*/*', ...authHeaders(token), ...options.headers },
        signal: abort.signal,
      });
    } catch {
      throw transportError(abort);
    }
    if (!response.ok) {
      let text = '';
      try {
        text = await response.text();
      } catch {
        // The status alone still tells what went wrong.
      }
      settle(response.status, parseBody(text, response.headers.get('Content-Type')), token, options);
    }
    let blob: Blob;
    try {
      blob = await (options.readBody ? options.readBody(response) : response.blob());
    } catch {
      throw transportError(abort);
    }
    const type =
      (response.headers.get('Content-Type') ?? blob.type).split(';')[0]?.trim().toLowerCase() ||
      'application/octet-stream';
    const fallbackName = decodeURIComponent(path.split('?')[0]?.split('/').pop() ?? '') || 'download';
    const filename =
      filenameFromContentDisposition(response.headers.get('Content-Disposition')) ?? fallbackName;
    return { blob: blob.type === type ? blob : new Blob([blob], { type }), filename, type };
  } finally {
    abort.dispose();
  }
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, body, options),
  delete: <T = void>(path: string, options?: RequestOptions) =>
    request<T>('DELETE', path, undefined, options),
  upload,
  download,
};
