import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

const searched = ['code', 'name_zh', 'name_en'] as const

/**
 * The list's `q` matches a prefix regardless of case ('bp' finds 'BP_SYS'): the range conditions
 * compare lower(column), which only an index on that same expression can serve (id is the keyset
 * tie-breaker, as on the sort indexes).
 */
export async function up(db: AnyDb): Promise<void> {
  for (const col of searched) {
    await db.schema
      .createIndex(`indicator_${col}_lower_idx`)
      .on('indicator')
      .expression(sql`lower(${sql.ref(col)}), ${sql.ref('id')}`)
      .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const col of [...searched].reverse()) await db.schema.dropIndex(`indicator_${col}_lower_idx`).execute()
}
