/** One page of a list the server pages (audit, Papierkorb, search). */
export interface TablePage {
  page: number;
  perPage: number;
}

/**
 * Completes a list's query string: its day range (Berlin calendar days, YYYY-MM-DD) where set, and
 * the page as `page` and `per_page`.
 */
export function withRangeAndPage(
  params: URLSearchParams,
  range: { from?: string; to?: string },
  page?: TablePage,
): URLSearchParams {
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
  if (page) {
    params.set('page', String(page.page));
    params.set('per_page', String(page.perPage));
  }
  return params;
}
