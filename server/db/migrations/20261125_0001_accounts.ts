import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they describe the schema before the Database interface knows it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer'
  // SQLite's INTEGER PRIMARY KEY AUTOINCREMENT; PostgreSQL's serial already counts.
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  await db.schema
    .createTable('app_user')
    .addColumn('id', serial, id)
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('image', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('session')
    .addColumn('id', serial, id)
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(32)')
    .addColumn('ended_reason', 'varchar(32)')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute()

  await db.schema
    .createTable('audit_log')
    .addColumn('id', serial, id)
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(32)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute()
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute()
  await db.schema.createIndex('audit_log_user_idx').on('audit_log').columns(['user_id', 'at']).execute()

  await db.schema
    .createTable('login_throttle')
    .addColumn('username', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .execute()

  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END; $$ LANGUAGE plpgsql`.execute(db)
    await sql`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db)
  } else {
    await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db)
    await sql`CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`.execute(db)
  }
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') {
    await sql`DROP TRIGGER IF EXISTS audit_log_no_change ON audit_log`.execute(db)
    await sql`DROP FUNCTION IF EXISTS audit_log_append_only()`.execute(db)
  }
  await db.schema.dropTable('login_throttle').execute()
  await db.schema.dropTable('audit_log').execute()
  await db.schema.dropTable('session').execute()
  await db.schema.dropTable('app_user').execute()
}
