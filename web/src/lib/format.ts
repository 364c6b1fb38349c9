/** Dates and sizes as German readers expect them; times always in the cooperative's time zone. */
import { BYTES_PER_MB, formatBytes } from '@gremienportal/contracts/sizes';

export const TIME_ZONE = 'Europe/Berlin';

/**
 * Made on first use, not when the module loads: a formatter for a time zone takes a noticeable
 * moment to build on a slow phone, and the module loads while a page's first paint is due.
 */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const DATE_PARTS = { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' } as const;
const dateFormat = once(() => new Intl.DateTimeFormat('de-DE', DATE_PARTS));
const dateTimeFormat = once(
  () => new Intl.DateTimeFormat('de-DE', { ...DATE_PARTS, hour: '2-digit', minute: '2-digit' }),
);

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** "21.11.2026, 14:30"; empty for a missing or unreadable value. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? dateTimeFormat().format(date) : '';
}

/** "21.11.2026"; empty for a missing or unreadable value. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return date ? dateFormat().format(date) : '';
}

export { BYTES_PER_MB };

/**
 * `formatBytes` of the contracts ("1,25 MB", "8,5 KB", "628 Bytes"). The API reports sizes in MB
 * (product.md P10.6); pass `{ unit: 'bytes' }` for a byte count, e.g. a file chosen in the browser.
 */
export function formatSizeMb(
  value: number | null | undefined,
  options: { unit?: 'mb' | 'bytes' } = {},
): string {
  if (value === null || value === undefined) return '';
  return formatBytes(options.unit === 'bytes' ? value : value * BYTES_PER_MB);
}
