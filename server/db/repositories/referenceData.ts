import type { Insertable } from 'kysely'
import type { Q } from '../query.ts'
import type { DiseaseTable, TimelineItemTable } from '../tables/dictionary.ts'

/** Inserts the diseases whose name is not there yet; existing rows are never touched. */
export async function insertMissingDiseases(db: Q, rows: readonly Insertable<DiseaseTable>[]): Promise<void> {
  const present = new Set((await db.selectFrom('disease').select('name').execute()).map((r) => r.name))
  for (const row of rows) if (!present.has(row.name)) await db.insertInto('disease').values(row).execute()
}

/** Inserts the timeline items whose code is not there yet; existing rows are never touched. */
export async function insertMissingTimelineItems(db: Q, rows: readonly Insertable<TimelineItemTable>[]): Promise<void> {
  const present = new Set((await db.selectFrom('timeline_item').select('code').execute()).map((r) => r.code))
  for (const row of rows) if (!present.has(row.code)) await db.insertInto('timeline_item').values(row).execute()
}
