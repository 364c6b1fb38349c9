/** Sizes as German readers expect them, the same on every page, mail and PDF. */

/** 1 MB = 1024 × 1024 bytes, as the API's `size` fields count (product.md P10.6). */
export const BYTES_PER_MB = 1024 * 1024;

/**
 * Made on first use, not when the module loads: building the formatters took a noticeable part of
 * a slow phone's CPU while the explorer's first paint was due (decision 184).
 */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
const megabytes = once(
  () => new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);
const kilobytes = once(() => new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 }));
const wholeNumber = once(() => new Intl.NumberFormat('de-DE'));

/**
 * "1,25 MB"; below 0,01 MB, where MB would read "0,00 MB", in KB ("8,5 KB") or bytes ("628 Bytes",
 * "1 Byte"). Empty for a missing, negative or unreadable count.
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  const whole = Math.round(bytes);
  const mb = whole / BYTES_PER_MB;
  if (mb >= 0.01) return `${megabytes().format(mb)} MB`;
  if (whole >= 1024) return `${kilobytes().format(whole / 1024)} KB`;
  return `${wholeNumber().format(whole)} ${whole === 1 ? 'Byte' : 'Bytes'}`;
}
