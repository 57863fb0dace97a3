import type { Insertable } from 'kysely'
import { toJson } from '../json.ts'
import type { Q } from '../query.ts'
import type { DataAuditTable, FormRecordTable, FormRowTable } from '../tables/studyData.ts'

/**
 * Bulk writes of the demo study (server/demo): entered values for a thousand subjects in a few
 * multi-row statements instead of one save per form.
 */

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
const chunk = 200

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += chunk) yield rows.slice(i, i + chunk)
}

export function findProjectByNumber(db: Q, number: string) {
  return db.selectFrom('project').select(['id', 'name']).where('number', '=', number).executeTakeFirst()
}

/** Inserts the records and answers their ids in the order given. */
export async function insertFormRecords(db: Q, rows: readonly Insertable<FormRecordTable>[]): Promise<number[]> {
  const ids: number[] = []
  for (const part of chunks(rows)) {
    const got = await db.insertInto('form_record').values(part).returning('id').execute()
    // Multi-row RETURNING answers in the order of VALUES on both dialects.
    ids.push(...got.map((r) => r.id))
  }
  return ids
}

export async function insertFormRows(db: Q, rows: readonly Insertable<FormRowTable>[]): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto('form_row').values(part).execute()
}

export async function insertDataAudit(db: Q, rows: readonly Insertable<DataAuditTable>[]): Promise<void> {
  for (const part of chunks(rows)) await db.insertInto('data_audit').values(part).execute()
}

export async function setSubjectSummary(db: Q, subjectId: number, summary: Record<string, string>, updatedAt: string): Promise<void> {
  await db
    .updateTable('subject')
    .set({ summary: toJson(summary), updated_at: updatedAt })
    .where('id', '=', subjectId)
    .execute()
}
