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

export function findCatalogEntry(db: Q, name: string): Promise<CatalogEntry | undefined> {
  return db.selectFrom('catalog_entry').selectAll().where('name', '=', name).executeTakeFirst()
}

export async function updateCatalogRow(
  db: Q,
  name: string,
  patch: Partial<Pick<CatalogEntry, 'sort' | 'icon' | 'hidden' | 'title_zh' | 'title_en'>>,
  now: string,
): Promise<void> {
  await db
    .updateTable('catalog_entry')
    .set({ ...patch, updated_at: now })
    .where('name', '=', name)
    .execute()
}
