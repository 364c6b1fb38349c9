// Over 300 lines: it follows api-client.ts, one file on purpose (JSON, downloads and uploads share one token
// and 401 rule); the uploads part needs its own fake XMLHttpRequest. Saving and showing a downloaded
// file: saved-files.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../testing/fetch-mock';
import {
  api,
  ApiError,
  download,
  setTwoFactorSetupHandler,
  setUnauthorizedHandler,
  TRANSPORT_MESSAGES,
  upload,
} from './api-client';

const storeToken = (token: string) => window.localStorage.setItem('access_token', token);

describe('api client', () => {
  it('sends JSON with the bearer token from local storage and returns the answer', async () => {
    storeToken('abc123');
    const { requests } = mockApi({ 'POST /api/v1/things': json(201, { thing: { id: 1 } }) });

    const answer = await api.post<{ thing: { id: number } }>('/things', { title: 'Neu' });

    expect(answer).toEqual({ thing: { id: 1 } });
    expect(requests[0]?.url).toBe('/api/v1/things');
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer abc123');
    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(requests[0]?.body).toEqual({ title: 'Neu' });
  });

  it('sends no Authorization header when signed out', async () => {
    const { requests } = mockApi({ 'GET /api/v1/health': json(200, { status: 'ok' }) });
    await api.get('/health');
    expect(requests[0]?.headers.has('Authorization')).toBe(false);
  });

  it('treats every 2xx as success, including 204 without a body', async () => {
    mockApi({ 'DELETE /api/v1/things/1': new Response(null, { status: 204 }) });
    await expect(api.delete('/things/1')).resolves.toBeUndefined();
  });

  it("turns an error answer into an ApiError with the server's German message and field errors", async () => {
    mockApi({
      'POST /api/v1/things': json(422, {
        message: 'Die Eingaben sind ungültig.',
        errors: { title: ['Titel ist erforderlich.'] },
      }),
    });

    const error = await api.post('/things', {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      message: 'Die Eingaben sind ungültig.',
      errors: { title: ['Titel ist erforderlich.'] },
      kind: 'http',
    });
    expect((error as ApiError).allMessages).toEqual([
      'Die Eingaben sind ungültig.',
      'Titel ist erforderlich.',
    ]);
  });

  it('names the status in German when the answer carries no message', async () => {
    mockApi({ 'GET /api/v1/things': new Response('<html>Bad Gateway</html>', { status: 502 }) });
    await expect(api.get('/things')).rejects.toMatchObject({
      status: 502,
      message: 'Anfrage fehlgeschlagen (Status 502)',
    });
  });

  it('reports a network failure in German', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('/things')).rejects.toMatchObject({
      status: 0,
      kind: 'network',
      message: 'Netzwerkfehler – bitte Verbindung prüfen.',
    });
  });

  it('reports a timeout in German', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
          ),
      ),
    );
    await expect(api.get('/slow', { timeoutMs: 20 })).rejects.toMatchObject({
      kind: 'timeout',
      message: TRANSPORT_MESSAGES.timeout,
    });
  });

  it('reports a call aborted by the caller in German', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
          ),
      ),
    );
    const controller = new AbortController();
    const pending = api.get('/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      kind: 'aborted',
      message: 'Die Anfrage wurde abgebrochen.',
    });
  });

  describe('403 two_factor_setup_required', () => {
    it('hands the message to the registered handler; other 403s do not', async () => {
      storeToken('admin');
      const handler = vi.fn();
      const unregister = setTwoFactorSetupHandler(handler);
      const message = 'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben.';
      mockApi({
        'GET /api/v1/files': json(403, { message, code: 'two_factor_setup_required' }),
        'GET /api/v1/user': json(403, { message: 'Dafür fehlt Ihnen die Berechtigung.' }),
      });
      await expect(api.get('/files')).rejects.toMatchObject({ status: 403, message });
      await expect(api.get('/user')).rejects.toMatchObject({ status: 403 });
      expect(handler).toHaveBeenCalledTimes(1);
      expect(handler).toHaveBeenCalledWith(message);
      unregister();
    });
  });

  describe('401', () => {
    afterEach(() => setUnauthorizedHandler(() => {})());

    it('signs the user out on any call', async () => {
      storeToken('expired');
      window.localStorage.setItem('user', '{}');
      const handler = vi.fn();
      setUnauthorizedHandler(handler);
      mockApi({ 'GET /api/v1/folders': json(401, { message: 'Bitte melden Sie sich an.' }) });

      await expect(api.get('/folders')).rejects.toMatchObject({ status: 401 });
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('clears the stored session even before the app registered a handler', async () => {
      storeToken('expired');
      window.localStorage.setItem('user', '{}');
      mockApi({ 'GET /api/v1/folders': json(401, { message: 'Bitte melden Sie sich an.' }) });

      await expect(api.get('/folders')).rejects.toMatchObject({ status: 401 });
      expect(window.localStorage.getItem('access_token')).toBeNull();
      expect(window.localStorage.getItem('user')).toBeNull();
    });

    it('does not sign out for calls that opt out (the login itself)', async () => {
      const handler = vi.fn();
      setUnauthorizedHandler(handler);
      mockApi({ 'POST /api/v1/auth/login': json(401, { message: 'Falsch.' }) });

      await expect(api.post('/auth/login', {}, { signOutOn401: false })).rejects.toMatchObject({
        status: 401,
      });
      expect(handler).not.toHaveBeenCalled();
    });

    it('ignores a late 401 for a token that was replaced by a new login meanwhile', async () => {
      storeToken('old');
      const handler = vi.fn();
      setUnauthorizedHandler(handler);
      mockApi({
        'GET /api/v1/folders': () => {
          storeToken('new');
          return json(401, { message: 'Bitte melden Sie sich an.' });
        },
      });

      await expect(api.get('/folders')).rejects.toMatchObject({ status: 401 });
      expect(handler).not.toHaveBeenCalled();
    });
  });
});

describe('downloads', () => {
  it('fetches the file with the bearer header, never with the token in the URL', async () => {
    storeToken('secret-token');
    const { requests } = mockApi({
      'GET /api/v1/download/k3y': new Response('%PDF-1.7', {
        status: 200,
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `inline; filename*=UTF-8''Einladung%20%C3%9Cbersicht.pdf`,
        },
      }),
    });

    const file = await download('/download/k3y');

    expect(file.filename).toBe('Einladung Übersicht.pdf');
    expect(file.type).toBe('application/pdf');
    expect(await file.blob.text()).toBe('%PDF-1.7');
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer secret-token');
    expect(requests[0]?.url).not.toContain('secret-token');
  });

  it('lets the caller read the body (to show progress), only for a successful answer', async () => {
    mockApi({
      'GET /api/v1/events/5/book.pdf': new Response('%PDF-1.7', {
        headers: { 'Content-Type': 'application/pdf' },
      }),
      'GET /api/v1/events/6/book.pdf': json(503, { message: 'Gerade beschäftigt.' }),
    });
    const readBody = vi.fn(async (response: Response) => new Blob([`gelesen: ${await response.text()}`]));
    const file = await download('/events/5/book.pdf', { readBody });
    expect(await file.blob.text()).toBe('gelesen: %PDF-1.7');
    expect(file.type).toBe('application/pdf');
    expect(readBody).toHaveBeenCalledTimes(1);

    await expect(download('/events/6/book.pdf', { readBody })).rejects.toMatchObject({ status: 503 });
    expect(readBody).toHaveBeenCalledTimes(1);
  });

  it('turns a failed download into an ApiError', async () => {
    mockApi({ 'GET /api/v1/download/gone': json(404, { message: 'Nicht gefunden.' }) });
    await expect(download('/download/gone')).rejects.toMatchObject({
      status: 404,
      message: 'Nicht gefunden.',
    });
  });
});

describe('uploads', () => {
  class FakeXhr {
    static last: FakeXhr;
    status = 0;
    responseText = '';
    timeout = 0;
    headers: Record<string, string> = {};
    method = '';
    url = '';
    body: unknown;
    private listeners: Record<string, (() => void)[]> = {};
    upload = {
      listeners: [] as ((event: ProgressEvent) => void)[],
      addEventListener(_type: string, listener: (event: ProgressEvent) => void) {
        this.listeners.push(listener);
      },
    };
    constructor() {
      FakeXhr.last = this;
    }
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader() {
      return 'application/json';
    }
    addEventListener(type: string, listener: () => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    send(body: unknown) {
      this.body = body;
    }
    abort() {
      this.emit('abort');
    }
    emit(type: string) {
      for (const listener of this.listeners[type] ?? []) listener();
    }
  }

  it('posts form data with the bearer header and reports progress', async () => {
    storeToken('tok');
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress = vi.fn();
    const formData = new FormData();
    formData.append('title', 'Protokoll');

    const pending = upload<{ file: { id: number } }>('POST', '/files', formData, progress);
    const xhr = FakeXhr.last;
    xhr.upload.listeners.forEach((listener) =>
      listener({ loaded: 50, total: 200, lengthComputable: true } as ProgressEvent),
    );
    xhr.status = 201;
    xhr.responseText = JSON.stringify({ file: { id: 9 } });
    xhr.emit('load');

    await expect(pending).resolves.toEqual({ file: { id: 9 } });
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/v1/files');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect(xhr.body).toBe(formData);
    expect(progress).toHaveBeenCalledWith({ loaded: 50, total: 200, percent: 25 });
  });

  it('maps upload failures to German ApiErrors', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);

    const tooLarge = upload('POST', '/files', new FormData());
    FakeXhr.last.status = 413;
    FakeXhr.last.responseText = JSON.stringify({ message: 'Die Datei ist zu groß.' });
    FakeXhr.last.emit('load');
    await expect(tooLarge).rejects.toMatchObject({ status: 413, message: 'Die Datei ist zu groß.' });

    const offline = upload('POST', '/files', new FormData());
    FakeXhr.last.emit('error');
    await expect(offline).rejects.toMatchObject({ kind: 'network', message: TRANSPORT_MESSAGES.network });
  });
});
