/**
 * Whether a write failed on a unique index (an e-mail address or a sibling folder title taken at
 * the same moment). better-sqlite3 reports its own code, PostgreSQL the SQLSTATE 23505.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
