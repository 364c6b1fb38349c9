/**
 * The boot script (decision 184): a few hundred bytes that index.html loads beside the entry. It
 * reads whether a token is stored and, from the address, what the first page needs, then asks for
 * that page's chunks (modulepreload) and, signed in, for its first API answers, so that neither
 * waits until the entry has loaded and run. The build bundles it on its own, with the small modules
 * it imports.
 */
import { API_BASE, getAccessToken } from '../lib/api-basics';
import { startEarlyRequests } from '../lib/early-requests';
import { CHUNK_TABLE_ID } from './chunk-table';
import { firstLoad } from './first-load';

function boot() {
  const table = document.getElementById(CHUNK_TABLE_ID)?.textContent;
  const chunks = (table ? JSON.parse(table) : {}) as Record<string, string[]>;
  const token = getAccessToken();
  const plan = firstLoad(window.location.pathname, window.location.search, token !== null);
  if (token !== null && plan.requests.length > 0)
    startEarlyRequests(
      plan.requests.map((path) => `${API_BASE}${path}`),
      token,
    );
  for (const href of new Set(plan.chunks.flatMap((group) => chunks[group] ?? []))) {
    const link = document.createElement('link');
    // A style sheet is only fetched here (`preload`): Vite's loader still adds it and waits for it
    // before the chunk runs, so nothing paints unstyled, but finds it in the cache.
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
    }
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

boot();
