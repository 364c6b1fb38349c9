import type { LegalLinks } from '@gremienportal/contracts/account';
import { api } from './api-client';

/*
 * The footer's legal links (product.md P2.4). Without the data layer of the signed-in part, so
 * that the signed-out pages can show them too (§ 5 DDG, Art. 13 DSGVO).
 */

export type { LegalLinks };

let legalLinks: Promise<LegalLinks | undefined> | null = null;

/**
 * Impressum and Datenschutz for the signed-out pages, asked for once from the public
 * `/legal-links`. A failure leaves the footer without links and signs nobody out; the next page
 * asks again.
 */
export function loadLegalLinks(): Promise<LegalLinks | undefined> {
  legalLinks ??= api
    .get<{ data: LegalLinks }>('/legal-links', { signOutOn401: false })
    .then((body) => body.data)
    .catch(() => {
      legalLinks = null;
      return undefined;
    });
  return legalLinks;
}

/** Only http(s) addresses become links; anything else from the configuration is ignored. */
export function safeExternalUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the loaded links (tests start every case without them). */
export function forgetLegalLinks(): void {
  legalLinks = null;
}
