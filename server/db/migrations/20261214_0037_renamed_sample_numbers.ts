import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * A renamed sample's old number is kept from other samples as a deleted sample's is (0036): the
 * tube may carry the old label, and the trail names it. Numbers samples had before a rename are
 * read back from the audit trail (each 'sample.create' and 'sample.update' row names the number
 * the sample had from then on); one another sample holds now stays that sample's.
 */
export async function up(db: AnyDb): Promise<void> {
  const rows = (await db
    .selectFrom('audit_log')
    .select(['object_id', 'detail', 'at'])
    .where('object_type', '=', 'project')
    .where('action', 'in', ['sample.create', 'sample.update'])
    .where('outcome', '=', 'ok')
    .where('object_id', 'in', db.selectFrom('project').select('id'))
    .orderBy('id')
    .execute()) as { object_id: number; detail: string; at: string }[]
  const held = new Map<number, { projectId: number; sampleNo: string }>()
  for (const row of rows) {
    const detail = JSON.parse(row.detail) as { sampleId?: unknown; sampleNo?: unknown }
    if (typeof detail.sampleNo !== 'string' || typeof detail.sampleId !== 'number') continue
    const had = held.get(detail.sampleId)
    held.set(detail.sampleId, { projectId: row.object_id, sampleNo: detail.sampleNo })
    if (!had || had.sampleNo.toLowerCase() === detail.sampleNo.toLowerCase()) continue
    const holder = await db
      .selectFrom('sample')
      .select('id')
      .where('project_id', '=', had.projectId)
      .where(sql<string>`lower(sample_no)`, '=', had.sampleNo.toLowerCase())
      .executeTakeFirst()
    if (holder) continue
    await db
      .insertInto('sample_retired_no')
      .values({ project_id: had.projectId, sample_no: had.sampleNo, sample_id: detail.sampleId, deleted_at: row.at })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('sample_retired_no').where('sample_id', 'in', db.selectFrom('sample').select('id')).execute()
}
