/** Parameters per query: far below SQLite's and PostgreSQL's limits. */
const BATCH = 500;

/** `list` in slices of at most 500, one query each. */
export function batches<T>(list: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < list.length; start += BATCH) result.push(list.slice(start, start + BATCH));
  return result;
}
