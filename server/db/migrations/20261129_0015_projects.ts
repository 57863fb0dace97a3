import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/*
 * Research projects (issue 9): the project with every SPEC §3 field, its queues, centers (from a
 * directory), pinned CRF / question-group versions, project roles with their queue and center
 * permissions, members, applications to join, the randomization plan with its groups and the
 * generated allocation list, and the research objects (subjects) table that later issues widen.
 *
 * The 0002 `project` table held only name and disease so that diseases could count their
 * projects; no call ever wrote it, so it is replaced rather than widened.
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('')

  await db.schema.dropTable('project').execute()

  await db.schema
    .createTable('center')
    .addColumn('id', serial, id)
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(200)', text)
    .addColumn('region', 'varchar(100)', text)
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('center_code_uq')
    .on('center')
    .expression(sql`lower(code)`)
    .unique()
    .execute()
  await db.schema.createIndex('center_name_idx').on('center').columns(['name_zh', 'id']).execute()

  await db.schema
    .createTable('project')
    .addColumn('id', serial, id)
    .addColumn('scope', 'varchar(8)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('number', 'varchar(50)', (c) => c.notNull())
    .addColumn('test_stage', 'varchar(8)')
    .addColumn('group_number', 'varchar(50)', text)
    .addColumn('manage_biomaterial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('group_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('disease_id', 'integer', (c) => c.references('disease.id'))
    .addColumn('blinded', 'varchar(8)', (c) => c.notNull())
    .addColumn('random_method', 'varchar(16)', (c) => c.notNull())
    .addColumn('planned_quantity', 'integer', (c) => c.notNull())
    .addColumn('planned_groups', 'integer', (c) => c.notNull())
    .addColumn('therapy_time', 'varchar(50)', text)
    .addColumn('follow_up_time', 'varchar(50)', text)
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    /** The reason of the last unpass or close, shown on the detail screen until the next transition. */
    .addColumn('status_reason', 'text', text)
    /** Kept by the subject writes (issue 10) so the list sorts by it from an index. */
    .addColumn('subject_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creator_id', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('project_number_uq')
    .on('project')
    .expression(sql`lower(number)`)
    .unique()
    .execute()
  await db.schema.createIndex('project_disease_idx').on('project').column('disease_id').execute()
  // Each list is one scope (multi / single) sorted by one key, keyset-paged on (key, id).
  for (const [name, key] of [
    ['name', 'name'],
    ['number', 'number'],
    ['created', 'created_at'],
    ['updated', 'updated_at'],
    ['subjects', 'subject_count'],
  ] as const) {
    await db.schema.createIndex(`project_${name}_idx`).on('project').columns(['scope', key, 'id']).execute()
  }

  await db.schema
    .createTable('project_queue')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('key', 'varchar(30)', (c) => c.notNull())
    .addColumn('entry_condition', 'text', text)
    .addColumn('exclude_condition', 'text', text)
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('project_queue_key_uq', ['project_id', 'key'])
    .execute()

  await db.schema
    .createTable('project_center')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('center_id', 'integer', (c) => c.notNull().references('center.id'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('project_center_pk', ['project_id', 'center_id'])
    .execute()
  await db.schema.createIndex('project_center_center_idx').on('project_center').column('center_id').execute()

  await db.schema
    .createTable('project_form')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id'))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('template_version.id'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('project_form_pk', ['project_id', 'template_id'])
    .execute()
  await db.schema.createIndex('project_form_template_idx').on('project_form').column('template_id').execute()

  await db.schema
    .createTable('project_role')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('remarks', 'varchar(200)', text)
    /** JSON array of contract ProjectAuthority. */
    .addColumn('authorities', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('all_queues', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('all_centers', 'integer', (c) => c.notNull().defaultTo(0))
    /** Sees no group names and no allocation list (the blinded set). */
    .addColumn('blinded', 'integer', (c) => c.notNull().defaultTo(0))
    /** 'manager' for the role the creator receives; it keeps every authority. */
    .addColumn('builtin', 'varchar(16)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('project_role_name_uq', ['project_id', 'name'])
    .execute()

  await db.schema
    .createTable('project_role_queue')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('project_role.id').onDelete('cascade'))
    .addColumn('queue_id', 'integer', (c) => c.notNull().references('project_queue.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('project_role_queue_pk', ['role_id', 'queue_id'])
    .execute()
  await db.schema
    .createTable('project_role_center')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('project_role.id').onDelete('cascade'))
    .addColumn('center_id', 'integer', (c) => c.notNull().references('center.id'))
    .addPrimaryKeyConstraint('project_role_center_pk', ['role_id', 'center_id'])
    .execute()

  await db.schema
    .createTable('project_member')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('project_role.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('project_member_uq', ['project_id', 'user_id'])
    .execute()
  await db.schema.createIndex('project_member_user_idx').on('project_member').columns(['user_id', 'project_id']).execute()
  await db.schema.createIndex('project_member_role_idx').on('project_member').column('role_id').execute()

  await db.schema
    .createTable('project_application')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
    .addColumn('role_id', 'integer', (c) => c.references('project_role.id').onDelete('set null'))
    .addColumn('reason', 'text', text)
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('decided_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('decision_reason', 'text', text)
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('decided_at', 'varchar(32)')
    .execute()
  await db.schema.createIndex('project_application_project_idx').on('project_application').columns(['project_id', 'status', 'id']).execute()
  await db.schema.createIndex('project_application_user_idx').on('project_application').columns(['user_id', 'id']).execute()

  await db.schema
    .createTable('randomization_plan')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('project.id').onDelete('cascade'))
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    /** The seed the allocation list is generated from; the same seed gives the same list. */
    .addColumn('seed', 'varchar(64)', (c) => c.notNull())
    /** JSON array of block sizes, e.g. [4, 6]. */
    .addColumn('block_sizes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('strata_by_center', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON array of { indicatorId, values: choice codes }. */
    .addColumn('factors', 'text', (c) => c.notNull().defaultTo('[]'))
    /** Entries generated per stratum. */
    .addColumn('list_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generated_at', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('project_group')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('code', 'varchar(30)', (c) => c.notNull())
    .addColumn('name', 'varchar(50)', (c) => c.notNull())
    .addColumn('ratio', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('project_group_code_uq', ['project_id', 'code'])
    .execute()

  await db.schema
    .createTable('subject')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id'))
    .addColumn('queue_id', 'integer', (c) => c.notNull().references('project_queue.id'))
    .addColumn('center_id', 'integer', (c) => c.notNull().references('center.id'))
    .addColumn('subject_no', 'varchar(50)', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('app_user.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('subject_no_uq', ['project_id', 'subject_no'])
    .execute()
  await db.schema.createIndex('subject_queue_idx').on('subject').columns(['queue_id', 'id']).execute()
  await db.schema.createIndex('subject_center_idx').on('subject').columns(['project_id', 'center_id', 'id']).execute()

  await db.schema
    .createTable('allocation')
    .addColumn('id', serial, id)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    /** '' without strata; else the center id and factor codes, e.g. 'c3|sex=1'. */
    .addColumn('stratum', 'varchar(200)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** Position of the block in its stratum; 0 for simple randomization. */
    .addColumn('block', 'integer', (c) => c.notNull())
    .addColumn('block_size', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'integer', (c) => c.notNull().references('project_group.id'))
    .addColumn('subject_id', 'integer', (c) => c.references('subject.id'))
    .addColumn('allocated_at', 'varchar(32)')
    .addUniqueConstraint('allocation_seq_uq', ['project_id', 'stratum', 'seq'])
    .execute()
  await db.schema.createIndex('allocation_subject_idx').on('allocation').column('subject_id').execute()
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  for (const table of [
    'allocation',
    'subject',
    'project_group',
    'randomization_plan',
    'project_application',
    'project_member',
    'project_role_center',
    'project_role_queue',
    'project_role',
    'project_form',
    'project_center',
    'project_queue',
    'project',
    'center',
  ]) {
    await db.schema.dropTable(table).execute()
  }
  await db.schema
    .createTable('project')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('disease_id', 'integer', (c) => c.references('disease.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('project_disease_idx').on('project').column('disease_id').execute()
}
