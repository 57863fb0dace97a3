/**
 * JSON document columns (server/db/tables/studyData.ts JsonColumn): written as a JSON string,
 * read back as text on SQLite and already parsed on PostgreSQL. Inside SQL, `col ->> 'key'` reads
 * one member as text on both dialects (and can back an expression index on both).
 */
export const toJson = (value: unknown): string => JSON.stringify(value)

export function fromJson<T>(raw: unknown): T {
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as T
}
