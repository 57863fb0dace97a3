import type { Q } from '../query.ts'
import type { CatalogEntry } from '../tables/catalog.ts'

export function listCatalog(db: Q): Promise<CatalogEntry[]> {
  return db.selectFrom('catalog_entry').selectAll().orderBy('sort').orderBy('name').execute()
}

/** Adds entries whose name is not there yet; an administrator's edits to existing ones stay. */
export async function insertMissingCatalogEntries(db: Q, entries: readonly CatalogEntry[]): Promise<void> {
  if (entries.length === 0) return
  await db
    .insertInto('catalog_entry')
    .values([...entries])
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
}
