import type { ColumnDefinitionBuilder, Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/** Diseases, timeline items, indicators, CRF / question-group templates and their versions. */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const real = dialect === 'postgres' ? 'double precision' : 'real'

  await db.schema
    .createTable('disease')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'varchar(60)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('timeline_item')
    .addColumn('id', serial, id)
    .addColumn('code', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)', (c) => c.notNull())
    .addColumn('icon', 'varchar(60)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  // Projects get their full shape with the projects work; diseases need to know they are used.
  await db.schema
    .createTable('project')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('disease_id', 'integer', (c) => c.references('disease.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('project_disease_idx').on('project').column('disease_id').execute()

  await db.schema
    .createTable('indicator')
    .addColumn('id', serial, id)
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name_zh', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('display', 'varchar(16)', (c) => c.notNull())
    .addColumn('data_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('dependent_field_id', 'integer', (c) => c.references('indicator.id'))
    .addColumn('dependent_value', 'varchar(200)')
    .addColumn('unit', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('minimum', real)
    .addColumn('maximum', real)
    .addColumn('date_format', 'varchar(24)')
    .addColumn('default_value', 'varchar(500)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('index_class', 'varchar(60)', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'varchar(16)', (c) => c.notNull().defaultTo('all'))
    .addColumn('disease_id', 'integer', (c) => c.references('disease.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  // Every sortable column is index-backed, with id as the keyset tie-breaker (DESIGN §8).
  for (const col of ['name_zh', 'name_en', 'type', 'index_class', 'updated_at']) {
    await db.schema.createIndex(`indicator_${col}_idx`).on('indicator').columns([col, 'id']).execute()
  }
  await db.schema.createIndex('indicator_disease_idx').on('indicator').columns(['disease_id', 'code']).execute()
  await db.schema.createIndex('indicator_dependent_idx').on('indicator').column('dependent_field_id').execute()

  await db.schema
    .createTable('template')
    .addColumn('id', serial, id)
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('collect_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('template_kind_name_idx').on('template').columns(['kind', 'name', 'id']).execute()

  await db.schema
    .createTable('template_prepose')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('prepose_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('template_prepose_pk', ['template_id', 'prepose_id'])
    .execute()

  await db.schema
    .createTable('template_version')
    .addColumn('id', serial, id)
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    /** Section keys, titles and the repeating flag, in order, as JSON; items are rows below. */
    .addColumn('sections', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('published_at', 'varchar(32)')
    .addUniqueConstraint('template_version_unique', ['template_id', 'version'])
    .execute()

  await db.schema
    .createTable('template_item')
    .addColumn('version_id', 'integer', (c) => c.notNull().references('template_version.id').onDelete('cascade'))
    .addColumn('section_key', 'varchar(40)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('indicator_id', 'integer', (c) => c.notNull().references('indicator.id'))
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('template_item_pk', ['version_id', 'section_key', 'position'])
    .execute()
  await db.schema.createIndex('template_item_indicator_idx').on('template_item').column('indicator_id').execute()
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of [
    'template_item',
    'template_version',
    'template_prepose',
    'template',
    'indicator',
    'project',
    'timeline_item',
    'disease',
  ]) {
    await db.schema.dropTable(t).execute()
  }
}
