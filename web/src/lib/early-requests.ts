/**
 * The first page's API calls, started by the boot script (src/boot/boot.ts) while the page's code
 * still loads (decision 184). The API client takes each answer once, for the same address and the
 * same token, within a few seconds of the start; after that, or for anything else, it asks again.
 */

/** What the boot script leaves on `window` under EARLY_REQUESTS_KEY. */
export interface EarlyRequests {
  token: string;
  startedAt: number;
  /** By address (`/api/v1/tree?files=false`): the answer of the boot script's `fetch`. */
  responses: Record<string, Promise<Response>>;
}

export const EARLY_REQUESTS_KEY = '__gremienportalEarlyRequests';

/** An early answer older than this is not used: the page asks again. */
export const EARLY_REQUEST_MAX_AGE_MS = 10_000;

type EarlyWindow = Window & { [EARLY_REQUESTS_KEY]?: EarlyRequests };

/**
 * Hands out the early answer for `url` once, if the boot script asked for it with `token`; it fails
 * as the page's own `fetch` would when `signal` aborts first (a timeout, a page left).
 */
export function takeEarlyResponse(
  url: string,
  token: string | null,
  signal: AbortSignal,
): Promise<Response> | undefined {
  const early = (window as EarlyWindow)[EARLY_REQUESTS_KEY];
  if (!early || token === null || early.token !== token) return undefined;
  if (Date.now() - early.startedAt > EARLY_REQUEST_MAX_AGE_MS) {
    delete (window as EarlyWindow)[EARLY_REQUESTS_KEY];
    return undefined;
  }
  const response = early.responses[url];
  if (!response) return undefined;
  delete early.responses[url];
  return new Promise((resolve, reject) => {
    const abort = () => reject(new DOMException('Die Anfrage wurde abgebrochen.', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    response.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** The boot script's side: starts every call of the first page with the stored token. */
export function startEarlyRequests(urls: readonly string[], token: string): void {
  const responses: Record<string, Promise<Response>> = {};
  for (const url of urls) {
    const response = fetch(url, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    // A failure shows when the page takes the answer; one nobody takes is not an error.
    response.catch(() => undefined);
    responses[url] = response;
  }
  (window as EarlyWindow)[EARLY_REQUESTS_KEY] = { token, startedAt: Date.now(), responses };
}
