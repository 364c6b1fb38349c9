import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EARLY_REQUEST_MAX_AGE_MS,
  EARLY_REQUESTS_KEY,
  startEarlyRequests,
  takeEarlyResponse,
} from './early-requests';

const URL_TREE = '/api/v1/tree?files=false';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete (window as unknown as Record<string, unknown>)[EARLY_REQUESTS_KEY];
});

function stubFetch() {
  const fetchMock = vi.fn(() => Promise.resolve(new Response('{"data":[]}', { status: 200 })));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('early requests (decision 184)', () => {
  it('hands out an answer once, for the same address and token', async () => {
    const fetchMock = stubFetch();
    startEarlyRequests([URL_TREE], 'token-a');
    expect(fetchMock).toHaveBeenCalledWith(URL_TREE, {
      headers: { Accept: 'application/json', Authorization: 'Bearer token-a' },
    });
    const signal = new AbortController().signal;
    expect(takeEarlyResponse('/api/v1/other', 'token-a', signal)).toBeUndefined();
    expect(takeEarlyResponse(URL_TREE, 'token-b', signal)).toBeUndefined();
    const response = await takeEarlyResponse(URL_TREE, 'token-a', signal);
    expect(response?.status).toBe(200);
    expect(takeEarlyResponse(URL_TREE, 'token-a', signal)).toBeUndefined();
  });

  it('gives nothing after the maximum age: the page asks again', () => {
    vi.useFakeTimers();
    stubFetch();
    startEarlyRequests([URL_TREE], 'token-a');
    vi.advanceTimersByTime(EARLY_REQUEST_MAX_AGE_MS + 1);
    expect(takeEarlyResponse(URL_TREE, 'token-a', new AbortController().signal)).toBeUndefined();
  });

  it('fails like a fetch when the caller aborts first', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    startEarlyRequests([URL_TREE], 'token-a');
    const controller = new AbortController();
    const response = takeEarlyResponse(URL_TREE, 'token-a', controller.signal);
    controller.abort();
    await expect(response).rejects.toMatchObject({ name: 'AbortError' });
  });
});
