/**
 * A unique constraint refused the write: what a concurrent writer can cause between our check
 * and our insert (PostgreSQL runs transactions side by side; SQLite's one writer does not).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false
  const code = (err as { code: unknown }).code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/** A foreign key refused the write: a row it names went away under a concurrent writer. */
export function isForeignKeyViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !('code' in err)) return false
  const code = (err as { code: unknown }).code
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
}
