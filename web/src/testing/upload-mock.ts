import { vi } from 'vitest';

/** Uploads go through XMLHttpRequest (for progress): a stand-in that records them and answers. */

export interface RecordedUpload {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: FormData;
}
export type UploadReply = { status: number; body?: unknown };

export function mockUploads(reply: (upload: RecordedUpload) => UploadReply) {
  const uploads: RecordedUpload[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    timeout = 0;
    readonly upload = { addEventListener: () => {} };
    private listeners: Record<string, (() => void)[]> = {};
    private request: Omit<RecordedUpload, 'body'> = { method: '', url: '', headers: {} };
    open(method: string, url: string) {
      this.request = { method, url, headers: {} };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? 'application/json' : null;
    }
    addEventListener(type: string, listener: () => void) {
      (this.listeners[type] ??= []).push(listener);
    }
    abort() {}
    send(body: FormData) {
      const recorded = { ...this.request, body };
      uploads.push(recorded);
      const answer = reply(recorded);
      setTimeout(() => {
        this.status = answer.status;
        this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
        for (const listener of this.listeners.load ?? []) listener();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return uploads;
}
