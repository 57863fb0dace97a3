import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * People and their sign-in identities become two tables: the old `app_user` (username,
 * password, status) is renamed `account`, and a new `app_user` holds the person (name, avatar,
 * department, career, contact). Ids are kept, so a person's id is the id their account had, and
 * the audit log's user ids keep pointing at the same people. Adds departments, careers, system
 * roles with their grants, and the menu catalog. Every account that existed becomes a system
 * administrator: before this, every signed-in user was one (SPEC §6).
 */
export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())

  await sql`ALTER TABLE app_user RENAME TO account`.execute(db)
  if (dialect === 'postgres') {
    // The new app_user would otherwise collide with the names PostgreSQL gave the old one.
    await sql`ALTER SEQUENCE app_user_id_seq RENAME TO account_id_seq`.execute(db)
    await sql`ALTER INDEX app_user_pkey RENAME TO account_pkey`.execute(db)
    await sql`ALTER INDEX app_user_username_key RENAME TO account_username_key`.execute(db)
  }
  await sql`ALTER TABLE session RENAME COLUMN user_id TO account_id`.execute(db)

  await db.schema
    .createTable('department')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.references('department.id'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('department_parent_idx').on('department').columns(['parent_id', 'sort', 'id']).execute()
  await db.schema.createIndex('department_name_idx').on('department').columns(['name', 'id']).execute()

  await db.schema
    .createTable('career')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('career_name_lower_idx')
    .on('career')
    .unique()
    .expression(sql`lower(name)`)
    .execute()
  await db.schema.createIndex('career_name_idx').on('career').columns(['name', 'id']).execute()

  await db.schema
    .createTable('app_user')
    .addColumn('id', serial, id)
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('image', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('department_id', 'integer', (c) => c.references('department.id'))
    .addColumn('career_id', 'integer', (c) => c.references('career.id'))
    .addColumn('mobile', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('app_user_name_idx').on('app_user').columns(['name', 'id']).execute()
  await db.schema.createIndex('app_user_department_idx').on('app_user').columns(['department_id', 'name', 'id']).execute()
  await db.schema.createIndex('app_user_career_idx').on('app_user').columns(['career_id', 'name', 'id']).execute()
  await db.schema.createIndex('app_user_mobile_idx').on('app_user').columns(['mobile', 'id']).execute()

  await sql`INSERT INTO app_user (id, name, image, description, status, created_at, updated_at)
    SELECT id, name, image, description, 1, created_at, updated_at FROM account`.execute(db)
  if (dialect === 'postgres') {
    await sql`SELECT setval(pg_get_serial_sequence('app_user', 'id'), coalesce((SELECT max(id) FROM app_user), 0) + 1, false)`.execute(db)
  }

  await db.schema
    .alterTable('account')
    .addColumn('user_id', 'integer', (c) => c.references('app_user.id'))
    .execute()
  await db.schema
    .alterTable('account')
    .addColumn('platform', 'varchar(32)', (c) => c.notNull().defaultTo('web'))
    .execute()
  await db.schema.alterTable('account').addColumn('locked_until', 'varchar(32)').execute()
  await db.schema.alterTable('account').addColumn('last_login_at', 'varchar(32)').execute()
  await db.schema.alterTable('account').addColumn('last_login_ip', 'varchar(64)').execute()
  await db.schema
    .alterTable('account')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`UPDATE account SET user_id = id`.execute(db)
  if (dialect === 'postgres') await sql`ALTER TABLE account ALTER COLUMN user_id SET NOT NULL`.execute(db)
  for (const column of ['name', 'image', 'description']) await db.schema.alterTable('account').dropColumn(column).execute()
  // Usernames are unique whatever their case: 'Alice' cannot sign up beside 'alice'.
  await db.schema
    .createIndex('account_username_lower_idx')
    .on('account')
    .unique()
    .expression(sql`lower(username)`)
    .execute()
  await db.schema.createIndex('account_user_idx').on('account').columns(['user_id', 'id']).execute()
  await db.schema.createIndex('account_username_idx').on('account').columns(['username', 'id']).execute()

  await db.schema
    .createTable('role')
    .addColumn('id', serial, id)
    .addColumn('name_zh', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(64)', (c) => c.notNull())
    .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('builtin', 'varchar(32)', (c) => c.unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('role_grant')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_grant_pk', ['role_id', 'kind', 'name'])
    .execute()
  await db.schema
    .createTable('user_role')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('role.id'))
    .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role_id'])
    .execute()
  await db.schema.createIndex('user_role_role_idx').on('user_role').columns(['role_id', 'user_id']).execute()

  const now = new Date().toISOString()
  await sql`INSERT INTO role (name_zh, name_en, remarks, builtin, created_at, updated_at)
    VALUES ('系统管理员', 'System administrator', '', 'sysAdmin', ${now}, ${now})`.execute(db)
  await sql`INSERT INTO user_role (user_id, role_id) SELECT u.id, r.id FROM app_user u, role r WHERE r.builtin = 'sysAdmin'`.execute(db)

  await db.schema
    .createTable('catalog_entry')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('menu', 'varchar(32)')
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('icon', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title_zh', 'varchar(64)', (c) => c.notNull())
    .addColumn('title_en', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema.dropTable('catalog_entry').execute()
  await db.schema.dropTable('user_role').execute()
  await db.schema.dropTable('role_grant').execute()
  await db.schema.dropTable('role').execute()
  await db.schema.dropIndex('account_username_idx').execute()
  await db.schema.dropIndex('account_user_idx').execute()
  await db.schema.dropIndex('account_username_lower_idx').execute()
  await db.schema
    .alterTable('account')
    .addColumn('name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('account')
    .addColumn('image', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('account')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await sql`UPDATE account SET name = (SELECT u.name FROM app_user u WHERE u.id = account.user_id),
    image = (SELECT u.image FROM app_user u WHERE u.id = account.user_id),
    description = (SELECT u.description FROM app_user u WHERE u.id = account.user_id)`.execute(db)
  for (const column of ['must_change_password', 'last_login_ip', 'last_login_at', 'locked_until', 'platform', 'user_id']) {
    await db.schema.alterTable('account').dropColumn(column).execute()
  }
  await db.schema.dropTable('app_user').execute()
  await db.schema.dropTable('career').execute()
  await db.schema.dropTable('department').execute()
  await sql`ALTER TABLE session RENAME COLUMN account_id TO user_id`.execute(db)
  if (dialect === 'postgres') {
    await sql`ALTER INDEX account_username_key RENAME TO app_user_username_key`.execute(db)
    await sql`ALTER INDEX account_pkey RENAME TO app_user_pkey`.execute(db)
    await sql`ALTER SEQUENCE account_id_seq RENAME TO app_user_id_seq`.execute(db)
  }
  await sql`ALTER TABLE account RENAME TO app_user`.execute(db)
}
