/** One page of a list the server pages (audit, Papierkorb, search). */
export interface TablePage {
  page: number;
  perPage: number;
}

/** Adds a list's day range (Berlin calendar days, YYYY-MM-DD) to its query string, where set. */
export function addDayRange(params: URLSearchParams, range: { from?: string; to?: string }): void {
  if (range.from) params.set('from', range.from);
  if (range.to) params.set('to', range.to);
}

/** Adds the page as `page` and `per_page`, where one is asked for. */
export function addPage(params: URLSearchParams, page?: TablePage): void {
  if (!page) return;
  params.set('page', String(page.page));
  params.set('per_page', String(page.perPage));
}
