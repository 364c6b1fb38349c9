import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { notifications } from '@mantine/notifications';
import { queryClient } from '../lib/query-client';

// A page's first render loads its lazy modules; on a busy two-core machine that can take longer
// than Testing Library's default of one second, and longer still while CI runs beside it.
// Waiting longer changes no assertion; the test's own limit (15 s) stays above it.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks what Mantine measures with.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element, pseudo?: string | null) => getComputedStyle(element, pseudo);
window.HTMLElement.prototype.scrollIntoView = () => {};
// mantine-datatable scrolls its rows back to the top when the page changes.
window.HTMLElement.prototype.scrollTo = () => {};
window.scrollTo = () => {};
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
// Mantine's growing text area (the agenda's descriptions) listens for web fonts to finish loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

beforeEach(() => {
  // Tests decide about failures themselves; retries would only slow them down.
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: 30_000 },
    mutations: { retry: false },
  });
});

afterEach(() => {
  cleanup();
  queryClient.clear();
  // Toasts live in a module-level store: one left by a test would show in the next one's page.
  notifications.clean();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
