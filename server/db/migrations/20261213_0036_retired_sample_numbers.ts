import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * A deleted sample's number is never given to another sample of its project: the tube may still
 * carry the printed label and the audit trail names the number. A sample is deleted for good, so
 * its number is kept here, unique per project ignoring case as sample numbers are. Numbers of
 * samples deleted before are read back from the audit trail ('sample.delete' rows of a project).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sample_retired_no')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('sample_no', 'varchar(50)', (c) => c.notNull())
    /** The deleted sample's id, as the audit trail names it. */
    .addColumn('sample_id', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('sample_retired_no_ci_uq')
    .on('sample_retired_no')
    .unique()
    .columns(['project_id'])
    .expression(sql`lower(sample_no)`)
    .execute()

  const deleted = await db
    .selectFrom('audit_log')
    .select(['object_id', 'detail', 'at'])
    .where('object_type', '=', 'project')
    .where('action', '=', 'sample.delete')
    .where('outcome', '=', 'ok')
    .where('object_id', 'in', db.selectFrom('project').select('id'))
    .orderBy('id')
    .execute()
  for (const row of deleted as { object_id: number; detail: string; at: string }[]) {
    const detail = JSON.parse(row.detail) as { sampleId?: unknown; sampleNo?: unknown }
    if (typeof detail.sampleNo !== 'string' || typeof detail.sampleId !== 'number') continue
    await db
      .insertInto('sample_retired_no')
      .values({ project_id: row.object_id, sample_no: detail.sampleNo, sample_id: detail.sampleId, deleted_at: row.at })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sample_retired_no').execute()
}
